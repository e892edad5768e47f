// What measuring the counter needs from Linux: first the raw reference
// clock, CLOCK_MONOTONIC_RAW, then which CPU the thread runs on, for a
// measurement on a CPU whose counter instruction does not say.

package counter

import (
	"golang.org/x/sys/unix"

	"github.com/tickstamp/counter/internal/affinity"
)

// haveRawClock reports whether rawNanos reads a clock no time daemon slews.
const haveRawClock = true

// rawNanos returns CLOCK_MONOTONIC_RAW in nanoseconds: a vDSO call of tens of
// nanoseconds where the kernel's clock source is the TSC, a system call of
// hundreds (1.3 µs on a Bhyve guest on kvm-clock) where it is not. Every
// kernel Go runs on has that clock; it panics if the kernel refuses it all
// the same.
func rawNanos() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC_RAW, &ts); err != nil {
		panic("counter: reading CLOCK_MONOTONIC_RAW: " + err.Error())
	}
	return ts.Nano()
}

// osCPU returns the CPU the calling thread runs on, from the getcpu system
// call, or -1 where the call fails (a seccomp filter may refuse it). A
// measurement asks only after its thread may have left its CPU, a few times
// in a window.
var osCPU = func() int {
	cpu, err := affinity.Current()
	if err != nil {
		return -1
	}
	return cpu
}
