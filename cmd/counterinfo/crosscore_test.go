package main

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/affinity"
)

// TestCrossCore hands readings between every pair of CPUs and checks the
// bookkeeping; a backward step is logged, not failed: it is a fact of the
// machine, which counterinfo reports. Where this system has no affinity
// call, or one CPU, or GOMAXPROCS is 1, it checks that the report says why
// it did not check.
func TestCrossCore(t *testing.T) {
	allowed, err := affinity.Allowed()
	n := len(allowed)
	c := counter.New(counter.Monotonic().Rate()) // the counter, converted at 1 GHz
	r := checkCrossCore(c, 20*time.Millisecond)
	if err != nil || n < 2 || runtime.GOMAXPROCS(0) < 2 {
		if r.Checked || r.Reason == "" {
			t.Errorf("checked %v, reason %q on %d CPUs; want not checked, and why", r.Checked, r.Reason, n)
		}
		return
	}
	if !r.Checked {
		t.Fatalf("not checked: %s", r.Reason)
	}
	if len(r.CPUs) != n || r.Pairs != n*(n-1) {
		t.Errorf("%d CPUs, %d pairs; want %d, %d", len(r.CPUs), r.Pairs, n, n*(n-1))
	}
	if r.Handoffs < r.Pairs*minHandoffs/2 {
		t.Errorf("%d handoffs; want at least %d", r.Handoffs, r.Pairs*minHandoffs/2)
	}
	if r.MinHandoffTicks < 0 {
		t.Errorf("quickest handoff %d ticks; want ≥ 0", r.MinHandoffTicks)
	}
	if (r.WorstBackTicks > 0) != (r.BackwardPairs > 0) || (r.WorstBackTicks > 0) != (r.WorstFrom >= 0) {
		t.Errorf("worst %d ticks from %d to %d, %d pairs stepped back: inconsistent", r.WorstBackTicks, r.WorstFrom, r.WorstTo, r.BackwardPairs)
	}
	t.Logf("%d handoffs over %d pairs; worst backward step %d ticks (CPU %d to %d); quickest handoff %d ticks",
		r.Handoffs, r.Pairs, r.WorstBackTicks, r.WorstFrom, r.WorstTo, r.MinHandoffTicks)

	// The pinned threads went back to every CPU allowed.
	if after, err := affinity.Allowed(); err != nil || !slices.Equal(after, allowed) {
		t.Errorf("this thread's CPUs changed from %v to %v (%v)", allowed, after, err)
	}
}
