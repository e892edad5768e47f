package export_test

import (
	"maps"
	"math"
	"slices"
	"testing"
	"unsafe"

	"pgregory.net/rapid"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// TestTotals checks Totals against the Snapshot that the same Intervals
// merge into: every figure, the exact sum and its seconds, over Intervals
// of spans of any size (sums past 2⁶³ ticks among them), negative spans
// and spans of two CPUs, and empty Intervals.
func TestTotals(t *testing.T) {
	rate, err := counter.NewTickRate(2_400_000_000)
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(t *rapid.T) {
		h := counter.NewHistogram()
		r := h.Recorder()
		defer r.Close()
		var tot export.Totals
		var merged, in counter.Snapshot
		for range rapid.IntRange(1, 6).Draw(t, "intervals") {
			for range rapid.IntRange(0, 20).Draw(t, "spans") {
				d := counter.Tickdelta(rapid.OneOf(
					rapid.Int64Range(-5, 5000),
					rapid.Int64Range(math.MaxInt64-1000, math.MaxInt64),
					rapid.Int64(),
				).Draw(t, "d"))
				if rapid.IntRange(0, 9).Draw(t, "cpus") == 0 {
					r.RecordCPU(d, 0, 1)
				} else {
					r.Record(d)
				}
			}
			h.Interval(&in)
			tot.Add(&in)
			merged.Merge(&in)
			hi, lo := merged.Sum128()
			if tot.Count() != merged.Count() || tot.Min() != merged.Min() || tot.Max() != merged.Max() ||
				tot.Negative() != merged.Negative() || tot.Migrated() != merged.Migrated() {
				t.Fatalf("totals count %d min %d max %d negative %d migrated %d; the merged Snapshot's %d, %d, %d, %d, %d",
					tot.Count(), tot.Min(), tot.Max(), tot.Negative(), tot.Migrated(),
					merged.Count(), merged.Min(), merged.Max(), merged.Negative(), merged.Migrated())
			}
			if got, want := tot.Seconds(rate), export.SumSeconds(&merged, rate); got != want {
				t.Fatalf("totals' sum %v s (merged sum %d:%d); SumSeconds of the merged Snapshot %v s", got, hi, lo, want)
			}
		}
	})
}

// TestTotalsSize checks the size Totals' doc gives.
func TestTotalsSize(t *testing.T) {
	if size := unsafe.Sizeof(export.Totals{}); size != 56 {
		t.Fatalf("Totals are %d bytes; the doc says 56", size)
	}
}

// TestSum128 checks a Snapshot's 128-bit sum past 2⁶³ ticks, where Sum
// saturates.
func TestSum128(t *testing.T) {
	h := counter.NewHistogram()
	for range 4 {
		h.Record(math.MaxInt64)
	}
	var s counter.Snapshot
	h.Interval(&s)
	// 4·(2⁶³−1) = 2⁶⁵ − 4 = 1·2⁶⁴ + (2⁶⁴ − 4).
	if hi, lo := s.Sum128(); hi != 1 || lo != math.MaxUint64-3 {
		t.Fatalf("Sum128 of four spans of 2⁶³−1 ticks: %d:%d; want 1:%d", hi, lo, uint64(math.MaxUint64-3))
	}
	if s.Sum() != math.MaxInt64 {
		t.Fatalf("Sum %d; want it saturated", s.Sum())
	}
}

// TestBucketIndex checks that BucketIndex numbers the buckets of a
// Snapshot that holds every span from 0 to 2⁶³−1 ticks from 0 to
// NumBuckets−1, one after another, whatever Snapshot a bucket comes from,
// and that BucketAt gives each index's bucket back.
func TestBucketIndex(t *testing.T) {
	h := counter.NewHistogram()
	for d := counter.Tickdelta(0); d >= 0; d += d/512 + 1 {
		h.Record(d)
	}
	h.Record(math.MaxInt64)
	var all counter.Snapshot
	h.Interval(&all)
	indexed := slices.Collect(maps.Keys(maps.Collect(export.IndexedBuckets(&all))))
	next := 0
	for b := range all.Buckets() {
		if i := export.BucketIndex(b); i != next {
			t.Fatalf("bucket [%d, %d] has index %d; want %d", b.Min, b.Max, i, next)
		}
		if o := export.BucketAt(next); o != (counter.Bucket{Min: b.Min, Max: b.Max}) {
			t.Fatalf("BucketAt(%d) = [%d, %d] count %d; want [%d, %d] count 0", next, o.Min, o.Max, o.Count, b.Min, b.Max)
		}
		// The same bucket in a Snapshot of its Max alone.
		h.Record(b.Max)
		var one counter.Snapshot
		h.Interval(&one)
		for o := range one.Buckets() {
			if o != (counter.Bucket{Min: b.Min, Max: b.Max, Count: 1}) || export.BucketIndex(o) != next {
				t.Fatalf("the span %d is in bucket [%d, %d] of index %d; want [%d, %d] of index %d",
					b.Max, o.Min, o.Max, export.BucketIndex(o), b.Min, b.Max, next)
			}
		}
		next++
	}
	if next != export.NumBuckets {
		t.Fatalf("%d buckets; want NumBuckets, %d", next, export.NumBuckets)
	}
	slices.Sort(indexed)
	if len(indexed) != export.NumBuckets || indexed[0] != 0 || indexed[len(indexed)-1] != export.NumBuckets-1 {
		t.Fatalf("IndexedBuckets gave %d indexes, from %d to %d; want every one from 0 to %d",
			len(indexed), indexed[0], indexed[len(indexed)-1], export.NumBuckets-1)
	}
}

// TestIndexedBuckets checks that IndexedBuckets gives the buckets Buckets
// gives, in the same order, each as its BucketIndex and count: of
// Snapshots of spans of any size, some merged from several Intervals, some
// empty, one with a count past 2³²−1; and that it stops where the loop
// does.
func TestIndexedBuckets(t *testing.T) {
	// A count past 2³²−1: one span's Snapshot merged into itself, through
	// another, 33 times over.
	h := counter.NewHistogram()
	h.Record(1000)
	h.Record(5)
	var big, other counter.Snapshot
	h.Interval(&big)
	for range 33 {
		other.Reset()
		other.Merge(&big)
		big.Merge(&other)
	}
	var got []uint64
	for i, n := range export.IndexedBuckets(&big) {
		if i != export.BucketIndex(counter.Bucket{Min: 5}) && i != export.BucketIndex(counter.Bucket{Min: 1000}) {
			t.Fatalf("IndexedBuckets gave bucket %d, which holds no span", i)
		}
		got = append(got, n)
	}
	if want := []uint64{1 << 33, 1 << 33}; !slices.Equal(got, want) {
		t.Fatalf("IndexedBuckets counts %v; want %v", got, want)
	}

	rapid.Check(t, func(t *rapid.T) {
		h := counter.NewHistogram()
		var s, in counter.Snapshot
		for range rapid.IntRange(0, 4).Draw(t, "intervals") {
			lo := rapid.Int64Range(0, 1<<50).Draw(t, "lo")
			for range rapid.IntRange(0, 40).Draw(t, "spans") {
				h.Record(counter.Tickdelta(lo + rapid.Int64Range(-8, 1<<rapid.IntRange(0, 30).Draw(t, "width")).Draw(t, "d")))
			}
			h.Interval(&in)
			s.Merge(&in)
		}
		type pair struct {
			i int
			n uint64
		}
		var want, got []pair
		for b := range s.Buckets() {
			want = append(want, pair{export.BucketIndex(b), b.Count})
		}
		for i, n := range export.IndexedBuckets(&s) {
			got = append(got, pair{i, n})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("IndexedBuckets %v; want %v", got, want)
		}
		if len(want) > 1 {
			stop := rapid.IntRange(1, len(want)-1).Draw(t, "stop")
			k := 0
			for range export.IndexedBuckets(&s) {
				if k++; k == stop {
					break
				}
			}
			if k != stop {
				t.Fatalf("a loop that breaks at bucket %d ran %d", stop, k)
			}
		}
	})
}
