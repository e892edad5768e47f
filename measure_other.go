//go:build !linux && !darwin

package counter

// haveRawClock reports whether rawNanos reads a clock no time daemon slews.
const haveRawClock = false

// rawNanos returns the runtime's monotonic clock in nanoseconds, there being
// no raw clock on this system.
func rawNanos() int64 { return nanotime() }
