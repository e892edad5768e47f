// What measuring the counter needs from Linux: first the raw reference
// clock, CLOCK_MONOTONIC_RAW, then which CPU the thread runs on, for a
// measurement on a CPU whose counter instruction does not say.

package counter

import (
	"github.com/tickstamp/counter/internal/affinity"
	"github.com/tickstamp/counter/internal/rawclock"
)

// measureRawClock reports whether the raw clock that bracketNanos reads,
// CLOCK_MONOTONIC_RAW, is one no time daemon slews.
const measureRawClock = rawclock.Have

// measureCPU returns the CPU the calling thread runs on, from the getcpu system
// call, or -1 where the call fails (a seccomp filter may refuse it). A
// measurement asks only after its thread may have left its CPU, a few times
// in a window.
var measureCPU = func() int {
	cpu, err := affinity.Current()
	if err != nil {
		return -1
	}
	return cpu
}
