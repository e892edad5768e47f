// What measuring the counter needs from macOS: the raw reference clock,
// CLOCK_UPTIME_RAW. macOS has no call that says which CPU a thread runs on.

package counter

import "github.com/tickstamp/counter/internal/rawclock"

// measureRawClock reports whether the raw clock that bracketNanos reads,
// CLOCK_UPTIME_RAW, is one no time daemon slews. Like Linux's
// CLOCK_MONOTONIC_RAW it stops while the machine sleeps.
const measureRawClock = rawclock.Have

// measureCPU is nil: macOS cannot say which CPU a thread runs on. A measurement
// there fits one offset to the whole window, trusting what the platform
// promises: Apple silicon's CPUs read one system counter, and Intel Macs
// keep their TSCs in step.
var measureCPU func() int
