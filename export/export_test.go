package export_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/internal/spantest"
)

// sorted returns a sorted copy of spans.
func sorted(spans []counter.Tickdelta) []counter.Tickdelta {
	s := slices.Clone(spans)
	slices.Sort(s)
	return s
}

// within reports whether got is within rel·want of want (and both are
// integers of ticks: an error below one tick is none).
func within(got, want counter.Tickdelta, rel float64) bool {
	return math.Abs(float64(got)-float64(want)) <= rel*float64(want)
}

// TestValues checks that Values stands for every span once, in order, each
// within QuantileError, with the exact minimum and maximum at the ends.
func TestValues(t *testing.T) {
	for i, dist := range append(spantest.Distributions, spantest.Huge) {
		t.Run(dist.Name, func(t *testing.T) {
			exact := sorted(dist.Spans(rand.New(rand.NewPCG(uint64(i), 5)), dist.Size(10_000)))
			s := spantest.SnapshotOf(exact)
			var buckets int
			for range s.Buckets() {
				buckets++
			}
			var calls, seen int
			prev := counter.Tickdelta(-1)
			for v, c := range export.Values(s) {
				calls++
				if c == 0 || v < prev {
					t.Fatalf("value %d of %d spans after %d", v, c, prev)
				}
				if calls == 1 && (v != exact[0] || c != 1) {
					t.Errorf("first value %d of %d spans, want the minimum %d once", v, c, exact[0])
				}
				for k := range int(c) {
					if x := exact[seen+k]; !within(v, x, counter.QuantileError) {
						t.Fatalf("span %d counted at %d", x, v)
					}
				}
				prev, seen = v, seen+int(c)
			}
			if seen != len(exact) || prev != exact[len(exact)-1] {
				t.Errorf("%d spans up to %d, want %d up to %d", seen, prev, len(exact), exact[len(exact)-1])
			}
			if calls > buckets+2 {
				t.Errorf("%d values for %d buckets", calls, buckets)
			}
		})
	}
	for _, spans := range [][]counter.Tickdelta{{7}, {1000, 1001}, {5, 5, 5}} {
		var got []counter.Tickdelta
		for v, c := range export.Values(spantest.SnapshotOf(spans)) {
			for range c {
				got = append(got, v)
			}
		}
		if !slices.Equal(got, spans) {
			t.Errorf("Values of %v: %v", spans, got)
		}
	}
	for range export.Values(spantest.SnapshotOf(nil)) {
		t.Error("a value of an empty snapshot")
	}
}

// TestValuesOfInnerBuckets checks that Values counts all the spans of a
// bucket that holds neither the smallest span nor the largest at one
// value, the bucket's middle.
func TestValuesOfInnerBuckets(t *testing.T) {
	for i, dist := range append(spantest.Distributions, spantest.Huge) {
		t.Run(dist.Name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 6))
			for _, size := range []int{1, 2, 3, 100, dist.Size(10_000)} {
				s := spantest.SnapshotOf(dist.Spans(r, size))
				at := map[counter.Tickdelta]uint64{}
				for v, n := range export.Values(s) {
					at[v] += n
				}
				for b := range s.Buckets() {
					if b.Min <= s.Min() || b.Max >= s.Max() {
						continue
					}
					if mid := b.Min + (b.Max-b.Min+1)/2; at[mid] != b.Count {
						t.Fatalf("%d spans: bucket [%d, %d] holds %d spans; Values counts %d at its middle %d",
							size, b.Min, b.Max, b.Count, at[mid], mid)
					}
				}
			}
		})
	}
}
