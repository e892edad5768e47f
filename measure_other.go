//go:build !linux && !darwin

// What measuring the counter needs from a system with no raw clock: nothing
// can be measured, and discovery takes a rate only from the hardware.

package counter

// haveRawClock reports whether rawNanos reads a clock no time daemon slews.
const haveRawClock = false

// rawNanos returns the runtime's monotonic clock in nanoseconds, there being
// no raw clock on this system.
func rawNanos() int64 { return nanotime() }

// osCPU is nil: nothing is measured here.
var osCPU func() int
