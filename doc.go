// Package counter reads the processor's free-running counter (the
// time-stamp counter on amd64, the generic timer's virtual count on arm64)
// and turns spans of its ticks into time, exactly and off the hot path.
//
// A service calls [Discover] once at start-up, stamps its hot paths with
// [Counter.Now], a single ordered read with no call into the OS, keeps the
// [Tickdelta] between two readings, and converts it to a [time.Duration]
// later with [Tickdelta.Duration]. Where Discover refuses, [Monotonic] is a
// Counter of the same type that reads the runtime's monotonic clock, so the
// code that stamps and converts does not change. The README walks through
// a service's use, BENCHMARKS.md holds the figures measured, and each
// type's doc is its contract. In brief:
//
//   - Units. A [Tickstamp] is one reading, in ticks of a counter whose
//     origin means nothing; a [Tickdelta] is the signed span between two;
//     a [TickRate] converts spans to time and back without dividing, within
//     one unit of the exact quotient and saturating at the ends of the
//     range.
//   - Ordering. [Counter.Now] is never earlier than a reading its goroutine
//     already loaded from another, so readings of different goroutines,
//     threads and processes on one machine may be subtracted.
//     [Counter.NowUnordered] is the bare instruction, for spans read on one
//     goroutine; [Counter.Begin] and [Counter.End] fence both sides, for
//     timing code of tens of nanoseconds.
//   - Refusals. Discover refuses a counter it cannot vouch for, each time
//     with an error that is, or wraps, a sentinel whose doc says what to
//     read instead: [ErrNotInvariant], [ErrDisabled], [ErrCPUsDisagree],
//     [ErrNoRate], [ErrMeasure] and [ErrRateOutOfRange]. A nil or zero
//     value that a function cannot use (a nil *Snapshot, the zero Anchor)
//     is refused with an error where the function returns one, and
//     otherwise with a panic whose message names the call and what to do.
//     The hot paths, [Histogram.Record], [Recorder.Record] and
//     [Recorder.RecordCPU], leave a nil receiver to Go's own nil-pointer
//     panic, which costs them no branch.
//   - Distributions. A [Histogram] keeps spans as ticks on the hot path:
//     a [Recorder] for each goroutine that records, or
//     [Histogram.Record] from any goroutine. A reporter takes what was
//     recorded since the last time with [Histogram.Interval] and reads
//     the [Snapshot]'s median, 99th percentile and maximum, converting them
//     to time there. [Counter.Floor] measures the empty span of a pair of
//     reads, to take off each span; for code shorter than the counter's
//     step, read [Snapshot.Mean], not a quantile.
//   - After start-up. A [Watch] keeps checking the counter against the raw
//     monotonic clock and the kernel's clocksource, reports what it finds as
//     an [Event], and refines the rate; an [Anchor] turns stored readings
//     into wall-clock [time.Time].
//   - Platforms. amd64 and arm64 read the hardware; every other
//     architecture, and the purego build tag, read the runtime's monotonic
//     clock in nanoseconds, and there Discover refuses with an error that
//     wraps [errors.ErrUnsupported].
//
// The subpackage [github.com/tickstamp/counter/perf] counts cycles,
// instructions and the kernel's events beside the time;
// [github.com/tickstamp/counter/counterhttp] times each request of a
// net/http server into a [Family]; the command
// cmd/counterinfo tells an operator whether a machine's counter can be
// trusted.
package counter
