// What measuring the counter needs from macOS: the raw reference clock,
// CLOCK_UPTIME_RAW. macOS has no call that says which CPU a thread runs on.

package counter

import "github.com/tickstamp/counter/internal/rawclock"

// haveRawClock reports whether rawNanos reads a clock no time daemon slews.
const haveRawClock = rawclock.Have

// rawNanos returns CLOCK_UPTIME_RAW in nanoseconds ([rawclock.Syscall]): the
// raw clock that, like Linux's CLOCK_MONOTONIC_RAW, no time daemon slews and
// which stops while the machine sleeps.
func rawNanos() int64 { return rawclock.Syscall() }

// osCPU is nil: macOS cannot say which CPU a thread runs on. A measurement
// there fits one offset to the whole window, trusting what the platform
// promises: Apple silicon's CPUs read one system counter, and Intel Macs
// keep their TSCs in step.
var osCPU func() int
