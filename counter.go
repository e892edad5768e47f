package counter

import "time"

// A Counter reads the processor's free-running counter: the time-stamp
// counter on amd64 (RDTSC), the generic timer's virtual count on arm64
// (CNTVCT_EL0), and the runtime's monotonic clock in nanoseconds on every
// other architecture and with the purego build tag. The Counter that
// [Monotonic] returns reads the runtime's monotonic clock on every platform:
// it is the fallback where [Discover] refuses. A Counter holds its rate and
// that choice, nothing else: a Counter from Discover equals [New] at its
// rate. It is small, is copied by value, and may be used from any number of
// goroutines at once.
//
// A Counter reads in four ways, which differ only in how the processor may
// move the read against the instructions around it:
//
//   - [Counter.Now], the default, reads only once every earlier instruction,
//     loads included, has finished. A goroutine that loads a reading another
//     goroutine published, then calls Now, gets a reading no earlier than the
//     one it loaded: readings never contradict what a goroutine has already
//     seen. Later instructions may start before Now reads.
//   - [Counter.NowUnordered] is the bare instruction, the cheapest read. The
//     processor may take it before an earlier load has completed, and a load
//     of a cache line another core is writing can take microseconds: use it
//     only where every reading of a span comes from one goroutine.
//   - [Counter.Begin] and [Counter.End] are ordered on both sides: they wait
//     for every earlier instruction and hold every later one back until they
//     have read. They are the marks for timing code of tens of nanoseconds.
//   - [Counter.NowCPU] is ordered as Now is, and also says which CPU the
//     reading came from, where the hardware says.
//
// Every kind reads the same counter, so readings of different kinds,
// goroutines, threads and processes on one machine may be subtracted;
// [Counter.Since] reads, subtracts and converts in one call.
//
// The zero Counter reads the counter as well as any other, at the zero
// [TickRate]: every span it measures converts to zero. Until [New] has run
// once in the process, its [Counter.Now] and [Counter.End] use the fence
// sequences every CPU has, and its [Counter.NowCPU] reports no CPU.
type Counter struct {
	rate TickRate
	// mono makes every read the runtime's monotonic clock: see Monotonic.
	mono bool
}

// New returns a Counter that converts at rate, a rate the caller already
// knows: from a config, or from a discovery this or another process made on
// the same machine. It checks nothing, neither that the counter is invariant
// nor that the rate is plausible nor that it is not zero: the caller vouches
// for all three. New looks up, once per
// process, which instructions the CPU offers the reads (on amd64, whether
// it has RDTSCP).
func New(rate TickRate) Counter {
	detectFeatures()
	return Counter{rate: rate}
}

// Monotonic returns a Counter that reads the runtime's monotonic clock, in
// nanoseconds at a rate of 1 GHz, on every platform: the clock behind
// [time.Now]'s monotonic reading, without the wall clock time.Now also
// reads, behind the same type as the counter, so that falling back where
// [Discover] refuses is one line:
//
//	c, err := counter.Discover()
//	if err != nil {
//		c = counter.Monotonic()
//	}
//
// Its readings never go backwards and, their origin being the system's, may
// be subtracted across processes on one machine (on Linux CLOCK_MONOTONIC,
// which NTP may slew and which stops during suspend); they
// may not be subtracted from a hardware Counter's. Every kind of read is the
// same call into the runtime, and [Counter.NowCPU] reports -1. On Linux
// that call reads through the vDSO, which reads the hardware after earlier
// loads have completed, and on amd64 executes RDTSC wherever the kernel's
// clocksource reads the TSC: it faults on a thread where RDTSC is made to
// fault ([ErrDisabled]), as time.Now does. The choice costs the hardware
// reads one predictable branch.
func Monotonic() Counter {
	return Counter{rate: gigahertz(), mono: true}
}

// Rate returns the rate the Counter was made with; the zero [TickRate] for
// the zero Counter, and 1 GHz for [Monotonic].
func (c Counter) Rate() TickRate { return c.rate }

// Now returns the counter's reading, in ticks at [Counter.Rate], taken after
// every earlier instruction, loads included, has finished: on amd64 RDTSCP
// where the CPU has it (as Linux's own ordered read prefers) and LFENCE;
// RDTSC where it has not
// or before [New] has run, on arm64 ISB; MRS CNTVCT_EL0. So a reading is
// never earlier than one this goroutine loaded from another before calling
// Now: a reading handed over through a channel, a mutex or an atomic may be
// subtracted from it. Later instructions may start before the read, so the
// code a span opens with Now may begin a few nanoseconds (the read's own
// latency) before the reading: time code of tens of nanoseconds with
// [Counter.Begin] and [Counter.End]. Now costs a fence more than
// [Counter.NowUnordered]; BENCHMARKS.md has the figures, and those of
// readings handed between CPUs.
func (c Counter) Now() Tickstamp { return Tickstamp(stampNow(c.mono)) }

// NowUnordered returns the counter's reading, in ticks at [Counter.Rate],
// with the bare instruction and no ordering: on amd64 RDTSC, on arm64
// MRS CNTVCT_EL0, elsewhere the runtime's clock as [Counter.Now] reads it.
// It is the cheapest read, and the processor may take it before an earlier
// load has completed. So a reading taken right after loading another
// goroutine's reading may be behind it, by an amount the package cannot
// bound: on loaded virtual machines, by tens of microseconds (BENCHMARKS.md
// has the counts). Use NowUnordered only where every reading of a span
// comes from one goroutine, which sees its own readings in order.
func (c Counter) NowUnordered() Tickstamp { return Tickstamp(stampUnordered(c.mono)) }

// Begin returns the counter's reading, in ticks at [Counter.Rate], taken
// after every earlier instruction has finished and before any later one
// starts, so the code it opens does not start early. On amd64 it is
// LFENCE; RDTSC; LFENCE, on arm64 ISB; MRS CNTVCT_EL0; ISB, and on other
// platforms the runtime's clock.
//
// Begin and [Counter.End] are for timing code of tens of nanoseconds, where
// the few nanoseconds by which code after [Counter.Now] may start early are
// as long as the code itself. Each costs a fence more than Now, and they stop
// the timed code from overlapping with its neighbours, so it runs a little
// slower than it does unmarked. Across goroutines Begin and End are ordered
// as Now is: a reading loaded from another goroutine is never later than
// this goroutine's next one (the handoff tests, and BENCHMARKS.md).
func (c Counter) Begin() Tickstamp { return Tickstamp(stampBegin(c.mono)) }

// End returns the counter's reading, in ticks at [Counter.Rate], taken after
// every earlier instruction has finished and before any later one starts, so
// the code it closes is done and the code after it has not begun. On amd64 it
// is RDTSCP; LFENCE where the CPU has RDTSCP and LFENCE; RDTSC; LFENCE where
// it has not (or before [New] has run), on arm64 ISB; MRS CNTVCT_EL0; ISB, and
// on other platforms the runtime's clock.
//
// Since End, like [Counter.Begin], holds later code back, one End may close
// one span and open the next: back-to-back marks t0 := c.Begin(), then
// t1 := c.End(), t2 := c.End() time two adjacent spans with no gap and one
// read fewer.
func (c Counter) End() Tickstamp { return Tickstamp(stampEnd(c.mono)) }

// NowCPU returns the counter's reading, in ticks at [Counter.Rate], ordered
// as [Counter.Now] is (after every earlier instruction, loads included), and
// the number of the CPU it was read on, or -1 where the hardware does not
// say. It says only on Linux on amd64 CPUs with RDTSCP, where the read is
// RDTSCP and the CPU is the low 12 bits of TSC_AUX, which Linux fills with
// the CPU number. On amd64 CPUs without RDTSCP, before [New] has run, on
// other systems (which put their own data in TSC_AUX), on arm64 and on
// every other platform, and for [Monotonic], the CPU is -1 and the reading
// is ordered as Now's is (on amd64 LFENCE; RDTSC), across goroutines too.
//
// A thread may move to another CPU between two reads; callers that must not
// mix CPUs compare the CPUs of a span's two readings and drop the span where
// they differ.
func (c Counter) NowCPU() (Tickstamp, int) { return stampCPU(c.mono) }

// Since returns the time from start to a reading taken now by
// [Counter.Now], converted at [Counter.Rate] as [Tickdelta.Duration]
// converts: c.Now().Sub(start).Duration(c.Rate()). It is negative where
// start is a reading later than now (one of another counter, or garbage),
// saturates at the ends of [time.Duration], and is 0 for the zero Counter.
func (c Counter) Since(start Tickstamp) time.Duration {
	return c.Now().Sub(start).Duration(c.rate)
}

// The reads of the hardware counter (the runtime's clock where this build
// has none), for the package's own brackets of the raw clock, each the read
// of the Counter method of its name for a Counter made by New: a bracket
// needs ordered reads on both sides.

// readBegin is the read of [Counter.Begin].
func readBegin() uint64 { return stampBegin(false) }

// readEnd is the read of [Counter.End].
func readEnd() uint64 { return stampEnd(false) }

// readCPU is the read of [Counter.NowCPU].
func readCPU() (Tickstamp, int) { return stampCPU(false) }
