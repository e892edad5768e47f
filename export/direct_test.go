package export_test

import (
	"errors"
	"maps"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// figures are a Snapshot's figures other than its buckets.
type figures struct {
	count, negative, migrated, unknown uint64
	hi, lo                             uint64
	min, max                           counter.Tickdelta
}

func figuresOf(s *counter.Snapshot) figures {
	hi, lo := s.Sum128()
	return figures{s.Count(), s.Negative(), s.Migrated(), s.UnknownCPU(), hi, lo, s.Min(), s.Max()}
}

// bucketsOf adds the buckets of s, by index, to m.
func bucketsOf(s *counter.Snapshot, m map[int]uint64) map[int]uint64 {
	for i, n := range export.IndexedBuckets(s) {
		m[i] += n
	}
	return m
}

// TestDirect checks that a Direct's Interval takes what Histogram.Interval
// takes: the same spans recorded into two Histograms, one read by its own
// Interval and one by a Direct's, give equal figures, and equal buckets
// once the Taken's (each ranged over whole, in part, or not at all, or
// left by a panic, which Interval raises once it has ended) and dst's are
// added up, through Histogram.Record and through a Recorder;
// that the function is called where a lock's tally or a Recorder's holds
// a span (a Recorder's first 64 spans go to a lock's), and never for
// another Source; that a Taken kept past its call holds no
// bucket; that a Taken's buckets come in the order of their indexes; and
// that the Histogram's own Interval into dst, after, puts every bucket in
// dst.
func TestDirect(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ref, h := counter.NewHistogram(), counter.NewHistogram()
		rr, hr := ref.Recorder(), h.Recorder()
		defer rr.Close()
		defer hr.Close()
		var want, dst counter.Snapshot
		var kept *export.Taken
		unordered := false  // a Taken's buckets came out of the order of their indexes
		calls, stop := 0, 0 // stop: ranges over the first stop buckets, all where -1, and panics after one where -2
		recorded := 0       // the Recorders' records
		got := map[int]uint64{}
		d := export.NewDirect(func(tk *export.Taken) {
			calls++
			kept = tk
			if stop == -2 {
				for i, n := range tk.Buckets() {
					got[i] += n
					panic(errDirect)
				}
				panic(errDirect)
			}
			if stop < 0 {
				last := -1
				for i, n := range tk.Buckets() {
					if i <= last {
						unordered = true
					}
					last = i
					got[i] += n
				}
				return
			}
			if stop == 0 {
				return
			}
			k := 0
			for i, n := range tk.Buckets() {
				got[i] += n // yielded: the caller's, also where it stops
				if k++; k == stop {
					break
				}
			}
		})
		for range rapid.IntRange(1, 6).Draw(t, "intervals") {
			// split: the Recorder is past its first 64 spans, and the
			// spans of Record are left out, so that the function's
			// calls are for the Recorder's tally alone.
			split := recorded >= 64 && rapid.Bool().Draw(t, "split")
			lo := rapid.Int64Range(0, 1<<40).Draw(t, "lo")
			tallied, some := false, false // a span not negative, in a tally; at all
			for range rapid.IntRange(0, 80).Draw(t, "spans") {
				s := counter.Tickdelta(lo + rapid.Int64Range(-4, 1<<rapid.IntRange(0, 24).Draw(t, "width")).Draw(t, "d"))
				some = some || s >= 0
				if rapid.Bool().Draw(t, "recorder") {
					rr.Record(s)
					hr.Record(s)
					// A Recorder's first spans go through the lock, and
					// the others to its tally: a Taken either way.
					recorded++
					tallied = tallied || s >= 0
					continue
				}
				if split {
					continue
				}
				ref.Record(s)
				h.Record(s)
				tallied = tallied || s >= 0
			}
			ref.Interval(&want)
			clear(got)
			calls, kept = 0, nil
			stop = rapid.IntRange(-2, 3).Draw(t, "stop")
			plain := rapid.IntRange(0, 4).Draw(t, "how") == 0
			if plain {
				h.Interval(&dst) // after a Direct's: every bucket in dst
			} else if v := intervalPanic(d, h, &dst); v != nil && (stop != -2 || v != errDirect || calls != 1) {
				t.Fatalf("a Direct's Interval panicked with %v after %d calls; want errDirect, after one, where the function panics", v, calls)
			} else if v == nil && stop == -2 && calls > 0 {
				t.Fatalf("a Direct's Interval did not panic where its function did")
			}
			if g, w := figuresOf(&dst), figuresOf(&want); g != w {
				t.Fatalf("a Direct's Interval has figures %+v; Histogram.Interval %+v", g, w)
			}
			if w := bucketsOf(&want, map[int]uint64{}); !maps.Equal(bucketsOf(&dst, got), w) {
				t.Fatalf("a Direct's Interval (ranging over %d buckets of each Taken) has the buckets %v; Histogram.Interval %v", stop, got, w)
			}
			if (plain || !some) && calls != 0 || !plain && tallied && calls == 0 {
				t.Fatalf("%d calls of the function; a span: %v, in a tally: %v, through a Direct: %v", calls, some, tallied, !plain)
			}
			if unordered {
				t.Fatalf("a Taken's buckets came out of the order of their indexes")
			}
			if kept != nil {
				for i, n := range kept.Buckets() {
					t.Fatalf("a Taken kept past its call still holds bucket %d (%d spans)", i, n)
				}
			}
		}
		// Another Source: the function is never called.
		tap := export.NewFeed(h).Tap()
		h.Record(100)
		calls = 0
		d.Interval(tap, &dst)
		if calls != 0 || dst.Count() != 1 || bucketsOf(&dst, map[int]uint64{})[export.BucketIndex(counter.Bucket{Min: 100})] != 1 {
			t.Fatalf("a Direct's Interval of a Tap: %d calls, %d spans; want none, and the span in dst", calls, dst.Count())
		}
	})
}

// errDirect is what TestDirect's function panics with.
var errDirect = errors.New("the function panics")

// intervalPanic takes d's Interval of h into dst and returns the value it
// panicked with, nil where it did not.
func intervalPanic(d *export.Direct, h *counter.Histogram, dst *counter.Snapshot) (v any) {
	defer func() { v = recover() }()
	d.Interval(h, dst)
	return nil
}

// TestDirectNil checks that a Direct of a nil function, and a nil *Direct,
// take Intervals as the Histogram's own Interval does, and a Family's as
// its own does, calling begin all the same.
func TestDirectNil(t *testing.T) {
	for _, d := range []*export.Direct{export.NewDirect(nil), nil} {
		f, err := counter.NewFamily([]string{"route"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.With("/a").Record(7)
		var began []string
		visits := 0
		d.FamilyInterval(f, func(values []string) { began = append(began, values...) }, func(values []string, s *counter.Snapshot) {
			visits++
			if len(began) != 1 || began[0] != "/a" || s.Count() != 1 || bucketsOf(s, map[int]uint64{})[export.BucketIndex(counter.Bucket{Min: 7})] != 1 {
				t.Errorf("%v: began %q, visited %q with %d spans; want /a, and 7 in its bucket", d, began, values, s.Count())
			}
		})
		if visits != 1 {
			t.Errorf("%v: %d visits of a Family of one series", d, visits)
		}
		h := counter.NewHistogram()
		h.Record(7)
		h.Record(-1)
		var dst counter.Snapshot
		d.Interval(h, &dst)
		if dst.Count() != 1 || dst.Negative() != 1 || bucketsOf(&dst, map[int]uint64{})[export.BucketIndex(counter.Bucket{Min: 7})] != 1 {
			t.Errorf("%v: %d spans, %d negative in dst; want 7 in its bucket, and one", d, dst.Count(), dst.Negative())
		}
	}
}

// TestDirectConcurrent checks that a Direct's Intervals, taken while
// goroutines record through Histogram.Record, hand on each span once: added
// up over every Interval, the Taken's buckets and dst's are those of a
// Histogram that took the same spans, and so are the figures.
func TestDirectConcurrent(t *testing.T) {
	ref, h := counter.NewHistogram(), counter.NewHistogram()
	got := map[int]uint64{}
	d := export.NewDirect(func(tk *export.Taken) {
		for i, n := range tk.Buckets() {
			got[i] += n
		}
	})
	var dst, all counter.Snapshot
	var wg sync.WaitGroup
	done := make(chan struct{})
	for g := range 4 {
		wg.Go(func() {
			for i := int64(0); i < 20000; i++ {
				s := counter.Tickdelta(i*int64(g+1)*37%1_000_000 - 2)
				ref.Record(s)
				h.Record(s)
			}
		})
	}
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		d.Interval(h, &dst)
		all.Merge(&dst)
		bucketsOf(&dst, got)
	}
	var want counter.Snapshot
	ref.Interval(&want)
	// all's figures are the sum of dst's; its buckets are dst's alone.
	if g, w := figuresOf(&all), figuresOf(&want); g != w {
		t.Fatalf("the Direct's Intervals added up have the figures %+v; the Histogram's %+v", g, w)
	}
	if w := bucketsOf(&want, map[int]uint64{}); !maps.Equal(got, w) {
		t.Fatalf("the Direct's Intervals added up hold %d buckets, the Histogram's %d: they differ", len(got), len(w))
	}
}

// TestDirectFamily checks that a Direct's FamilyInterval takes what
// Family.Interval takes: the same spans recorded into the series of two
// Families (past their limit too, so into the overflow series), through
// Histogram.Record and through Recorders, give each series equal figures,
// and equal buckets once the Taken's, handed on between the begin and the
// visit of that series, and the Snapshot's are added up; that begin comes
// before each visit, with its values; that the function is called for each
// series whose tallies hold a span, unless it panicked before in that
// FamilyInterval, which then panics once every series is visited.
func TestDirectFamily(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ref, err := counter.NewFamily([]string{"route"}, 3)
		if err != nil {
			t.Fatal(err)
		}
		fam, _ := counter.NewFamily([]string{"route"}, 3)
		routes := []string{"a", "b", "c", "d", "e"}
		recorders := map[string][2]*counter.Recorder{}
		defer func() {
			for _, rs := range recorders {
				rs[0].Close()
				rs[1].Close()
			}
		}()
		keyOf := func(values []string) string {
			if values == nil {
				return "overflow"
			}
			return values[0]
		}
		series, members := map[string]string{}, 0 // each route's series, by keyOf
		cur := ""                                 // the series begin began, "" between a visit and the next begin
		panicAt := -1                             // the function panics at its call of this number
		calls := 0                                // the function's calls in this FamilyInterval
		called := map[string]bool{}
		got := map[string]map[int]uint64{}
		d := export.NewDirect(func(tk *export.Taken) {
			if cur == "" {
				t.Fatalf("the function was called outside a series' begin and visit")
			}
			called[cur] = true
			if calls++; calls-1 == panicAt {
				panic(errDirect)
			}
			for i, n := range tk.Buckets() {
				got[cur][i] += n
			}
		})
		for range rapid.IntRange(1, 4).Draw(t, "intervals") {
			spans := map[string]bool{} // the series that took a span not negative
			for range rapid.IntRange(0, 120).Draw(t, "spans") {
				route := rapid.SampledFrom(routes).Draw(t, "route")
				if _, ok := series[route]; !ok {
					// A Family of limit 3 holds 2 members and the overflow.
					series[route] = "overflow"
					if members < 2 {
						series[route], members = route, members+1
					}
				}
				s := counter.Tickdelta(rapid.Int64Range(-2, 1<<rapid.IntRange(0, 30).Draw(t, "width")).Draw(t, "d"))
				if rapid.Bool().Draw(t, "recorder") {
					rs, ok := recorders[route]
					if !ok {
						rs = [2]*counter.Recorder{ref.With(route).Recorder(), fam.With(route).Recorder()}
						recorders[route] = rs
					}
					rs[0].Record(s)
					rs[1].Record(s)
				} else {
					ref.With(route).Record(s)
					fam.With(route).Record(s)
				}
				if s >= 0 {
					spans[series[route]] = true
				}
			}
			want := map[string]map[int]uint64{}
			wantFig := map[string]figures{}
			ref.Interval(func(values []string, s *counter.Snapshot) {
				want[keyOf(values)] = bucketsOf(s, map[int]uint64{})
				wantFig[keyOf(values)] = figuresOf(s)
			})
			clear(got)
			clear(called)
			calls = 0
			panicAt = rapid.IntRange(-1, 3).Draw(t, "panic at")
			visited := 0
			v := func() (v any) {
				defer func() { v = recover() }()
				d.FamilyInterval(fam, func(values []string) {
					if cur != "" {
						t.Fatalf("begin for %s before the visit of %s", keyOf(values), cur)
					}
					cur = keyOf(values)
					got[cur] = map[int]uint64{}
				}, func(values []string, s *counter.Snapshot) {
					if k := keyOf(values); k != cur {
						t.Fatalf("the visit of %s after begin for %s", k, cur)
					}
					visited++
					bucketsOf(s, got[cur])
					if g, w := figuresOf(s), wantFig[cur]; g != w {
						t.Fatalf("series %s: a FamilyInterval's figures %+v; Family.Interval's %+v", cur, g, w)
					}
					cur = ""
				})
				return nil
			}()
			if panicked := panicAt >= 0 && calls > panicAt; panicked != (v != nil) || v != nil && v != errDirect {
				t.Fatalf("FamilyInterval panicked with %v after %d calls; the function panics at call %d", v, calls, panicAt)
			}
			if visited != len(want) {
				t.Fatalf("%d series visited; Family.Interval visits %d", visited, len(want))
			}
			for k, w := range want {
				if !maps.Equal(got[k], w) {
					t.Fatalf("series %s: a FamilyInterval's buckets %v; Family.Interval's %v", k, got[k], w)
				}
				if spans[k] && !called[k] && (panicAt < 0 || calls <= panicAt) {
					t.Fatalf("series %s took a span, and the function was not called for it", k)
				}
			}
		}
	})
}
