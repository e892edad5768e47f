package export_test

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// TestFeedTaps checks that each Tap sees every span recorded after it was
// made, whatever the other Taps took, and nothing after Close.
func TestFeedTaps(t *testing.T) {
	h := counter.NewHistogram()
	h.Record(1) // before the Feed: in no Tap
	f := mustFeed(t, h)
	a, b := f.Tap(), f.Tap()
	h.Record(10)
	var s counter.Snapshot
	a.Interval(&s)
	if s.Count() != 1 || s.Sum() != 10 {
		t.Errorf("a: %d spans, sum %d; want the one of 10", s.Count(), s.Sum())
	}
	c := f.Tap() // after 10 was taken: c never sees it
	h.Record(20)
	h.Record(-3)
	b.Interval(&s)
	if s.Count() != 2 || s.Sum() != 30 || s.Negative() != 1 {
		t.Errorf("b: %d spans, sum %d, %d negative; want 10 and 20, and one", s.Count(), s.Sum(), s.Negative())
	}
	c.Interval(&s)
	if s.Count() != 1 || s.Sum() != 20 || s.Min() != 20 || s.Negative() != 1 {
		t.Errorf("c: %d spans, sum %d; want the one of 20", s.Count(), s.Sum())
	}
	a.Interval(&s)
	if s.Count() != 1 || s.Sum() != 20 {
		t.Errorf("a: %d spans, sum %d; want the one of 20", s.Count(), s.Sum())
	}
	a.Close()
	a.Close()
	h.Record(30)
	a.Interval(&s)
	if s.Count() != 0 {
		t.Errorf("a closed Tap holds %d spans", s.Count())
	}
	for _, tap := range []*export.Tap{b, c} {
		tap.Interval(&s)
		if s.Count() != 1 || s.Sum() != 30 {
			t.Errorf("%d spans, sum %d; want the one of 30", s.Count(), s.Sum())
		}
	}
}

// TestFeedConcurrent has four writers record while three Taps read back to
// back: each Tap's Intervals add up to every span, exactly.
func TestFeedConcurrent(t *testing.T) {
	h := counter.NewHistogram()
	f := mustFeed(t, h)
	taps := []*export.Tap{f.Tap(), f.Tap(), f.Tap()}
	const writers, spans = 4, 50_000
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			r := h.Recorder()
			defer r.Close()
			for i := range spans {
				r.Record(counter.Tickdelta(1 + w*spans + i))
			}
		})
	}
	totals := make([]counter.Snapshot, len(taps))
	done := make(chan struct{})
	var readers sync.WaitGroup
	for i, tap := range taps {
		readers.Go(func() {
			var s counter.Snapshot
			for {
				select {
				case <-done:
					tap.Interval(&s)
					totals[i].Merge(&s)
					return
				default:
				}
				tap.Interval(&s)
				totals[i].Merge(&s)
			}
		})
	}
	wg.Wait()
	close(done)
	readers.Wait()
	const n int64 = writers * spans // typed: n·(n+1)/2 is past a 32-bit int
	for i := range totals {
		c, sum, most := totals[i].Count(), totals[i].Sum(), totals[i].Max()
		if c != uint64(n) || sum != counter.Tickdelta(n*(n+1)/2) || most != counter.Tickdelta(n) {
			t.Errorf("tap %d: %d spans, sum %d, max %d; want %d, %d, %d", i, c, sum, most, n, n*(n+1)/2, n)
		}
	}
}

// TestHistogramIsASource: a Histogram is read where a Tap is.
func TestHistogramIsASource(t *testing.T) {
	var _ export.Source = counter.NewHistogram()
	var _ export.Source = mustFeed(t, counter.NewHistogram()).Tap()
}

// TestNewFeedRefuses: NewFeed refuses a nil or zero Histogram with
// ErrNilSource, and a Histogram that another Feed reads with
// ErrSecondReader, whose message names that Feed and the way to share;
// once that Feed and its Taps are collected, a new Feed of the Histogram
// is made.
func TestNewFeedRefuses(t *testing.T) {
	for name, h := range map[string]*counter.Histogram{"nil": nil, "zero": new(counter.Histogram)} {
		f, err := export.NewFeed(h)
		if f != nil || !errors.Is(err, export.ErrNilSource) || !strings.HasPrefix(err.Error(), "export: NewFeed needs a Histogram made by counter.NewHistogram") {
			t.Errorf("NewFeed of a %s Histogram = %v, %v; want nil, an error wrapping ErrNilSource", name, f, err)
		}
	}
	h := counter.NewHistogram()
	first := mustFeed(t, h)
	tap := first.Tap()
	f, err := export.NewFeed(h)
	if f != nil || !errors.Is(err, export.ErrSecondReader) {
		t.Fatalf("a second NewFeed = %v, %v; want nil, an error wrapping ErrSecondReader", f, err)
	}
	if want := "export: the Histogram is read by an export.Feed already, and each span goes to one reader, so a second would split its spans: make one export.Feed of it and give each reader a Tap of that Feed"; err.Error() != want {
		t.Errorf("a second NewFeed:\n%v\nwant\n%s", err, want)
	}
	h.Record(5)
	var s counter.Snapshot
	tap.Interval(&s)
	if s.Count() != 1 {
		t.Errorf("the first Feed's Tap holds %d spans after a refused NewFeed; want 1", s.Count())
	}
	runtime.KeepAlive(tap) // and with it the first Feed
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if _, err = export.NewFeed(h); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("NewFeed after the first Feed was collected: %v", err)
		}
		time.Sleep(time.Millisecond)
	}
}

// mustFeed returns NewFeed(h), failing t where it refuses.
func mustFeed(t testing.TB, h *counter.Histogram) *export.Feed {
	t.Helper()
	f, err := export.NewFeed(h)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
