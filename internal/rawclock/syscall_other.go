//go:build !linux && !darwin

// A system with no raw clock: Syscall reads the runtime's monotonic clock.

package rawclock

const have = false

// syscallNanos is Syscall: the runtime's monotonic clock, there being no raw
// clock here.
func syscallNanos() int64 { return nanotime() }
