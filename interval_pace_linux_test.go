//go:build handoverstep && linux

package counter_test

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/handover"
)

// TestIntervalPhasesAtPace finds where the CPU time of a slow Interval goes,
// at BenchmarkIntervalEvery100ms's pace and load (64 Recorders, two
// recording flat out): it takes 300 Intervals, 100 ms apart, on a thread
// of its own, and logs, for each that took over a millisecond of the
// thread's CPU time, the time of each of the reader's ordered events
// (internal/handover's trace: swap 0, barrier 1 (before the barrier is
// passed), journal 2). It is a diagnostic, run by hand in the
// handoverstep build:
//
//	COUNTER_PACE=1 go test -tags handoverstep -run TestIntervalPhasesAtPace -v .
func TestIntervalPhasesAtPace(t *testing.T) {
	if os.Getenv("COUNTER_PACE") == "" {
		t.Skip("set COUNTER_PACE=1 to take 300 Intervals at a reporter's pace (30 s)")
	}
	h, stop := atPace()
	defer stop()
	var s counter.Snapshot
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	type mark struct {
		e   handover.Event
		cpu time.Duration
	}
	marks := make([]mark, 0, 16)
	handover.OnTrace = func(e handover.Event) { marks = append(marks, mark{e, threadCPU()}) }
	defer func() { handover.OnTrace = nil }()
	slow := 0
	for i := range 300 {
		time.Sleep(100 * time.Millisecond)
		marks = marks[:0]
		c0 := threadCPU()
		h.Interval(&s)
		if d := threadCPU() - c0; d > time.Millisecond {
			slow++
			t.Logf("Interval %d: %v of CPU time", i, d)
			for _, m := range marks {
				t.Logf("  event %d at %v", m.e, m.cpu-c0)
			}
		}
	}
	t.Logf("%d of 300 Intervals took over 1 ms of CPU time", slow)
}
