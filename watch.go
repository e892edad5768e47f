package counter

import (
	"cmp"
	"context"
	"errors"
	"math"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// WatchOptions configure a [Watch]; the zero value is the defaults.
type WatchOptions struct {
	// CPUPeriod, where not 0, runs the per-CPU check of [DiscoverDetails]
	// again this often; it must be at least the period [Watch.Run] is
	// given. Each run migrates a goroutine to every CPU and allocates in
	// proportion to the CPU count (a pinned goroutine, a mask and a few
	// slices per CPU). Linux only: elsewhere it never runs.
	CPUPeriod time.Duration

	// RateTolerancePPM is how far, in ppm, the rate in use may be from
	// the raw clock's before the watch says so: 2 where 0, raised to
	// cover a measured rate's error where Discovery says so (below). A
	// rate from CPUID may be off by its crystal's tolerance, and a
	// migration to another host may move the rate. A service that knows
	// its rate is good (adopted from [Watch.Refined], say) may set it
	// lower and see smaller changes and jumps; see [Watch] for what it
	// adds to the thresholds. Negative, infinite or NaN is an error.
	RateTolerancePPM float64

	// Discovery, where not nil, is how [DiscoverDetails] found the
	// Counter's rate; its Rate must be the Counter's. Where it measured
	// the rate ([SourceMeasured]), [NewWatch] raises RateTolerancePPM to
	// five times that measurement's SpreadPPM (at most 100 ppm), so that
	// the discovery's own error raises no event. A Counter from [Discover]
	// or [New] is watched at RateTolerancePPM alone.
	Discovery *Discovery

	// OnEvent, where not nil, is called with each event, on the goroutine
	// of [Watch.Run], after [Watch.State] has taken it in. It is how a
	// Watch delivers events. The next check waits for it to return: a
	// slow callback delays that check (ticks that pass meanwhile are
	// dropped, as a [time.Ticker] drops them), and one that blocks stops
	// the watch: Run returns only after it does. To hand events to
	// another goroutine without ever blocking, send on a buffered channel
	// in a select with a default case, which drops an event that finds
	// the channel full; [Watch.State] still holds the worst severity of
	// every event.
	OnEvent func(Event)
}

// The watch's limits and constants.
const (
	minWatchPeriod = 10 * time.Millisecond
	watchBrackets  = 8 // brackets a check

	// defaultRateTolerancePPM is how far the rate in use may be from the
	// raw clock's by default: what soaks of the watch on loaded guests
	// support without an event, above the tail of Discover's measurements
	// there, and below the change of rate a migration to another host
	// brings. NewWatch widens it where a discovery says it is less sure.
	defaultRateTolerancePPM = 2

	// A Watch given the Discovery that measured its rate widens its
	// tolerance to discoverySpreads times the spread of that measurement
	// (SpreadPPM, an estimate of one standard deviation), at most
	// maxCoverPPM, so that the discovery's own error raises no event.
	discoverySpreads = 5
	maxCoverPPM      = 100
)

// A Watch keeps checking, while a service runs, that the counter still
// deserves the trust [Discover] gave it, and keeps refining its rate.
//
// Each period [Watch.Run] takes the tightest of 8 brackets (a raw-clock
// reading between two ordered counter readings: on Linux on amd64 a call
// into the vDSO, elsewhere a system call) and reads Linux's clocksource
// file (a system call), allocating nothing. It compares the counter's
// advance over the period with what the rate in use predicts from the raw
// clock's advance. The deviation D (ns) is held against
//
//	N = h₁ + h₂ + s + r + tol·T
//
// where h₁ and h₂ are the two brackets' half-widths, s the counter's step
// (or the read's own cost, where larger), r a nanosecond (the raw clock
// reads whole nanoseconds), T the period and tol
// [WatchOptions.RateTolerancePPM]. h₁ + h₂ + s + r bounds the error of D
// whatever the system calls did inside the brackets: the raw clock was read
// within each bracket. tol·T is the rate in use's own error, and at the
// default tolerance it dominates N: a jump smaller than N, about tol·T plus
// the brackets' half-widths, goes unseen, and a lower tolerance sees
// smaller ones.
//
// A period past N is confirmed by the next. Where the next is back within
// its N (against the rate the counter had), the first held a jump: what the
// next period's rate does not explain of it, held against the two periods'
// bracket terms alone (the rate in use's error cancels between them), so
// that a steady rate error near tol·T is no jump: [EventJump]. Where the
// next is past it too, the rate changed: [EventRate] with the next period's
// deviation D/T in ppm against N/T. A jump that comes with a change of rate
// is reported as both. Either way a fault is reported at the end of the
// second whole period it affects: a jump within two periods, a change of
// rate within two periods and what was left of the one it came in.
// [EventRateSinceStart] holds the counter's advance since the start (jumps
// taken out) against the same N over the whole time, so that a rate in use
// off by a little more than tol is seen once the brackets' share of N has
// shrunk below the difference.
//
// The watch also keeps the refined rate ([Watch.Refined]): a least-squares
// line through every check's mean bracket since the start (since the last
// change of rate), kept as running sums, with jumps taken out. A service
// adopts it by making a new [Counter] with [New] and the refined rate, and
// converting with that Counter from then on; readings and spans stored
// earlier are ticks of the same counter and convert at the refined rate
// better than at the old one. Durations converted earlier keep the old
// rate's error. Only where the rate itself changed ([EventRate]) do spans
// taken before the change belong to the old rate.
//
// A Watch's methods are safe for concurrent use; [Watch.State] takes no
// lock. The zero Watch is not usable: make one with NewWatch.
type Watch struct {
	rate    TickRate
	opts    WatchOptions
	deps    watchDeps
	running atomic.Bool
	state   atomic.Int32

	mu  sync.Mutex // guards det: Refined reads its fit while Run feeds it
	det detector

	// Only Run's goroutine touches these.
	src   clocksourceReader
	cpuOn bool // an EventCPUOffsets was raised and no per-CPU check has passed since
}

// watchDeps are what a Watch reads; NewWatch fills them with the machine's,
// tests with fakes.
type watchDeps struct {
	clocks     clockPair
	haveRaw    bool
	clocksrc   func() (clocksourceFile, error)
	cpuCheck   func(TickRate) (*cpuCheckResult, error)
	counterSrc func(string) bool
}

// NewWatch returns a Watch of c's counter at c's rate, or an error where
// c has no rate, c is a [Monotonic] Counter, an option is out of range or
// [WatchOptions.Discovery] found another rate, or
// this system has no raw monotonic clock to check the counter against
// (every one but Linux and macOS; the error wraps [errors.ErrUnsupported]).
// A Monotonic Counter reads the kernel's clock, which the kernel keeps and
// slews on purpose: there is no counter of this package's to watch, and a
// service that has switched to it stops its watch. The Watch does nothing
// until [Watch.Run].
func NewWatch(c Counter, opts WatchOptions) (*Watch, error) {
	if c.mono {
		return nil, errors.New("counter: a Monotonic Counter reads the kernel's own clock, which the kernel keeps: there is no counter to watch")
	}
	if d := opts.Discovery; d != nil && d.Rate.Hertz() != c.Rate().Hertz() {
		return nil, errors.New("counter: the watch's Discovery found a rate of " + d.Rate.String() + ", not the Counter's " + c.Rate().String())
	}
	if opts.RateTolerancePPM >= 0 {
		opts.RateTolerancePPM = max(cmp.Or(opts.RateTolerancePPM, defaultRateTolerancePPM), coverDiscovery(opts.Discovery))
	}
	return newWatch(c.Rate(), opts, watchDeps{
		clocks:     machineClocks,
		haveRaw:    measureRawClock,
		clocksrc:   openClocksource,
		cpuCheck:   machineCPUs.check,
		counterSrc: isCounterClocksource,
	})
}

// coverDiscovery returns the rate tolerance, in ppm, that covers the error
// of the rate d found: where d measured it, discoverySpreads times the
// measurement's spread, and at most maxCoverPPM where the measurement could
// not say its spread (+Inf) or said more; 0 where d is nil or the rate was
// reported.
func coverDiscovery(d *Discovery) float64 {
	if d == nil || d.Source != SourceMeasured {
		return 0
	}
	return min(discoverySpreads*d.SpreadPPM, maxCoverPPM)
}

func newWatch(rate TickRate, opts WatchOptions, deps watchDeps) (*Watch, error) {
	switch {
	case rate.Hertz() == 0:
		return nil, errors.New("counter: the watch needs a Counter with a rate: the zero Counter has none")
	case !deps.haveRaw:
		return nil, &wrapError{msg: "counter: " + runtime.GOOS + " has no raw monotonic clock to watch the counter against", wrapped: errors.ErrUnsupported}
	case opts.CPUPeriod < 0:
		return nil, errors.New("counter: a per-CPU period of " + opts.CPUPeriod.String() + " is negative")
	case opts.RateTolerancePPM < 0 || math.IsNaN(opts.RateTolerancePPM) || math.IsInf(opts.RateTolerancePPM, 0):
		return nil, errors.New("counter: a rate tolerance of " + strconv.FormatFloat(opts.RateTolerancePPM, 'g', -1, 64) + " ppm is not a finite number of ppm from 0 up")
	}
	if opts.RateTolerancePPM == 0 {
		opts.RateTolerancePPM = defaultRateTolerancePPM
	}
	return &Watch{
		rate: rate, opts: opts, deps: deps,
		det: newDetector(rate.Hertz(), opts.RateTolerancePPM),
		src: clocksourceReader{open: deps.clocksrc, isCounter: deps.counterSrc},
	}, nil
}

// State returns how far the watch still trusts the counter. It takes no
// lock, and may be called from any goroutine at any time.
func (w *Watch) State() WatchState {
	w.mustBeUsable("State")
	return WatchState(w.state.Load())
}

// Refined returns the watch's best estimate of the counter's rate against
// the raw monotonic clock, rounded to the nearest hertz, and its standard
// error in parts per million: a least-squares fit through every check since
// the watch started (since the last change of rate it confirmed, where it
// confirmed one), from how the checks scatter about the fitted line. It
// returns the zero [TickRate] and 0 before the fit has two checks, and
// where the fitted counter does not run forwards; and an uncertainty of
// +Inf while it has only two. A service adopts the rate with [New].
func (w *Watch) Refined() (rate TickRate, uncertaintyPPM float64) {
	w.mustBeUsable("Refined")
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.det.refined()
}

// Run checks the counter at once and then every period, until ctx is done,
// and returns ctx.Err() then. It returns an error at once, without
// checking, where period is shorter than 10 ms, where
// [WatchOptions.CPUPeriod] is not 0 and shorter than period, where ctx is
// already done (ctx.Err()), or where the watch is already running on
// another goroutine. A Watch may be run again after Run returns, at any
// period; it carries its state, history and refined rate over.
func (w *Watch) Run(ctx context.Context, period time.Duration) error {
	switch why := w.unusable("Run"); {
	case why != "":
		return errors.New(why)
	case ctx == nil:
		return errors.New("counter: Watch.Run: a nil ctx; pass the context whose end stops the watch")
	case period < minWatchPeriod:
		return errors.New("counter: a watch cannot check every " + period.String() + ": the period must be at least " + minWatchPeriod.String())
	case w.opts.CPUPeriod != 0 && w.opts.CPUPeriod < period:
		return errors.New("counter: a per-CPU period of " + w.opts.CPUPeriod.String() + " is shorter than the watch's period of " + period.String())
	case ctx.Err() != nil:
		return ctx.Err()
	case !w.running.CompareAndSwap(false, true):
		return errors.New("counter: the watch is already running")
	}
	defer w.running.Store(false)
	if e, ok := w.src.start(); ok {
		w.raise(e, time.Now())
	}
	defer w.src.stop()
	w.mu.Lock()
	w.det.setStep(w.deps.clocks.step())
	w.mu.Unlock()
	w.check()
	tick := time.NewTicker(period)
	defer tick.Stop()
	var cpuTick <-chan time.Time
	if w.opts.CPUPeriod > 0 {
		t := time.NewTicker(w.opts.CPUPeriod)
		defer t.Stop()
		cpuTick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			w.check()
		case <-cpuTick:
			w.recheckCPUs()
		}
	}
}

// mustBeUsable panics, naming the method call, where w is nil or the zero
// Watch.
func (w *Watch) mustBeUsable(call string) {
	if why := w.unusable(call); why != "" {
		panic(why)
	}
}

// unusable returns why the method call cannot use w, "" where it can: w is
// nil, or the zero Watch, which has no rate (NewWatch refuses one without).
func (w *Watch) unusable(call string) string {
	switch {
	case w == nil:
		return "counter: Watch." + call + ": a nil *Watch; make one with NewWatch"
	case w.rate.Hertz() == 0:
		return "counter: Watch." + call + ": the zero Watch watches no counter; make one with NewWatch"
	}
	return ""
}

// check is one period's check: the clocksource file, then the brackets,
// judged by the detector. See [Watch] for what it holds against what.
func (w *Watch) check() {
	at := time.Now()
	if e, ok := w.src.check(); ok {
		w.raise(e, at)
	}
	b, meanRaw, meanMid, _ := w.deps.clocks.tightest(watchBrackets)
	w.mu.Lock()
	v := w.det.observe(b, meanRaw, meanMid)
	w.mu.Unlock()
	for i := range v.n {
		w.raise(v.events[i], at)
	}
}

// raise takes an event into the state and hands it to OnEvent, with at,
// when the check that found it began.
func (w *Watch) raise(e Event, at time.Time) {
	e.At = at
	for {
		old := w.state.Load()
		if int32(e.Severity) <= old || w.state.CompareAndSwap(old, int32(e.Severity)) {
			break
		}
	}
	if w.opts.OnEvent != nil {
		w.opts.OnEvent(e)
	}
}

// recheckCPUs runs the per-CPU check again.
func (w *Watch) recheckCPUs() {
	at := time.Now()
	check, err := w.deps.cpuCheck(w.rate)
	if err == nil {
		w.cpuOn = false
		return
	}
	if errors.Is(err, ErrDisabled) {
		// The check's thread has the counter's instruction fault: it read
		// nothing, so it says nothing of the CPUs' counters.
		return
	}
	if w.cpuOn {
		return
	}
	w.cpuOn = true
	l := check.largest()
	w.raise(Event{Kind: EventCPUOffsets, Severity: Untrusted, Value: float64(l.Offset), Threshold: float64(l.Bound), Err: err}, at)
}
