// What measuring the counter needs from macOS: the raw reference clock,
// CLOCK_UPTIME_RAW. macOS has no call that says which CPU a thread runs on.

package counter

import "golang.org/x/sys/unix"

// haveRawClock reports whether rawNanos reads a clock no time daemon slews.
const haveRawClock = true

// rawNanos returns CLOCK_UPTIME_RAW in nanoseconds: the raw clock that, like
// Linux's CLOCK_MONOTONIC_RAW, no time daemon slews and which stops while the
// machine sleeps. Every macOS Go runs on has that clock; it panics if the
// system refuses it all the same.
func rawNanos() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_UPTIME_RAW, &ts); err != nil {
		panic("counter: reading CLOCK_UPTIME_RAW: " + err.Error())
	}
	return ts.Nano()
}

// osCPU is nil: macOS cannot say which CPU a thread runs on. A measurement
// there fits one offset to the whole window, trusting what the platform
// promises: Apple silicon's CPUs read one system counter, and Intel Macs
// keep their TSCs in step.
var osCPU func() int
