package counter

import (
	"errors"
	"runtime"
	"strconv"
	"time"
)

// The refusals of [Discover]. Each one's message says why there is no rate,
// and its doc what to do instead.
var (
	// ErrNotInvariant is the refusal of a counter that CPUID does not promise
	// to be invariant: one that may tick slower while the core saves power,
	// stop while it sleeps, or not exist. Virtual machines whose hypervisor
	// hides the invariant bit refuse too, even where the host's counter is
	// invariant. Use [Monotonic] instead; or, where you know better
	// (the host is invariant and the guest stays on it), make a [Counter]
	// with [New] and the rate of [Measure].
	ErrNotInvariant = errors.New("counter: CPUID does not promise an invariant time-stamp counter")

	// ErrNoRate is the refusal where nothing gave a rate: CPUID reports none
	// and this system has no raw clock to measure the counter against. Make
	// a [Counter] with [New] and a rate known from elsewhere (a config, or a
	// discovery on the same machine under Linux), or use [Monotonic].
	ErrNoRate = errors.New("counter: CPUID reports no rate and there is no raw clock here to measure one against")

	// ErrRateOutOfRange is wrapped by a [RateError]: the rate found is
	// outside 1 MHz to 10 GHz, the rates of real counters, so the rate or
	// the counter is broken. Use [Monotonic] instead.
	ErrRateOutOfRange = errors.New("counter: rate out of range")

	// ErrDisabled is the refusal where the calling thread has asked the
	// kernel to make RDTSC fault (Linux's prctl(PR_SET_TSC, PR_TSC_SIGSEGV)),
	// so that the first read of the counter would kill the process. Discover
	// and Measure ask before they read any clock, about the calling thread,
	// and keep their goroutine on it until they return; Discover's per-CPU
	// check, which reads on a thread of its own, asks again there and
	// refuses with this error too. The flag is per thread, kept across execve
	// and inherited by the threads created afterwards: a [Counter] made on a
	// thread without it faults on a thread with it, and a [Watch] skips a
	// per-CPU check whose thread has it.
	//
	// A Go program rarely lives to see this error. Go's runtime on amd64
	// executes RDTSC itself, at start-up and whenever a thread sleeps on a
	// contended runtime lock; and it reads its clock through the vDSO, which
	// executes RDTSC where the kernel's clocksource is tsc, kvm-clock or the
	// Hyper-V TSC page with a stable TSC, and makes a system call only for
	// clocksources it cannot read, such as hpet and acpi_pm. So where the
	// kernel enforces the flag, a Go program started with it dies before
	// main, and a thread that sets it may die at any of the runtime's reads,
	// at a moment no library chooses: at its next clock read wherever the
	// vDSO reads the TSC, as time.Now and [MonotonicClock] do. Some
	// hypervisors accept and report the flag without enforcing it; RDTSC keeps
	// working there, and this error is what such a thread sees.
	//
	// What works: clear the flag with prctl(PR_SET_TSC, PR_TSC_ENABLE) on the
	// thread that set it, and discover again. Where it must stay, read
	// CLOCK_MONOTONIC_RAW by a raw system call (x/sys/unix.RawSyscall of
	// SYS_CLOCK_GETTIME), in which the kernel reads its clock where the flag
	// does not apply, and which returns without running the scheduler, so it
	// executes no RDTSC of the runtime's either. It cannot keep the runtime
	// from reading the counter on that thread at other moments, as said above.
	ErrDisabled = errors.New("counter: RDTSC faults in this process (prctl PR_TSC_SIGSEGV)")

	// ErrMeasure is wrapped by every failure to measure the rate: the
	// thread kept moving between CPUs, or the clocks did not advance. The
	// message says which. Try again on a quieter machine, or pin the thread
	// first; or use [Monotonic] instead.
	ErrMeasure = errors.New("counter: could not measure the rate")
)

// Lowest and highest rates Discover accepts.
const (
	minRate = 1_000_000      // 1 MHz
	maxRate = 10_000_000_000 // 10 GHz
)

// A RateError is the refusal of a rate outside 1 MHz to 10 GHz. It wraps
// [ErrRateOutOfRange].
type RateError struct {
	Hz     uint64 // the rate found, in hertz
	Source Source // where it came from
}

func (e *RateError) Error() string {
	return "counter: a rate of " + strconv.FormatUint(e.Hz, 10) + " Hz is outside 1 MHz to 10 GHz"
}

func (e *RateError) Unwrap() error { return ErrRateOutOfRange }

// A Source says where a rate came from.
type Source int

// The sources of a rate.
const (
	SourceNone           Source = iota // no rate was found
	SourceCrystal                      // CPUID leaf 0x15: the crystal's rate times the ratio
	SourceNominalCrystal               // CPUID leaf 0x15's ratio and the model's documented crystal
	SourceHypervisor                   // the hypervisor's CPUID leaf 0x40000010
	SourceFrequencyReg                 // arm64's CNTFRQ_EL0, as the firmware wrote it
	SourceMeasured                     // measured against the raw monotonic clock
)

var sourceNames = [...]string{
	SourceNone:           "none",
	SourceCrystal:        "cpuid-0x15",
	SourceNominalCrystal: "cpuid-0x15-nominal-crystal",
	SourceHypervisor:     "cpuid-0x40000010",
	SourceFrequencyReg:   "cntfrq",
	SourceMeasured:       "measured",
}

// String returns the source's name: "cpuid-0x15", "measured", and so on.
func (s Source) String() string {
	if s >= 0 && int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "source(" + strconv.Itoa(int(s)) + ")"
}

// A Discovery says how [DiscoverDetails] found the counter's rate, for logs
// and reports.
type Discovery struct {
	Rate   TickRate      // the rate found; the zero TickRate when refused
	Source Source        // where Rate came from
	Took   time.Duration // how long discovery took, measurements included

	// Reported is the rate CPUID or CNTFRQ_EL0 gave, 0 where they gave
	// none. Where a short measurement disagreed with it by more than 1%,
	// Source is SourceMeasured and Rate is the full measurement's.
	Reported uint64
	// Check is the short measurement that checked Reported, if there was one.
	Check *Measurement
	// Measured is the full measurement, where Rate came from one.
	Measured *Measurement
	// CPUs is the per-CPU check (Linux): each CPU's counter against the
	// first's, the largest offset and its bound. It is nil where the check
	// was skipped: one CPU in the affinity mask, no affinity call, or a
	// refusal before it.
	CPUs *CPUCheck
}

// DisagreementPPM returns how far the checking measurement's rate lies from
// the reported one, in parts per million (positive where the measurement is
// faster); 0 where there was no check.
func (d Discovery) DisagreementPPM() float64 {
	if d.Check == nil || d.Reported == 0 {
		return 0
	}
	return (float64(d.Check.Hz) - float64(d.Reported)) / float64(d.Reported) * 1e6
}

// crossCheckWindow is the length of the measurement that checks a reported
// rate, and crossCheckTolerance how far, as a fraction, the two may differ
// before the report is distrusted. Emulators have been seen to pass on the
// host's CPUID while their counter runs hundreds of times slower.
const (
	crossCheckWindow    = time.Millisecond
	crossCheckTolerance = 0.01
	measureWindow       = 10 * time.Millisecond
)

// Discover finds the counter's rate and returns a [Counter] that converts at
// it, or refuses with an error that says why there is none. It does its work
// when called, never at start-up: call it once, at start-up, and keep the
// Counter. Where the processor reports the rate it takes about 1 ms, to
// check it, or the per-CPU tour's time where that is longer (below); where
// the rate must be measured, the measurement's 10 ms of the raw clock and
// what it takes to start, about 10.1 ms on an idle machine, longer where
// the thread is preempted as the window ends: 10 to 16 ms has been measured
// with every core busy. The README's discovery table has the figures.
//
// On amd64 it refuses a counter that CPUID does not promise invariant
// ([ErrNotInvariant]), and one that the OS makes fault ([ErrDisabled]); it
// takes the rate from CPUID leaf 0x15, else from the hypervisor's leaf
// 0x40000010, else it measures it over about 10 ms against the raw
// monotonic clock (Linux's CLOCK_MONOTONIC_RAW, macOS's CLOCK_UPTIME_RAW).
// On arm64 it takes the rate from CNTFRQ_EL0. A rate the hardware reports is
// checked by a 1 ms measurement where a raw clock exists, and measured in
// full where the two differ by more than 1%. A rate outside 1 MHz to 10 GHz
// is refused with a [*RateError]; where nothing gave a rate, the error is
// [ErrNoRate]; on other platforms, and with the purego build tag, an error
// that wraps [errors.ErrUnsupported].
//
// Where the process may run on several CPUs (Linux), Discover also pins a
// thread of its own to each in turn, while it checks or measures the rate,
// and refuses, with a [*CoresError], counters offset from one another by
// more than the measurement can explain (see [CPUCheck]). The tour takes
// about 0.1 ms on an idle machine and a few ms on a busy one, waiting for
// each CPU; beside a 10 ms measurement it adds nothing, except with
// GOMAXPROCS=1, where it runs once the measurement is done.
//
// Where Discover refuses, use [Monotonic]: a Counter too, reading the
// runtime's monotonic clock, so the code that stamps and converts does not
// change.
func Discover() (Counter, error) {
	c, _, err := DiscoverDetails()
	return c, err
}

// DiscoverDetails is [Discover], and also says how the rate was found, or how
// far discovery got before it refused.
func DiscoverDetails() (Counter, Discovery, error) {
	// Before anything reads a clock: where RDTSC faults, so may time.Now,
	// whose vDSO reads the counter too. The answer is the thread's, so
	// discovery stays on that thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if readsFault() {
		return Counter{}, Discovery{}, ErrDisabled
	}
	start := time.Now()
	d, err := discover()
	d.Took = time.Since(start)
	if err != nil {
		d.Rate = TickRate{}
		return Counter{}, d, err
	}
	c := New(d.Rate)
	if d.Measured != nil {
		c.spreadPPM = float32(d.Measured.SpreadPPM)
	}
	return c, d, nil
}

// discover refuses what the platform must (reported), then checks or
// measures the rate (settle) while the per-CPU check tours the CPUs on a
// thread of its own. The two overlap because, on a loaded machine, most of
// the tour is waiting for the scheduler to run its thread on each CPU in
// turn, a millisecond or more each; run after the measurement, that wait
// added 2 to 6 ms to a 10 ms discovery with both cores of a 2-vCPU guest
// busy. The tour's brackets need no rate; its offsets are converted once
// settle has one.
func discover() (Discovery, error) {
	return discoverWith(reported, startCPUCheck, measurer())
}

// discoverWith is discover with what it calls passed in, for tests.
func discoverWith(reported func() (uint64, Source, error), startCheck func() func(TickRate) (*CPUCheck, error), measure func(time.Duration) (Measurement, error)) (Discovery, error) {
	hz, src, err := reported()
	if err != nil {
		return Discovery{}, err
	}
	finish := startCheck()
	d, err := settle(hz, src, measure)
	if err != nil {
		return d, err // the tour ends on its own
	}
	d.CPUs, err = finish(d.Rate)
	return d, err
}

// settle finishes a discovery from the rate the hardware reported (0 for
// none) and its source: it checks a reported rate against a short
// measurement, measures where nothing was reported, and refuses a rate out of
// range. It runs after the platform has refused what it must.
//
// measure is nil where there is no raw clock to measure against.
func settle(hz uint64, src Source, measure func(time.Duration) (Measurement, error)) (Discovery, error) {
	d := Discovery{Reported: hz, Source: src}
	if hz == 0 {
		d.Source = SourceNone
	}
	if hz != 0 && measure != nil {
		check, err := measure(crossCheckWindow)
		if err != nil {
			return d, err
		}
		d.Check = &check
		if diff := float64(check.Hz) - float64(hz); diff > crossCheckTolerance*float64(hz) || -diff > crossCheckTolerance*float64(hz) {
			hz = 0 // distrust the report: measure in full
		}
	}
	if hz == 0 {
		if measure == nil {
			return d, ErrNoRate
		}
		m, err := measure(measureWindow)
		if err != nil {
			return d, err
		}
		d.Measured, d.Source, hz = &m, SourceMeasured, m.Hz
	}
	if hz < minRate || hz > maxRate {
		return d, &RateError{Hz: hz, Source: d.Source}
	}
	d.Rate, _ = NewTickRate(hz)
	return d, nil
}

// Measure measures the counter's rate over about 10 ms against the raw
// monotonic clock, without the checks [Discover] makes first: for a caller
// who vouches that the counter is invariant, and makes a [Counter] with [New]
// and the result. It refuses a rate outside 1 MHz to 10 GHz with a
// [*RateError], returns [ErrNoRate] where there is no raw clock, [ErrDisabled]
// where the counter's instruction would fault, and an error wrapping
// [ErrMeasure] where the measurement failed.
//
// The measurement, with the goroutine locked to its thread, reads the raw
// clock between two readings of the counter, back to back for the whole
// window (thousands of brackets); drops the brackets an interrupt or a
// preemption stretched; gathers the rest in 64 bins by the raw clock; and
// fits one straight line through the bins. Where the thread moves to another
// CPU (RDTSCP's TSC_AUX says so, or on Linux the getcpu system call, asked
// after each pause), the bins after the move form a segment of their own
// with its own offset, sharing the line's slope: a move costs no time and
// no data, and counters apart across CPUs cannot bias the rate. A thread
// that moves more than 15 times in the window is refused.
func Measure() (TickRate, error) {
	runtime.LockOSThread() // the answer is this thread's: measure on it
	defer runtime.UnlockOSThread()
	if readsFault() {
		return TickRate{}, ErrDisabled
	}
	detectFeatures()
	return measureRate(measurer())
}

// measureRate measures with measure, nil where there is no raw clock, and
// refuses a rate out of range.
func measureRate(measure func(time.Duration) (Measurement, error)) (TickRate, error) {
	if measure == nil {
		return TickRate{}, ErrNoRate
	}
	m, err := measure(measureWindow)
	if err != nil {
		return TickRate{}, err
	}
	if m.Hz < minRate || m.Hz > maxRate {
		return TickRate{}, &RateError{Hz: m.Hz, Source: SourceMeasured}
	}
	return NewTickRate(m.Hz)
}

// measurer returns the measurement of this machine's counter, or nil where
// there is no raw clock to measure it against.
func measurer() func(time.Duration) (Measurement, error) {
	if !haveRawClock {
		return nil
	}
	return measureCounter
}
