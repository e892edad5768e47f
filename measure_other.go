//go:build !linux && !darwin

// What measuring the counter needs from a system with no raw clock: nothing
// can be measured, and discovery takes a rate only from the hardware.

package counter

// measureRawClock reports whether the raw clock that bracketNanos reads is one
// no time daemon slews: false, there being no raw clock on this system
// (bracketNanos reads the runtime's monotonic clock instead).
const measureRawClock = false

// measureCPU is nil: nothing is measured here.
var measureCPU func() int
