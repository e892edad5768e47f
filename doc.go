// Package counter reads the processor's free-running counter, the
// time-stamp counter on amd64 and the generic timer's virtual count on
// arm64, and turns spans of its ticks into time.
//
// A service calls [Discover] once at start-up, stamps its hot paths with raw
// readings that cost one instruction, and converts the spans between them to
// [time.Duration] later, off the hot path:
//
//	c, err := counter.Discover() // once, at start-up: about 1 to 10 ms
//	...
//	start := c.Now()             // the hot path: one ordered read, no call into the OS
//	handle(msg)
//	span := c.Now().Sub(start)   // store the span, a Tickdelta
//	...
//	log.Print(span.Duration(c.Rate())) // later, on another goroutine
//
// # Readings, spans and rates
//
// A [Tickstamp] is one reading, in ticks. Its origin is whatever the hardware
// or the hypervisor chose, so a reading by itself means nothing: only the
// difference of two readings, a [Tickdelta], is a span, and only a span
// converts to time. Readings are unsigned and wrap modulo 2⁶⁴;
// [Tickstamp.Sub] reads their wrapping difference as signed, so a reading a
// few ticks behind another gives a small negative span.
//
// A [TickRate] is the counter's rate in hertz. [Tickdelta.Duration] turns a
// span into nanoseconds and [TickRate.Ticks] turns a duration into ticks.
// Each conversion is two multiplies and an add by factors the rate
// worked out once, with no division: the result is the exact quotient when
// that is a whole number, and otherwise the whole number just below or just
// above it, never further off. A result past the int64 range saturates to
// its nearest end. These promises hold for every count and every rate from
// 1 Hz to 2⁶⁴−1 Hz, and a property test checks them against math/big. The
// zero TickRate is no rate: it converts everything to zero.
//
// Readings and spans print as "1000 ticks" and rates exactly, in the largest
// unit that leaves a whole part: "24 MHz", "62.5 MHz", "2.299999917 GHz".
// [ParseTickstamp], [ParseTickdelta] and [ParseTickRate] read those forms
// back to the same value, and all three types implement
// [encoding.TextMarshaler] and [encoding.TextUnmarshaler], so they sit in
// JSON, YAML and TOML configs and cross process boundaries as text. A
// [*TickRate] is also a [flag.Value].
//
// # Reading the counter
//
// A [Counter] holds only its rate and reads the counter. Its default read,
// [Counter.Now], waits for every earlier instruction, loads included, so a
// reading never contradicts what its goroutine has already seen: a reading
// handed over by another goroutine, through a channel, a lock or an atomic,
// is never later than the receiver's next Now. Readings of every kind of
// read, goroutine, thread and process on one machine may be subtracted: the
// cores of a socket count from one reset, and Linux checks at boot that they
// agree. [Counter.Since] reads and converts in one call.
//
// The other reads trade that ordering for speed or sharpen it.
// [Counter.NowUnordered] is the bare instruction, the cheapest read, for
// spans whose readings all come from one goroutine: the processor may take
// it before an earlier load completes. [Counter.Begin] and [Counter.End]
// also hold later instructions back until they have read, for timing code
// of tens of nanoseconds. [Counter.NowCPU] is ordered as Now is and says
// which CPU the reading came from, on Linux on amd64 with RDTSCP, so a
// caller can drop the spans whose thread moved in between; elsewhere the
// CPU is -1.
//
// On amd64 the reads are:
//
//	Now           LFENCE; RDTSC
//	NowUnordered  RDTSC
//	Begin         LFENCE; RDTSC; LFENCE
//	End           RDTSCP; LFENCE   (LFENCE; RDTSC; LFENCE without RDTSCP)
//	NowCPU        RDTSCP           (LFENCE; RDTSC and CPU -1 without RDTSCP, or off Linux)
//
// LFENCE; RDTSC is what Linux reads the counter with (rdtsc_ordered) on
// both Intel and AMD. RDTSCP runs only where CPUID says the CPU has it; [New]
// and [Discover] ask once per process, never at init and never on a read,
// since CPUID in a virtual machine costs a VM exit of tens of microseconds.
// Until then a Counter, such as the zero Counter, uses the sequences every
// amd64 CPU has. On arm64 Now and NowCPU are ISB; MRS CNTVCT_EL0,
// NowUnordered is MRS CNTVCT_EL0, and Begin and End are
// ISB; MRS CNTVCT_EL0; ISB.
//
// # Discovering the rate
//
// [Discover] refuses a counter it cannot vouch for, and otherwise finds its
// rate. On amd64 it refuses a counter that CPUID does not promise invariant
// ([ErrNotInvariant]), one the kernel makes fault ([ErrDisabled]), then takes
// the rate from CPUID leaf 0x15 (a crystal's rate times a ratio), else from
// the hypervisor's leaf 0x40000010, else measures it against the raw
// monotonic clock over about 10 ms. On arm64 the rate is CNTFRQ_EL0, which
// the firmware wrote. A rate the hardware reports is checked against a 1 ms
// measurement, and measured in full where the two differ by more than 1%:
// emulators have been seen to copy the host's CPUID while their counter runs
// hundreds of times slower. A rate outside 1 MHz to 10 GHz is refused with a
// [*RateError]. [DiscoverDetails] says where the rate came from and, for a
// measurement, how good it is.
//
// The measurement reads the raw clock (CLOCK_MONOTONIC_RAW on Linux, which no
// time daemon slews) between two readings of the counter, tens of thousands
// of times over the window, and fits a line through them; a window the thread
// spent on two CPUs is measured again. On a 2-core virtual machine with both
// cores busy it lands a median of 0.2 ppm from the kernel's own calibration,
// and about 1 ppm at worst: 1 µs in a second.
//
// Where the rate is known already, from a config or from a discovery made by
// another process on the same machine, [New] takes it and checks nothing.
// Where Discover refuses, use [Monotonic], a Counter that reads the
// runtime's monotonic clock, so the code that stamps and converts does not
// change.
//
// # Wall-clock time
//
// A span converts to a [time.Duration]; a reading converts to a [time.Time]
// through an [Anchor], which pairs one reading of a [Clock] with one of the
// wall clock. The hot path stores a [Tickstamp]; a logger later calls
// [Anchor.Time], an atomic load and a few multiplies with no system call and
// no allocation, about a quarter of what [time.Now] costs; it waits only if it
// meets the instant a new pair is published. Timelines across processes and
// machines (tick-to-trade records, logs joined with an exchange's) are joined
// by the wall clock, which PTP or NTP align.
//
// The pair is taken by reading the wall clock between two readings of the
// clock 16 times and keeping the tightest bracket; its midpoint is off by at
// most half the bracket, [Anchor.Bound], tens of nanoseconds with a
// [Counter]. A conversion adds the rate's error times the time since the
// pair (1 ppm is 1 µs a second) and the wall clock's own adjustments since:
// [Anchor.Reanchor], or [Anchor.Run] on a goroutine of its own, takes a fresh
// pair, and [Anchor.Drift] says how far the clocks have moved apart.
//
// Converted times never go back: a reading taken after a conversion
// converts to no earlier a time, across any re-anchoring, as long as it is
// converted within 31 re-anchorings of being taken. A step of the wall clock
// forwards takes effect at once; a step backwards (or a counter that ran
// fast) is slewed out: converted times run at 63/64 speed until they meet
// the new line, 64 ms for a step of 1 ms, and [Anchor.Lag] says how much is
// left. Converted times carry no monotonic clock reading: one synthesized
// from the counter would make [time.Time.Sub] against [time.Now] compare the
// counter with the monotonic clock, silently.
//
// # Platforms
//
//	arch          OS               Counter reads          RawMonotonicClock    NowCPU's CPU
//	amd64         Linux            RDTSC                  CLOCK_MONOTONIC_RAW  from RDTSCP; -1 without it
//	amd64         macOS            RDTSC                  CLOCK_UPTIME_RAW     -1
//	amd64         Windows, BSDs    RDTSC                  runtime's monotonic  -1
//	arm64         Linux            CNTVCT_EL0             CLOCK_MONOTONIC_RAW  -1
//	arm64         macOS            CNTVCT_EL0             CLOCK_UPTIME_RAW     -1
//	arm64         Windows, BSDs    CNTVCT_EL0             runtime's monotonic  -1
//	others        any              runtime's monotonic    as above             -1
//	-tags purego  any              runtime's monotonic    as above             -1
//
// Where the Counter reads the runtime's monotonic clock, it reads nanoseconds
// (at [Gigahertz]), comparable across processes like the counter, and
// [Discover] refuses with an error that wraps [errors.ErrUnsupported]. Where
// there is no raw clock, [RawMonotonicClock] reads the runtime's monotonic
// clock, [NewRawMonotonicClock] says so, and [Discover] can check or measure
// nothing: it takes a rate CPUID or CNTFRQ_EL0 reports, and otherwise refuses
// with [ErrNoRate].
//
// # Caveats
//
// Virtual machines: the hypervisor chooses the CPUID bits its guest sees,
// adds an offset to the counter and, where the guest moved to a host of
// another rate, scales it. One that hides the invariant bit makes Discover
// refuse, even where the host's counter is invariant. One that traps the
// counter's instruction makes every read cost a microsecond or more:
// cmd/counterinfo measures the cost and warns.
//
// Sleep: an invariant counter keeps counting in the cores' idle states, but
// whether it counts while the whole machine is suspended is the platform's
// choice; do not subtract readings taken across a suspend.
//
// Machines: readings of two machines never subtract; join their timelines by
// the wall clock, which PTP or NTP keep aligned. Sockets: the counters of a
// multi-socket machine are aligned by the firmware rather than driven by one
// clock; Linux checks them at boot and marks the TSC unstable where they
// disagree.
//
// Cycles: the counter counts time, not the cycles a core ran, which change
// with its frequency; count cycles, instructions and cache misses with the
// performance counters, through the subpackage
// [github.com/tickstamp/counter/perf].
package counter
