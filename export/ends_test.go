package export_test

import (
	"maps"
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// TestEnds checks that the buckets Take hands on, each at its middle, with
// the Values of the ends, are Values of the merged Snapshot, exactly, after
// each Interval of a run: Intervals of spans of any size, in any order of
// their buckets, some empty, some of one bucket, some below the total's
// spans and some above them; and that Inside reports exactly the buckets
// that Take hands on as they are, leaving the ends alone.
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
				inside, was := e.Inside(b), e
				m, ok := e.Take(b)
				if handed := ok && m == b && e == was; inside != handed {
					t.Fatalf("Inside(%v) = %v, but Take handed it on as it was: %v (ends %v)", b, inside, handed, was)
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

// TestMemo checks that a Memo remembers a bucket's value from its first
// Put, for every bucket of its place, for every bucket of every
// Snapshot, and that it takes the bytes its doc gives: a pointer for each
// of 57 rows, and 16 + 128·8 bytes a row it holds.
func TestMemo(t *testing.T) {
	const empty, row = 57 * strconv.IntSize / 8, 16 + 128*8
	var m export.Memo[counter.Tickdelta]
	if n := m.Bytes(); n != empty {
		t.Fatalf("an empty Memo takes %d bytes; want %d", n, empty)
	}
	m.Put(counter.Bucket{Min: 1000, Max: 1003}, 1)
	if n := m.Bytes(); n != empty+row {
		t.Fatalf("a Memo of one bucket takes %d bytes; want %d", n, empty+row)
	}
	m = export.Memo[counter.Tickdelta]{}
	calls := map[int]int{}
	mid := func(b counter.Bucket) counter.Tickdelta {
		calls[export.BucketIndex(b)]++
		return export.Middle(b)
	}
	h := counter.NewHistogram()
	for round := range 3 {
		for d := counter.Tickdelta(0); d >= 0; d += d/512 + 1 {
			h.Record(d)
		}
		var s counter.Snapshot
		h.Interval(&s)
		for b := range s.Buckets() {
			got, ok := m.Lookup(b)
			if !ok {
				got = mid(b)
				m.Put(b, got)
			}
			if got != export.Middle(b) {
				t.Fatalf("round %d: bucket [%d, %d]: %d; want its middle %d", round, b.Min, b.Max, got, export.Middle(b))
			}
		}
	}
	if len(calls) != export.NumBuckets {
		t.Fatalf("%d buckets worked out; want %d", len(calls), export.NumBuckets)
	}
	if n, want := m.Bytes(), empty+export.NumBuckets/128*row; n != want {
		t.Fatalf("a Memo of every bucket takes %d bytes; want %d", n, want)
	}
	for i, n := range calls {
		if n != 1 {
			t.Fatalf("bucket %d worked out %d times; want once", i, n)
		}
	}
}
