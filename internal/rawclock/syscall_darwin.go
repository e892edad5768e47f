// The raw clock on macOS: CLOCK_UPTIME_RAW, by the C library's
// clock_gettime.

package rawclock

import "golang.org/x/sys/unix"

const have = true

// syscallNanos is Syscall: the clock that, like Linux's CLOCK_MONOTONIC_RAW,
// no time daemon slews and which stops while the machine sleeps.
func syscallNanos() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_UPTIME_RAW, &ts); err != nil {
		panic("counter: reading CLOCK_UPTIME_RAW: " + err.Error())
	}
	return ts.Nano()
}
