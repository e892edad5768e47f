package counter

// A Counter reads the processor's free-running counter: the time-stamp
// counter on amd64 (RDTSC), the generic timer's virtual count on arm64
// (CNTVCT_EL0), and the runtime's monotonic clock in nanoseconds on every
// other architecture and with the purego build tag. It holds only the
// counter's rate, so it is small, is copied by value, and may be used from
// any number of goroutines at once.
//
// A Counter has three kinds of read. [Counter.Now] is the plain read: the
// cheapest, and not ordered against the instructions around it, which is
// right for stamps and for spans of hundreds of nanoseconds and longer, where
// the few cycles by which the processor may move the read are lost in the
// span. [Counter.Begin] and [Counter.End] are the ordered marks for timing
// code of tens of nanoseconds, where those few cycles are the measurement.
// [Counter.NowCPU] is the plain read that also says which CPU it came from.
// Every kind reads the same counter, so readings of different kinds, threads
// and processes on one machine may be subtracted.
//
// The zero Counter reads the counter as well as any other, at the zero
// [TickRate]: every span it measures converts to zero. Until [New] has run
// once in the process, its [Counter.End] uses the fence sequence every CPU
// has and its [Counter.NowCPU] reports no CPU.
type Counter struct {
	rate TickRate
}

// New returns a Counter that converts at rate, a rate the caller already
// knows: from a config, or from a discovery this or another process made on
// the same machine. It checks nothing, neither that the counter is invariant
// nor that the rate is plausible nor that it is not zero: the caller vouches
// for all three. New looks up, once per process, which instructions the CPU
// offers the reads (on amd64, whether it has RDTSCP).
func New(rate TickRate) Counter {
	detectFeatures()
	return Counter{rate: rate}
}

// Rate returns the rate the Counter was made with; the zero [TickRate] for
// the zero Counter.
func (c Counter) Rate() TickRate { return c.rate }

// Now returns the counter's reading, in ticks at [Counter.Rate]. The read is
// a single instruction behind one call, and is not ordered against the
// instructions around it: the processor may take it a few cycles (about ten
// nanoseconds) before earlier work has finished or after later work has
// begun. Use Now for stamps, and for spans of hundreds of nanoseconds and
// longer; time shorter code with [Counter.Begin] and [Counter.End].
func (c Counter) Now() Tickstamp { return Tickstamp(readStamp()) }

// Begin returns the counter's reading, in ticks at [Counter.Rate], taken
// after every earlier instruction has finished and before any later one
// starts, so the code it opens does not start early. On amd64 it is
// LFENCE; RDTSC; LFENCE, on arm64 ISB; MRS CNTVCT_EL0; ISB, and on other
// platforms the plain read.
//
// Begin and [Counter.End] are for timing code of tens of nanoseconds, where
// the few cycles by which a plain read may move are as long as the code
// itself. They cost one or two fences more than [Counter.Now] (on the order
// of 10 to 20 ns), and they stop the timed code from overlapping with its
// neighbours, so it runs a little slower than it does unmarked.
func (c Counter) Begin() Tickstamp { return Tickstamp(readBegin()) }

// End returns the counter's reading, in ticks at [Counter.Rate], taken after
// every earlier instruction has finished and before any later one starts, so
// the code it closes is done and the code after it has not begun. On amd64 it
// is RDTSCP; LFENCE where the CPU has RDTSCP and LFENCE; RDTSC; LFENCE where
// it has not (or before [New] has run), on arm64 ISB; MRS CNTVCT_EL0; ISB, and
// on other platforms the plain read.
//
// Since End, like [Counter.Begin], holds later code back, one End may close
// one span and open the next: back-to-back marks t0 := c.Begin(), then
// t1 := c.End(), t2 := c.End() time two adjacent spans with no gap and one
// read fewer.
func (c Counter) End() Tickstamp { return Tickstamp(readEnd()) }

// NowCPU returns the counter's reading, in ticks at [Counter.Rate], and the
// number of the CPU it was read on, or -1 where the hardware does not say.
// It says only on Linux on amd64, where it is RDTSCP and the CPU is the low
// 12 bits of TSC_AUX, which Linux fills with the CPU number; there the read
// waits for earlier instructions to finish, but not later ones to start. On
// amd64 CPUs without RDTSCP, before [New] has run, on other systems (which
// put their own data in TSC_AUX), on arm64 and on every other platform the
// CPU is -1 and the reading is that of [Counter.Now].
//
// A thread may move to another CPU between two reads; callers that must not
// mix CPUs compare the CPUs of a span's two readings and drop the span where
// they differ.
func (c Counter) NowCPU() (Tickstamp, int) { return readCPU() }
