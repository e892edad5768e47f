package export_test

import (
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// TestEnds checks that the buckets Take hands on, each at its middle, with
// the Values of the ends, are Values of the merged Snapshot, exactly, after
// each Interval of a run: Intervals of spans of any size, in any order of
// their buckets, some empty, some of one bucket, some below the total's
// spans and some above them.
func TestEnds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := counter.NewHistogram()
		var e export.Ends
		var merged, in counter.Snapshot
		between := map[counter.Tickdelta]uint64{}
		for range rapid.IntRange(1, 8).Draw(t, "intervals") {
			lo := rapid.Int64Range(0, 1<<40).Draw(t, "lo")
			for range rapid.IntRange(0, 12).Draw(t, "spans") {
				h.Record(counter.Tickdelta(lo + rapid.Int64Range(0, 1<<rapid.IntRange(0, 22).Draw(t, "width")).Draw(t, "d")))
			}
			h.Interval(&in)
			merged.Merge(&in)
			buckets := slices.Collect(in.Buckets())
			if rapid.Bool().Draw(t, "reversed") {
				slices.Reverse(buckets)
			}
			for _, b := range buckets {
				if m, ok := e.Take(b); ok {
					for v, n := range export.BucketValues(m, merged.Min(), merged.Max()) {
						between[v] += n
					}
				}
			}
			got := maps.Clone(between)
			for v, n := range e.Values(merged.Min(), merged.Max()) {
				got[v] += n
			}
			want := map[counter.Tickdelta]uint64{}
			for v, n := range export.Values(&merged) {
				want[v] += n
			}
			if !maps.Equal(got, want) {
				t.Fatalf("values of the buckets handed on and of the ends:\n%v\nValues of the merged Snapshot:\n%v", got, want)
			}
		}
	})
}
