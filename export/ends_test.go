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
// spans and some above them; that inside reports exactly the buckets
// that Take hands on as they are, leaving the ends alone; and that Between
// and TakeIndex hand on what Take does, bucket by bucket in order, and
// leave the ends as it does.
func TestEnds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := counter.NewHistogram()
		var e, inOrder, viaBetween, viaIndex export.Ends
		var merged, in counter.Snapshot
		between := map[counter.Tickdelta]uint64{}
		for range rapid.IntRange(1, 8).Draw(t, "intervals") {
			lo := rapid.Int64Range(0, 1<<40).Draw(t, "lo")
			for range rapid.IntRange(0, 12).Draw(t, "spans") {
				h.Record(counter.Tickdelta(lo + rapid.Int64Range(0, 1<<rapid.IntRange(0, 22).Draw(t, "width")).Draw(t, "d")))
			}
			h.Interval(&in)
			merged.Merge(&in)
			type handed struct {
				i int
				n uint64
			}
			var took, fromBetween, fromIndex []handed
			for i, n := range viaBetween.Between(&in) {
				fromBetween = append(fromBetween, handed{i, n})
			}
			buckets := slices.Collect(in.Buckets())
			for _, b := range buckets { // in order, as Between takes them
				if m, ok := inOrder.Take(b); ok {
					took = append(took, handed{export.BucketIndex(m), m.Count})
				}
				if i, n, ok := viaIndex.TakeIndex(export.BucketIndex(b), b.Count); ok {
					fromIndex = append(fromIndex, handed{i, n})
				}
			}
			if !slices.Equal(fromBetween, took) || viaBetween != inOrder {
				t.Fatalf("Between handed on %v, leaving the ends %v; Take, bucket by bucket, %v, leaving %v",
					fromBetween, viaBetween, took, inOrder)
			}
			if !slices.Equal(fromIndex, took) || viaIndex != inOrder {
				t.Fatalf("TakeIndex handed on %v, leaving the ends %v; Take %v, leaving %v",
					fromIndex, viaIndex, took, inOrder)
			}
			if rapid.Bool().Draw(t, "reversed") {
				slices.Reverse(buckets)
			}
			for _, b := range buckets {
				inside, was := e.InsideForTest(export.BucketIndex(b)), e
				m, ok := e.Take(b)
				if handed := ok && m == b && e == was; inside != handed {
					t.Fatalf("inside(%v) = %v, but Take handed it on as it was: %v (ends %v)", b, inside, handed, was)
				}
				if ok {
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

// TestEndsBetweenStops checks that a loop over Between that stops early
// leaves the ends as Take leaves them after the buckets before the stop,
// and the rest of the Snapshot untaken: a later Between of the rest hands
// on what Take would.
func TestEndsBetweenStops(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := counter.NewHistogram()
		var viaBetween, inOrder export.Ends
		var in counter.Snapshot
		for range rapid.IntRange(1, 4).Draw(t, "intervals") {
			lo := rapid.Int64Range(0, 1<<40).Draw(t, "lo")
			for range rapid.IntRange(1, 12).Draw(t, "spans") {
				h.Record(counter.Tickdelta(lo + rapid.Int64Range(0, 1<<rapid.IntRange(0, 22).Draw(t, "width")).Draw(t, "d")))
			}
			h.Interval(&in)
			stop := rapid.IntRange(1, 13).Draw(t, "stop")
			handed := 0
			for range viaBetween.Between(&in) {
				if handed++; handed == stop {
					break
				}
			}
			// Take over the buckets in order until it has handed on as many.
			taken := 0
			for b := range in.Buckets() {
				if taken == stop {
					break
				}
				if _, ok := inOrder.Take(b); ok {
					taken++
				}
			}
			if viaBetween != inOrder {
				t.Fatalf("after a loop over Between that stopped at %d buckets handed on (of %d), the ends are %v; Take's, over the buckets up to that one, %v",
					stop, handed, viaBetween, inOrder)
			}
		}
	})
}

// TestMemo checks that a Memo gives each bucket of every Snapshot the
// value its function gives, working out each bucket's once, in rows: the
// first look-up of a bucket works out the 128 of its doubling, in order;
// and that Known gives the value where its row was worked out, and reports
// that it was not, working nothing out, where it was not.
func TestMemo(t *testing.T) {
	var calls []int
	rowsSeen := map[int]bool{}
	m := export.NewMemo(func(b counter.Bucket) counter.Tickdelta {
		calls = append(calls, export.BucketIndex(b))
		return export.Middle(b)
	})
	h := counter.NewHistogram()
	for round := range 3 {
		for d := counter.Tickdelta(0); d >= 0; d += d/512 + 1 {
			h.Record(d)
		}
		var s counter.Snapshot
		h.Interval(&s)
		for b := range s.Buckets() {
			before := len(calls)
			known, ok := m.Known(export.BucketIndex(b))
			if row := export.BucketIndex(b) / 128; ok != (round > 0 || rowsSeen[row]) || ok && known != export.Middle(b) || !ok && known != 0 {
				t.Fatalf("round %d: Known(%d) = %d, %v; want %d, %v", round, export.BucketIndex(b), known, ok, export.Middle(b), round > 0 || rowsSeen[row])
			}
			rowsSeen[export.BucketIndex(b)/128] = true
			if len(calls) != before {
				t.Fatalf("round %d: Known worked out buckets %v", round, calls[before:])
			}
			if got := m.Value(export.BucketIndex(b)); got != export.Middle(b) {
				t.Fatalf("round %d: bucket [%d, %d]: %d; want its middle %d", round, b.Min, b.Max, got, export.Middle(b))
			}
			if worked := calls[before:]; len(worked) > 0 {
				row := export.BucketIndex(b) / 128 * 128
				if len(worked) != 128 || worked[0] != row || worked[127] != row+127 {
					t.Fatalf("round %d: the first look-up of bucket %d worked out buckets %v; want %d to %d in order",
						round, export.BucketIndex(b), worked, row, row+127)
				}
			}
		}
	}
	seen := map[int]bool{}
	for _, i := range calls {
		if seen[i] {
			t.Fatalf("bucket %d worked out twice", i)
		}
		seen[i] = true
	}
	if len(seen) != export.NumBuckets {
		t.Fatalf("%d buckets worked out; want %d", len(seen), export.NumBuckets)
	}
}
