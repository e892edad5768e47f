package counter

// Hooks for the external tests (package counter_test) of this directory.

import (
	"runtime"

	"github.com/tickstamp/counter/internal/handover"
	"github.com/tickstamp/counter/internal/rawclock"
)

// NowFenced reads as Now does where the CPU has no RDTSCP (LFENCE; RDTSC on
// amd64; Now's own read elsewhere), so that the handoff test checks that
// path on a CPU that has RDTSCP too.
func NowFenced() Tickstamp { return Tickstamp(stampFenced(false)) }

// BracketNanos reads the raw clock as discovery's measurement, the brackets
// of the per-CPU check and the watch do (see rawclock.Kind); SyscallNanos
// reads it by a system call alone (rawclock.Syscall), which the package's
// own code does only where the brackets' read falls back to it, so that the
// tests can compare the two reads and read the clock where RDTSC faults;
// Nanotime reads the runtime's monotonic clock, which a Monotonic Counter
// reads.
var (
	BracketNanos = bracketNanos
	SyscallNanos = rawclock.Syscall
	Nanotime     = nanotime
)

// BracketReadKind names the brackets' read of the raw clock: "vdso",
// "system call" or "runtime" (rawclock.Kind).
func BracketReadKind() string { return rawClock().Kind() }

// TightestBracket returns the width, in ticks, of the narrowest of
// maxBrackets brackets of raw between two reads of Counter.Begin, as the
// per-CPU check and the watch take them; -1 where the counter ran back in
// every one.
func TightestBracket(raw func() int64) Tickdelta {
	b, _, _, _ := clockPair{counter: readBothWays, raw: raw}.tightest(maxBrackets)
	return b.width
}

// EnvCount returns the count an environment variable sets for a test, or
// its default (see envCount).
var EnvCount = envCount

// NewHistogramPassing returns an empty Histogram whose Interval passes
// barrier b, with NewHistogram's locks, so that a benchmark can time each
// barrier this machine has (handover.Barriers) under the same load.
func NewHistogramPassing(b handover.Barrier) *Histogram {
	return newHistogram(b, max(runtime.GOMAXPROCS(0)*4, 8))
}
