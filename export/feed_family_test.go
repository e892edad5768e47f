package export_test

import (
	"errors"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// visited is what one Interval of a FamilySource visited: each series'
// count, by its values joined by commas ("overflow" for the overflow
// series), and the order of the visits.
type visited struct {
	counts map[string]uint64
	order  []string
}

// visitAll takes one Interval of src.
func visitAll(t testing.TB, src export.FamilySource) visited {
	t.Helper()
	v := visited{counts: map[string]uint64{}}
	src.Interval(func(values []string, s *counter.Snapshot) {
		key := "overflow"
		if values != nil {
			key = strings.Join(values, ",")
		}
		if _, twice := v.counts[key]; twice {
			t.Errorf("series %s visited twice in one Interval", key)
		}
		v.counts[key] = s.Count() + s.Negative()
		v.order = append(v.order, key)
	})
	return v
}

func newFamily(t testing.TB, limit int, labels ...string) *counter.Family {
	t.Helper()
	f, err := counter.NewFamily(labels, limit)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustFamilyFeed(t testing.TB, f *counter.Family) *export.FamilyFeed {
	t.Helper()
	ff, err := export.NewFamilyFeed(f)
	if err != nil {
		t.Fatal(err)
	}
	return ff
}

// TestFamilyFeedTaps: each FamilyTap visits every series of the Family,
// empty or not, in the order first seen and the overflow series last, each
// with the spans recorded into it since that Tap's previous Interval (and
// after the Tap was made), whatever the other Taps took; a closed Tap
// visits nothing.
func TestFamilyFeedTaps(t *testing.T) {
	f := newFamily(t, 3, "k")
	f.With("a").Record(1) // before the FamilyFeed: in no Tap
	ff := mustFamilyFeed(t, f)
	a, b := ff.Tap(), ff.Tap()
	f.With("a").Record(10)
	f.With("b").Record(20)
	if got, want := visitAll(t, a), (visited{map[string]uint64{"a": 1, "b": 1}, []string{"a", "b"}}); !equal(got, want) {
		t.Errorf("a: %v; want %v", got, want)
	}
	c := ff.Tap() // after a took 10 and 20: c never sees them
	f.With("b").Record(30)
	f.With("b").Record(-3)
	f.With("x").Record(40) // past the limit
	f.With("y").Record(50)
	if got, want := visitAll(t, b), (visited{map[string]uint64{"a": 1, "b": 3, "overflow": 2}, []string{"a", "b", "overflow"}}); !equal(got, want) {
		t.Errorf("b: %v; want %v", got, want)
	}
	if got, want := visitAll(t, c), (visited{map[string]uint64{"a": 0, "b": 2, "overflow": 2}, []string{"a", "b", "overflow"}}); !equal(got, want) {
		t.Errorf("c: %v; want %v", got, want)
	}
	if got, want := visitAll(t, a), (visited{map[string]uint64{"a": 0, "b": 2, "overflow": 2}, []string{"a", "b", "overflow"}}); !equal(got, want) {
		t.Errorf("a: %v; want %v", got, want)
	}
	a.Close()
	a.Close()
	f.With("a").Record(60)
	if got := visitAll(t, a); len(got.order) != 0 {
		t.Errorf("a closed FamilyTap visited %v", got)
	}
	for name, tap := range map[string]*export.FamilyTap{"b": b, "c": c} {
		if got, want := visitAll(t, tap), (visited{map[string]uint64{"a": 1, "b": 0, "overflow": 0}, []string{"a", "b", "overflow"}}); !equal(got, want) {
			t.Errorf("%s: %v; want %v", name, got, want)
		}
	}
	if got := b.Labels(); !slices.Equal(got, []string{"k"}) {
		t.Errorf("Labels = %q; want the Family's", got)
	}
}

func equal(a, b visited) bool {
	return maps.Equal(a.counts, b.counts) && slices.Equal(a.order, b.order)
}

// TestFamilyFeedForgets: where the Family forgets a series, each Tap that
// holds spans of it visits it once more with them, and then no Tap visits
// it; where its values come back, every Tap visits the new series from
// then on, with its spans alone. Each Tap's Interval is one of the
// Family's, which ForgetIdle counts.
func TestFamilyFeedForgets(t *testing.T) {
	f := newFamily(t, 0, "k")
	if err := f.ForgetIdle(1); err != nil {
		t.Fatal(err)
	}
	ff := mustFamilyFeed(t, f)
	a, b := ff.Tap(), ff.Tap()
	f.With("x").Record(5)
	f.With("y").Record(6)
	// a's take: x and y hold a span each. f.With("y") keeps y busy.
	if got := visitAll(t, a); got.counts["x"] != 1 || got.counts["y"] != 1 {
		t.Fatalf("a: %v", got)
	}
	f.With("y").Record(7)
	// b's take finds x idle and the Family forgets it; b still holds
	// x's span from a's take.
	if got, want := visitAll(t, b), (visited{map[string]uint64{"x": 1, "y": 2}, []string{"x", "y"}}); !equal(got, want) {
		t.Errorf("b: %v; want %v", got, want)
	}
	f.With("y").Record(8)
	// x is gone for a, which held nothing of it; y stays.
	if got, want := visitAll(t, a), (visited{map[string]uint64{"y": 2}, []string{"y"}}); !equal(got, want) {
		t.Errorf("a after x was forgotten: %v; want %v", got, want)
	}
	f.With("y").Record(9)
	if got, want := visitAll(t, b), (visited{map[string]uint64{"y": 2}, []string{"y"}}); !equal(got, want) {
		t.Errorf("b after x was forgotten: %v; want %v", got, want)
	}
	// x comes back: a new series, of its new spans alone.
	f.With("x").Record(10)
	f.With("y").Record(11)
	if got, want := visitAll(t, a), (visited{map[string]uint64{"y": 2, "x": 1}, []string{"y", "x"}}); !equal(got, want) {
		t.Errorf("a after x came back: %v; want %v", got, want)
	}
	f.With("x").Record(12)
	if got, want := visitAll(t, b), (visited{map[string]uint64{"y": 1, "x": 2}, []string{"y", "x"}}); !equal(got, want) {
		t.Errorf("b after x came back: %v; want %v", got, want)
	}
}

// TestFamilyFeedConcurrent has four writers record into a Family's sets,
// past its limit, while three FamilyTaps read back to back: each Tap's
// Intervals add up to every span of each series, exactly.
func TestFamilyFeedConcurrent(t *testing.T) {
	const writers, spans, sets, limit = 4, 20_000, 12, 8
	f := newFamily(t, limit, "set")
	ff := mustFamilyFeed(t, f)
	taps := []*export.FamilyTap{ff.Tap(), ff.Tap(), ff.Tap()}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range spans {
				f.With(strconv.Itoa((w + i) % sets)).Record(counter.Tickdelta(1 + i))
			}
		})
	}
	totals := make([]map[string]uint64, len(taps))
	done := make(chan struct{})
	var readers sync.WaitGroup
	for i, tap := range taps {
		totals[i] = map[string]uint64{}
		readers.Go(func() {
			for {
				select {
				case <-done:
					for k, n := range visitAll(t, tap).counts {
						totals[i][k] += n
					}
					return
				default:
				}
				for k, n := range visitAll(t, tap).counts {
					totals[i][k] += n
				}
			}
		})
	}
	wg.Wait()
	close(done)
	readers.Wait()
	want := map[string]uint64{}
	var own int
	for k := range totals[0] {
		if k != "overflow" {
			own++
		}
	}
	if own != limit-1 {
		t.Fatalf("tap 0 saw %d series of their own; want %d", own, limit-1)
	}
	for w := range writers {
		for i := range spans {
			k := strconv.Itoa((w + i) % sets)
			if _, ok := totals[0][k]; !ok {
				k = "overflow"
			}
			want[k]++
		}
	}
	for i := range totals {
		if !maps.Equal(totals[i], want) {
			t.Errorf("tap %d: %v; want %v", i, totals[i], want)
		}
	}
}

// TestFamilyIsAFamilySource: a Family is read where a FamilyTap is.
func TestFamilyIsAFamilySource(t *testing.T) {
	var _ export.FamilySource = newFamily(t, 0, "k")
	var _ export.FamilySource = mustFamilyFeed(t, newFamily(t, 0, "k")).Tap()
}

// TestNewFamilyFeedRefuses: NewFamilyFeed refuses a nil or zero Family
// with ErrNilSource, and a Family that another FamilyFeed reads with
// ErrSecondReader, whose message names that FamilyFeed and the way to
// share; once that FamilyFeed and its Taps are collected, a new one is
// made.
func TestNewFamilyFeedRefuses(t *testing.T) {
	for name, f := range map[string]*counter.Family{"nil": nil, "zero": new(counter.Family)} {
		ff, err := export.NewFamilyFeed(f)
		if ff != nil || !errors.Is(err, export.ErrNilSource) || !strings.HasPrefix(err.Error(), "export: NewFamilyFeed needs a Family made by counter.NewFamily") {
			t.Errorf("NewFamilyFeed of a %s Family = %v, %v; want nil, an error wrapping ErrNilSource", name, ff, err)
		}
	}
	f := newFamily(t, 0, "k")
	tap := mustFamilyFeed(t, f).Tap()
	ff, err := export.NewFamilyFeed(f)
	if ff != nil || !errors.Is(err, export.ErrSecondReader) {
		t.Fatalf("a second NewFamilyFeed = %v, %v; want nil, an error wrapping ErrSecondReader", ff, err)
	}
	if want := "export: the Family is read by an export.FamilyFeed already, and each span goes to one reader, so a second would split its spans: make one export.FamilyFeed of it and give each reader a FamilyTap of that FamilyFeed"; err.Error() != want {
		t.Errorf("a second NewFamilyFeed:\n%v\nwant\n%s", err, want)
	}
	f.With("a").Record(5)
	if got := visitAll(t, tap); got.counts["a"] != 1 {
		t.Errorf("the first FamilyFeed's Tap: %v after a refused NewFamilyFeed; want a with 1 span", got)
	}
	runtime.KeepAlive(tap) // and with it the first FamilyFeed
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if _, err = export.NewFamilyFeed(f); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("NewFamilyFeed after the first was collected: %v", err)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestZeroFamilyTap: the zero FamilyTap, which no FamilyFeed made, has no
// labels, visits nothing and closes, rather than panicking.
func TestZeroFamilyTap(t *testing.T) {
	var tap export.FamilyTap
	if got := visitAll(t, &tap); len(got.order) != 0 {
		t.Errorf("the zero FamilyTap visited %v", got)
	}
	if l := tap.Labels(); l != nil {
		t.Errorf("the zero FamilyTap's Labels = %q; want none", l)
	}
	tap.Close()
}
