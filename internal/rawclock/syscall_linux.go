// The raw clock on Linux: CLOCK_MONOTONIC_RAW, by a raw system call.

package rawclock

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

const have = true

// syscallNanos is Syscall: a raw system call, x/sys having no vDSO path and
// its ClockGettime being a blocking call, whose return may run the
// scheduler.
func syscallNanos() int64 {
	var ts unix.Timespec
	_, _, errno := unix.RawSyscall(unix.SYS_CLOCK_GETTIME, unix.CLOCK_MONOTONIC_RAW, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		panic("counter: reading CLOCK_MONOTONIC_RAW: " + errno.Error())
	}
	return ts.Nano()
}
