//go:build !race

package handover

import (
	"runtime"
	"testing"
)

// TestDistResetAllocatesNothing widens a Dist past its storage, which
// moves its counts, and checks that a Reset then, which widens the window
// to the storage, allocates nothing: the bits have room for it too. (It
// counts the process's allocations around the first Reset, which
// AllocsPerRun would not count, as it runs its function once before
// counting; one of three tries free of others' allocations is enough. A
// race build allocates for its own ends: the test is not built there.)
func TestDistResetAllocatesNothing(t *testing.T) {
	var n uint64
	for range 3 {
		var s Dist
		s.Add(KindSpan, 1000)
		s.Add(KindSpan, 1<<40) // past the window: new storage, a quarter wider
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s.Reset()
		runtime.ReadMemStats(&after)
		s.checkUsed(t)
		if n = after.Mallocs - before.Mallocs; n == 0 {
			return
		}
	}
	t.Fatalf("Reset allocated %d times; want 0", n)
}
