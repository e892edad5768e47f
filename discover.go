package counter

import (
	"runtime"
	"strconv"
	"time"
)

// Lowest and highest rates Discover accepts.
const (
	minRate = 1_000_000      // 1 MHz
	maxRate = 10_000_000_000 // 10 GHz
)

// rateError is the refusal of a rate of hz hertz, from src, outside minRate
// to maxRate. It wraps [ErrRateOutOfRange].
func rateError(hz uint64, src RateSource) error {
	return &wrapError{
		msg:     "counter: a rate of " + strconv.FormatUint(hz, 10) + " Hz (" + src.String() + ") is outside 1 MHz to 10 GHz",
		wrapped: ErrRateOutOfRange,
	}
}

// rateInRange is the rate of hz hertz, from src, or the refusal of a rate
// outside minRate to maxRate: the one range check of every rate that Discover
// and MeasureRate return.
func rateInRange(hz uint64, src RateSource) (TickRate, error) {
	if hz < minRate || hz > maxRate {
		return TickRate{}, rateError(hz, src)
	}
	return NewTickRate(hz)
}

// A RateSource says where a rate came from.
type RateSource int

// The sources of a rate.
const (
	SourceNone           RateSource = iota // no rate was found
	SourceCrystal                          // CPUID leaf 0x15: the crystal's rate times the ratio
	SourceNominalCrystal                   // CPUID leaf 0x15's ratio and the model's documented crystal
	SourceHypervisor                       // the hypervisor's CPUID leaf 0x40000010
	SourceFrequencyReg                     // arm64's CNTFRQ_EL0, as the firmware wrote it
	SourceMeasured                         // measured against the raw monotonic clock
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
func (s RateSource) String() string {
	if s >= 0 && int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "source(" + strconv.Itoa(int(s)) + ")"
}

// A Discovery says how [DiscoverDetails] found the counter's rate, for logs
// and reports, or how far it got before it refused.
type Discovery struct {
	Rate   TickRate      // the rate found; the zero TickRate when refused
	Source RateSource    // where Rate came from
	Took   time.Duration // how long discovery took, measurements included

	// Reported is the rate CPUID or CNTFRQ_EL0 gave, 0 where they gave
	// none. Where a short measurement disagreed with it by more than one
	// part in a hundred, Source is SourceMeasured and Rate is the full
	// measurement's.
	Reported uint64

	// DisagreementPPM is how far the short measurement that checked
	// Reported lies from it, in parts per million, positive where the
	// measurement is faster; 0 where there was no check.
	DisagreementPPM float64

	// SpreadPPM and Window describe the last measurement made: the full
	// one where Source is SourceMeasured, else the short one that checked
	// Reported; both are 0 where none was made. Window is the raw clock's
	// time from the first bracket kept to the last. SpreadPPM is how far,
	// in parts per million, a measurement made again the same way
	// typically lands from the true rate: an estimate of its standard
	// deviation, not a bound, and +Inf where the measurement kept too
	// little of its window to say.
	SpreadPPM float64
	Window    time.Duration

	// CPUs is the per-CPU check (Linux): each CPU's counter against the
	// first's, in the order visited, with the bound the measurement can
	// explain (see [CPUOffset]). It is nil where the check was skipped (one
	// CPU in the affinity mask, no affinity call, or a refusal before it)
	// and where fewer than two CPUs could be checked.
	CPUs []CPUOffset
	// Unchecked are the CPUs of the mask that the per-CPU check could not
	// check: the thread could not be pinned to them (gone offline, or out
	// of the process's cpuset since), or could not be pinned back to the
	// first CPU, or the check ended because a thread's mask could not be
	// restored. Where fewer than two CPUs were checked, CPUs is nil and
	// Unchecked holds every CPU of the mask.
	Unchecked []int
}

// noteMeasurement records m, the last measurement made, in d.
func (d *Discovery) noteMeasurement(m measurement) {
	d.SpreadPPM, d.Window = m.SpreadPPM, m.Window
}

// noteCheck records the per-CPU check, nil where it was skipped, in d.
func (d *Discovery) noteCheck(c *cpuCheckResult) {
	if c != nil {
		d.CPUs, d.Unchecked = c.CPUs, c.Unchecked
	}
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
// when called, never at init: call it once, at start-up, and keep the
// Counter. Where the processor reports the rate it takes a short check
// measurement, or the per-CPU tour's time where that is longer (below);
// where the rate must be measured, a full measurement's window of the raw
// clock and what it takes to start, longer where the thread is preempted as
// the window ends.
//
// On amd64 it refuses a counter that CPUID does not promise invariant
// ([ErrNotInvariant]), and one that the OS makes fault ([ErrDisabled]); it
// takes the rate from CPUID leaf 0x15, else from the hypervisor's leaf
// 0x40000010, else it measures it as [MeasureRate] does against the raw
// monotonic clock (Linux's CLOCK_MONOTONIC_RAW, macOS's CLOCK_UPTIME_RAW).
// On arm64 it takes the rate from CNTFRQ_EL0. A rate the hardware reports is
// checked by a measurement a tenth as long where a raw clock exists, and
// measured in full where the two differ by more than one part in a hundred.
// A rate outside 1 MHz to 10 GHz is refused with an error wrapping
// [ErrRateOutOfRange]; where nothing gave a rate, the error is [ErrNoRate];
// on other platforms, and with the purego build tag, an error that wraps
// [errors.ErrUnsupported].
//
// Where the process may run on several CPUs (Linux), Discover also pins a
// thread of its own to each in turn, while it checks or measures the rate,
// and refuses, with an error wrapping [ErrCPUsDisagree], counters offset
// from one another by more than the measurement can explain (see
// [CPUOffset]). The tour's time is mostly waiting for the scheduler to run
// its thread on each CPU; it overlaps the measurement, except with
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
// far discovery got before it refused. A [Watch] of the Counter covers a
// measured rate's error where it is given the Discovery too
// ([WatchOptions.Discovery]).
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
		return Counter{}, d, err
	}
	return New(d.Rate), d, nil
}

// discover refuses what the platform must (reported), then checks or
// measures the rate (findRate) while the per-CPU check tours the CPUs on a
// thread of its own. The two overlap because, on a loaded machine, most of
// the tour is waiting for the scheduler to run its thread on each CPU in
// turn; run after the measurement, that wait lengthened a discovery on a
// busy guest by a large part of the measurement's window. The tour's
// brackets need no rate; its offsets are converted once findRate has one.
func discover() (Discovery, error) {
	return discoverWith(reported, machineCPUs.start, measurer())
}

// discoverWith is discover with what it calls passed in, for tests.
func discoverWith(reported func() (uint64, RateSource, error), startCheck func() cpuCheckRun, measure func(time.Duration) (measurement, error)) (Discovery, error) {
	hz, src, err := reported()
	if err != nil {
		return Discovery{}, err
	}
	run := startCheck()
	d, err := findRate(hz, src, measure)
	if err != nil {
		return d, err // the tour ends on its own
	}
	check, err := run.result(d.Rate)
	d.noteCheck(check)
	if err != nil {
		d.Rate = TickRate{} // a refusal gives no rate, however far it got
	}
	return d, err
}

// findRate finishes a discovery from the rate the hardware reported (0 for
// none) and its source: it checks a reported rate against a short
// measurement, measures where nothing was reported, and refuses a rate out of
// range. It runs after the platform has refused what it must.
//
// measure is nil where there is no raw clock to measure against.
func findRate(hz uint64, src RateSource, measure func(time.Duration) (measurement, error)) (Discovery, error) {
	d := Discovery{Reported: hz, Source: src}
	if hz == 0 {
		d.Source = SourceNone
	}
	if hz != 0 && measure != nil {
		check, err := measure(crossCheckWindow)
		if err != nil {
			return d, err
		}
		d.noteMeasurement(check)
		d.DisagreementPPM = (float64(check.Hz) - float64(hz)) / float64(hz) * 1e6
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
		d.noteMeasurement(m)
		d.Source, hz = SourceMeasured, m.Hz
	}
	rate, err := rateInRange(hz, d.Source)
	d.Rate = rate
	return d, err
}

// MeasureRate measures the counter's rate over a window of the raw
// monotonic clock (ten milliseconds, extended where the thread was kept off
// its CPU), without the checks [Discover] makes first: for a caller who
// vouches that the counter is invariant, and makes a [Counter] with [New]
// and the result. It refuses a rate outside 1 MHz to 10 GHz with an error
// wrapping [ErrRateOutOfRange], returns [ErrNoRate] where there is no raw
// clock, [ErrDisabled] where the counter's instruction would fault, and an
// error wrapping [ErrMeasure] where the measurement failed.
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
func MeasureRate() (TickRate, error) {
	runtime.LockOSThread() // the answer is this thread's: measure on it
	defer runtime.UnlockOSThread()
	if readsFault() {
		return TickRate{}, ErrDisabled
	}
	detectFeatures()
	return measureRateWith(measurer())
}

// measureRateWith measures with measure, nil where there is no raw clock,
// and refuses a rate out of range.
func measureRateWith(measure func(time.Duration) (measurement, error)) (TickRate, error) {
	if measure == nil {
		return TickRate{}, ErrNoRate
	}
	m, err := measure(measureWindow)
	if err != nil {
		return TickRate{}, err
	}
	return rateInRange(m.Hz, SourceMeasured)
}

// measurer returns the measurement of this machine's counter, or nil where
// there is no raw clock to measure it against.
func measurer() func(time.Duration) (measurement, error) {
	if !measureRawClock {
		return nil
	}
	return measureCounter
}
