package counter

import "golang.org/x/sys/unix"

// haveRawClock reports whether rawNanos reads a clock no time daemon slews.
const haveRawClock = true

// rawNanos returns CLOCK_MONOTONIC_RAW in nanoseconds: a system call, a few
// hundred nanoseconds. Every kernel Go runs on has that clock; it panics if
// the kernel refuses it all the same.
func rawNanos() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC_RAW, &ts); err != nil {
		panic("counter: reading CLOCK_MONOTONIC_RAW: " + err.Error())
	}
	return ts.Nano()
}
