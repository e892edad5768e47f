//go:build !race

package handover

import (
	"runtime"
	"testing"
)

// TestDistResetAllocatesNothing widens a Dist past its storage, which
// moves its counts, of a byte, of 32 bits (a count past 255) and with high
// halves (a count past 2³²−1), and checks that a Reset then, which widens
// the window to the storage, allocates nothing (the bits have room for it
// too) and keeps the counts' width and storage, and that spans like the
// last ones then allocate nothing either. (It counts the process's
// allocations around the first Reset, which AllocsPerRun would not count,
// as it runs its function once before counting; one of three tries free
// of others' allocations is enough. A race build allocates for its own
// ends: the test is not built there.)
func TestDistResetAllocatesNothing(t *testing.T) {
	for _, most := range []uint64{1, 300, 1 << 33} {
		var n uint64
		for range 3 {
			var s Dist
			s.Add(KindSpan, 1000)
			s.Add(KindSpan, 1<<40) // past the window: new storage, a quarter wider
			if most > 1 {
				s.addAt(int(BucketOf(1000)-s.off), most-1)
			}
			wide, high, bytes := s.low != nil, s.high != nil, s.Bytes()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			s.Reset()
			s.Add(KindSpan, 1000)
			s.Add(KindSpan, 1<<40)
			runtime.ReadMemStats(&after)
			s.checkUsed(t)
			if s.low != nil != wide || s.high != nil != high || s.Bytes() != bytes {
				t.Fatalf("a count of %d: after Reset, wide %v, with high halves %v, %d bytes; want %v, %v, %d",
					most, s.low != nil, s.high != nil, s.Bytes(), wide, high, bytes)
			}
			if wide != (most > 255) || high != (most > 1<<32-1) {
				t.Fatalf("a count of %d: wide %v, with high halves %v", most, wide, high)
			}
			if n = after.Mallocs - before.Mallocs; n == 0 {
				break
			}
		}
		if n != 0 {
			t.Fatalf("a count of %d: Reset and spans like the last ones allocated %d times; want 0", most, n)
		}
	}
}

// TestIntervalCopiesOutliveCollections takes Intervals that copy a tally (a
// record of the writer's still its last, so that Interval reads the tally
// through a copy), with two garbage collections between them, and checks
// that they allocate nothing: the copies are not a sync.Pool's, which the
// collector empties.
func TestIntervalCopiesOutliveCollections(t *testing.T) {
	c := NewCollector(NoBarrier)
	w := c.NewWriter()
	var d Dist
	for i := range 4 { // past the first Intervals, which make the spares
		w.Record(int64(1000 + i))
		c.Interval(&d)
	}
	var n uint64
	for range 3 {
		w.Record(1000)
		runtime.GC()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c.Interval(&d)
		runtime.ReadMemStats(&after)
		if d.Count() != 1 {
			t.Fatalf("the Interval holds %d spans; want 1", d.Count())
		}
		if n = after.Mallocs - before.Mallocs; n == 0 {
			return
		}
	}
	t.Fatalf("an Interval after two collections allocated %d times; want 0", n)
}

// TestEmptyDistMovesWithinItsStorage resets a Dist and adds a span just
// below its window, whose bucket its storage could hold: the window moves
// within the storage, and nothing is allocated (before, it grew a quarter,
// and a Dist reset for each Interval grew so as its spans wandered).
func TestEmptyDistMovesWithinItsStorage(t *testing.T) {
	var n uint64
	for range 3 {
		var s Dist
		s.Add(KindSpan, 1000)
		s.Add(KindSpan, 100_000)
		s.Reset()
		lo, _ := BucketBounds(int(s.off) - 5)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s.Add(KindSpan, int64(lo))
		runtime.ReadMemStats(&after)
		s.checkUsed(t)
		if s.Count() != 1 || s.Min() != int64(lo) {
			t.Fatalf("the Dist holds %d spans from %d; want 1 of %d", s.Count(), s.Min(), lo)
		}
		if n = after.Mallocs - before.Mallocs; n == 0 {
			return
		}
	}
	t.Fatalf("a span below the window of an empty Dist allocated %d times; want 0", n)
}
