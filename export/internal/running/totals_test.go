package running_test

import (
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/internal/running"
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
		var tot running.Totals
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
