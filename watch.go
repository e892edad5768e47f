package counter

import (
	"bytes"
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

// A WatchState says how far a [Watch] still trusts the counter. It only
// ever worsens: a Watch does not forgive, since spans taken across a fault
// stay wrong. After adopting a new rate, start a new Watch; after switching
// to [Monotonic], stop watching: that is the kernel's clock, not the counter.
type WatchState int32

// The states of a [Watch], best first.
const (
	// Trusted: no check has failed.
	Trusted WatchState = iota
	// Degraded: the counter still counts forwards, but its rate differs
	// from the rate in use, or the kernel changed a clocksource that is
	// not the counter. Spans are off by the [Event]'s parts per million.
	Degraded
	// Untrusted: the counter jumped against the raw clock, the kernel
	// stopped using it, its rate is off by more than 0.1%, or CPUs
	// disagree. Spans across the fault are wrong by any amount.
	Untrusted
)

var stateNames = [...]string{Trusted: "trusted", Degraded: "degraded", Untrusted: "untrusted"}

// String returns "trusted", "degraded" or "untrusted".
func (s WatchState) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "state(" + strconv.Itoa(int(s)) + ")"
}

// An EventKind says which check of a [Watch] failed.
type EventKind int

// The kinds of [Event].
const (
	// EventRate: the counter's rate over a period, against the raw clock,
	// differs from the rate in use by more than the period's threshold.
	// It is raised once the next period confirms that the rate stayed
	// where it went (else the period was a jump): at the end of the second
	// whole period after the change, so within two periods and what was
	// left of the one it came in. Raised again after a period back within
	// the threshold, or for a rate that moved once more by more than it.
	// Degraded; Untrusted past 1000 ppm. Value and Threshold are in ppm.
	EventRate EventKind = iota + 1
	// EventRateSinceStart: the rate since the watch started (since the
	// last EventRate) differs from the rate in use by more than its
	// threshold, which narrows as the watch runs: the rate in use is
	// wrong by more than [WatchOptions.RateTolerancePPM]. Raised once
	// since the start, and once more after each confirmed change of rate.
	// Degraded. Value and Threshold are in ppm.
	EventRateSinceStart
	// EventJump: the counter's offset against the raw clock stepped, as
	// after a snapshot restore, a migration, or a suspend that reset the
	// counter or let it run on while the raw clock (which stops during
	// suspend) did not. Untrusted. Value and Threshold are in ns.
	EventJump
	// EventClocksource: Linux's current clocksource changed. Untrusted
	// where it left the counter ("tsc" on amd64, "arch_sys_counter" on
	// arm64: the kernel's watchdog withdrew its trust in this counter);
	// Degraded for any other change, since the raw clock the watch
	// checks against changed its source. From and To name them.
	EventClocksource
	// EventCPUOffsets: the per-CPU check, run every
	// [WatchOptions.CPUPeriod], refused. Untrusted. Value is the largest
	// offset and Threshold its bound, in ns; Err is the [*CoresError].
	EventCPUOffsets
)

var kindNames = [...]string{
	EventRate:           "rate",
	EventRateSinceStart: "rate-since-start",
	EventJump:           "jump",
	EventClocksource:    "clocksource",
	EventCPUOffsets:     "cpu-offsets",
}

// String returns the kind's name: "rate", "jump", "clocksource", and so on.
func (k EventKind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "event(" + strconv.Itoa(int(k)) + ")"
}

// An Event is a failed check of a [Watch]: what happened, when, how much,
// and the threshold it crossed.
type Event struct {
	Kind     EventKind
	Severity WatchState // Degraded or Untrusted
	At       time.Time  // when the check that found it ran

	// Value is how much, and Threshold what it crossed: in parts per
	// million for the rates, nanoseconds for jumps and offsets, 0 for
	// clocksources. A rate or jump's Value is signed: positive where the
	// counter ran fast or stepped forwards.
	Value, Threshold float64

	From, To string // the clocksources, for EventClocksource
	Err      error  // for EventCPUOffsets, and a clocksource file that could no longer be read
}

// Unit returns the unit of Value and Threshold: "ppm", "ns" or "".
func (e Event) Unit() string {
	switch e.Kind {
	case EventRate, EventRateSinceStart:
		return "ppm"
	case EventJump, EventCPUOffsets:
		return "ns"
	}
	return ""
}

// String describes the event on one line.
func (e Event) String() string {
	s := e.Kind.String() + " (" + e.Severity.String() + ")"
	switch e.Kind {
	case EventClocksource:
		s += ": " + strconv.Quote(e.From) + " → " + strconv.Quote(e.To)
	default:
		s += ": " + strconv.FormatFloat(e.Value, 'f', 3, 64) + " " + e.Unit() +
			", threshold ±" + strconv.FormatFloat(e.Threshold, 'f', 3, 64) + " " + e.Unit()
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// WatchOptions configure a [Watch]; the zero value is the defaults.
type WatchOptions struct {
	// Period is the time between checks: 1 s where 0, at least 10 ms.
	// Shorter periods see faults sooner but widen the rate threshold,
	// which is the brackets' width over the period.
	Period time.Duration

	// CPUPeriod, where not 0, runs the per-CPU check of [DiscoverDetails]
	// again this often (at least Period): about 0.3 ms for 2 CPUs, and
	// allocations that grow with the CPU count (a pinned goroutine, a mask
	// and a few slices per CPU). Linux only: elsewhere it never runs.
	CPUPeriod time.Duration

	// RateTolerancePPM is how far, in ppm, the rate in use may be from
	// the raw clock's before the watch says so: 2 where 0, which a soak
	// on a guest whose raw clock is kvm-clock supports (the README has
	// it). [NewWatch] raises it, for a Counter whose rate [Discover]
	// measured, to five times that measurement's
	// [Measurement.SpreadPPM] (at most 100 ppm), so that the discovery's
	// own error raises no event. A rate from CPUID may be off by its
	// crystal's tolerance, tens of ppm; a migration to another host moves
	// the rate by tens to hundreds of ppm. A service that knows its rate
	// is good (adopted from [Watch.Refined], say) may set it lower and see
	// smaller changes and jumps; see [Watch] for what it adds to the
	// thresholds. Negative or NaN is an error.
	RateTolerancePPM float64

	// OnEvent, where not nil, is called with each event on the watch's
	// goroutine, after [Watch.State] has taken it in. It delays the next
	// check by however long it takes (ticks that pass meanwhile are
	// dropped, as a [time.Ticker] drops them): hand slow work to another
	// goroutine.
	OnEvent func(Event)

	// Events, where not nil, receives each event without the watch ever
	// waiting: an event that finds the channel full is dropped, and
	// counted by [Watch.Dropped]. Give it a buffer.
	Events chan<- Event
}

// The watch's limits and constants.
const (
	defaultWatchPeriod = time.Second
	minWatchPeriod     = 10 * time.Millisecond
	watchBrackets      = 8    // brackets a check
	untrustedRatePPM   = 1000 // a rate this far off is a counter that is not invariant

	// defaultRateTolerancePPM is how far the rate in use may be from the
	// raw clock's by default: what the soak supports (no event in 30
	// minutes idle nor 10 under two busy loops, on a kvm-clock guest),
	// above the tail of Discover's measurements there, and below the tens
	// to hundreds of ppm by which a migration to another host changes the
	// rate. NewWatch widens it where a discovery says it is less sure.
	defaultRateTolerancePPM = 2

	// A Watch of a Counter from Discover widens its tolerance to
	// discoverySpreads times the spread of the measurement that gave the
	// rate (SpreadPPM, an estimate of one standard deviation), at most
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
//	N = h₁ + h₂ + s + tol·T
//
// where h₁ and h₂ are the two brackets' half-widths, s the counter's step
// (or the read's own cost, where larger), T the period and tol
// [WatchOptions.RateTolerancePPM]. h₁ + h₂ + s bounds the error of D
// whatever the system calls did inside the brackets: the raw clock was read
// within each bracket. tol·T is the rate in use's own error, and at the
// default tolerance it dominates N: a jump smaller than N, about tol·T plus
// the brackets' half-widths, goes unseen, and a lower tolerance sees
// smaller ones. The README has N and the deviations a soak measured.
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
// rate within two periods and what was left of the one it came in. [EventRateSinceStart] holds the
// counter's advance since the start (jumps taken out) against the same N
// over the whole time, so that a rate in use off by a little more than tol
// is seen once the brackets' share of N has shrunk below the difference.
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
// A Watch's methods are safe for concurrent use; [Watch.State] and
// [Watch.Dropped] take no lock.
type Watch struct {
	rate    TickRate
	perNs   float64 // the rate in use, in ticks a nanosecond
	tol     float64 // RateTolerancePPM as a fraction
	opts    WatchOptions
	deps    watchDeps
	running atomic.Bool
	state   atomic.Int32
	dropped atomic.Uint64

	mu  sync.Mutex // guards fit
	fit rateFit

	// What the checks carry from one to the next: only Run's goroutine
	// touches them.
	step     float64 // ns
	started  bool
	prev     bracket
	base     float64 // the counter's rate relative to the rate in use, less one, as last confirmed
	shift    float64 // ticks: the sum of the jumps found so far
	segStart bracket // the first bracket since the start or the last change of rate
	segShift float64 // shift at segStart
	pending  bool    // the last period was past its N
	pendDev  float64 // its deviation, ns
	pendT    float64 // its length, ns
	pendN    float64 // its N, ns
	pendNb   float64 // the brackets' and the step's share of it, ns
	pendB    bracket
	pendMean [2]float64
	rateOn   bool    // an EventRate was raised and no period has been back within N since
	ratePPM  float64 // the Value of the last EventRate
	sinceOn  bool    // an EventRateSinceStart was raised
	cpuOn    bool    // an EventCPUOffsets was raised
	devLo    float64 // the least and greatest deviation D/T of a period, and the least
	devHi    float64 // bracket share of its N, in ppm: for the soak test's report
	nLo      float64

	source    func([]byte) (int, error) // nil where there is no clocksource file
	closeSrc  func() error
	srcBuf    [64]byte
	srcNow    []byte // the clocksource as last read, in srcSaved
	srcSaved  [64]byte
	srcFailed bool
}

// watchDeps are what a Watch reads; NewWatch fills them with the machine's,
// tests with fakes.
type watchDeps struct {
	clocks     clockPair
	haveRaw    bool
	clocksrc   func() (read func([]byte) (int, error), close func() error, err error)
	checkCPUs  func(TickRate) (*CPUCheck, error)
	counterSrc func(string) bool
}

// NewWatch returns a Watch of c's counter at c's rate, or an error where
// c has no rate, c is a [Monotonic] Counter, an option is out of range, or
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
	if opts.RateTolerancePPM >= 0 {
		opts.RateTolerancePPM = max(cmp.Or(opts.RateTolerancePPM, defaultRateTolerancePPM), coverDiscovery(c.spreadPPM))
	}
	return newWatch(c.Rate(), opts, watchDeps{
		clocks:     machineClocks,
		haveRaw:    haveRawClock,
		clocksrc:   openClocksource,
		checkCPUs:  checkCPUs,
		counterSrc: isCounterClocksource,
	})
}

// coverDiscovery returns the rate tolerance, in ppm, that covers the error
// of a rate measured with a spread of spread ppm: discoverySpreads times it,
// and at most maxCoverPPM where the measurement could not say its spread
// (+Inf) or said more.
func coverDiscovery(spread float32) float64 {
	return min(discoverySpreads*float64(spread), maxCoverPPM)
}

func newWatch(rate TickRate, opts WatchOptions, deps watchDeps) (*Watch, error) {
	switch {
	case rate.Hertz() == 0:
		return nil, errors.New("counter: the watch needs a Counter with a rate: the zero Counter has none")
	case !deps.haveRaw:
		return nil, &wrapError{msg: "counter: " + runtime.GOOS + " has no raw monotonic clock to watch the counter against", wrapped: errors.ErrUnsupported}
	case opts.Period < 0 || opts.Period > 0 && opts.Period < minWatchPeriod:
		return nil, errors.New("counter: a watch period of " + opts.Period.String() + " is outside 10ms and up")
	case opts.CPUPeriod < 0 || opts.CPUPeriod > 0 && opts.CPUPeriod < cmp.Or(opts.Period, defaultWatchPeriod):
		return nil, errors.New("counter: a per-CPU period of " + opts.CPUPeriod.String() + " is shorter than the watch's period")
	case opts.RateTolerancePPM < 0 || math.IsNaN(opts.RateTolerancePPM) || math.IsInf(opts.RateTolerancePPM, 0):
		return nil, errors.New("counter: a rate tolerance of " + strconv.FormatFloat(opts.RateTolerancePPM, 'g', -1, 64) + " ppm is not a finite number of ppm from 0 up")
	}
	if opts.Period == 0 {
		opts.Period = defaultWatchPeriod
	}
	if opts.RateTolerancePPM == 0 {
		opts.RateTolerancePPM = defaultRateTolerancePPM
	}
	w := &Watch{rate: rate, perNs: float64(rate.Hertz()) / 1e9, tol: opts.RateTolerancePPM / 1e6, opts: opts, deps: deps,
		devLo: math.Inf(1), devHi: math.Inf(-1)}
	w.fit.reset(w.perNs)
	return w, nil
}

// State returns how far the watch still trusts the counter. It takes no
// lock, and may be called from any goroutine at any time.
func (w *Watch) State() WatchState { return WatchState(w.state.Load()) }

// Dropped returns how many events found [WatchOptions.Events] full.
func (w *Watch) Dropped() uint64 { return w.dropped.Load() }

// Refined returns the watch's best estimate of the counter's rate so far.
func (w *Watch) Refined() Refined {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fit.refined()
}

// Rate returns the rate the watch checks against: the Counter's.
func (w *Watch) Rate() TickRate { return w.rate }

// Run checks the counter once at once and then every period, until ctx is
// done; it returns nil then. It returns an error, at once, where the watch
// is already running on another goroutine. A Watch may be run again after
// Run returns; it carries its state, history and refined rate over.
func (w *Watch) Run(ctx context.Context) error {
	if !w.running.CompareAndSwap(false, true) {
		return errors.New("counter: the watch is already running")
	}
	defer w.running.Store(false)
	w.openSource()
	defer w.closeSource()
	w.step = float64(w.deps.clocks.step()) / w.perNs
	w.check()
	tick := time.NewTicker(w.opts.Period)
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
			return nil
		case <-tick.C:
			w.check()
		case <-cpuTick:
			w.checkCPUs()
		}
	}
}

// raise takes an event into the state and hands it on.
func (w *Watch) raise(e Event) {
	e.At = time.Now()
	for {
		old := w.state.Load()
		if int32(e.Severity) <= old || w.state.CompareAndSwap(old, int32(e.Severity)) {
			break
		}
	}
	if w.opts.OnEvent != nil {
		w.opts.OnEvent(e)
	}
	if w.opts.Events != nil {
		select {
		case w.opts.Events <- e:
		default:
			w.dropped.Add(1)
		}
	}
}

// check is one period's check: see [Watch] for what it holds against what.
func (w *Watch) check() {
	w.checkClocksource()
	b, meanRaw, meanMid, _ := w.deps.clocks.tightest(watchBrackets)
	if b.width < 0 {
		return // the counter went backwards in every bracket: the next check will see a jump
	}
	if !w.started {
		w.started = true
		w.prev, w.segStart = b, b
		w.addPoint(b, meanRaw, meanMid)
		return
	}
	T := float64(b.raw - w.prev.raw)
	if T <= 0 {
		return // the raw clock did not advance: nothing to hold the counter against
	}
	h := float64(b.width) / 2 / w.perNs
	N := float64(w.prev.width)/2/w.perNs + h + w.step + w.tol*T
	D := float64(b.mid.Sub(w.prev.mid))/w.perNs - T // ns the counter ran ahead of the rate in use
	dev := D - w.base*T
	off := math.Abs(dev) > N
	w.devLo, w.devHi = min(w.devLo, dev/T*1e6), max(w.devHi, dev/T*1e6)
	if n := (N - w.tol*T) / T * 1e6; w.nLo == 0 || n < w.nLo {
		w.nLo = n
	}
	switch {
	case w.pending && !off:
		// The period before was off, this one is back within N. What this
		// period's rate does not explain of the one before is a jump; the
		// rate in use's error, common to both, cancels, so only the
		// brackets bound it. A steady rate error near tol·T, which puts
		// one period just past N and the next just within it, is no jump.
		w.pending = false
		excess := w.pendDev - dev*w.pendT/T
		if slack := w.pendNb + (N-w.tol*T)*w.pendT/T; math.Abs(excess) > slack {
			w.raise(Event{Kind: EventJump, Severity: Untrusted, Value: excess, Threshold: slack})
			w.shift += excess * w.perNs
		}
		w.addPoint(w.pendB, w.pendMean[0], w.pendMean[1])
		w.addPoint(b, meanRaw, meanMid)
	case w.pending:
		// Two periods off: the rate changed, in the first or at its end.
		// What the new rate cannot explain of the first is a jump.
		w.pending = false
		w.confirmRate(D, dev, T, N)
		w.addPoint(b, meanRaw, meanMid)
	case off:
		w.pending, w.pendDev, w.pendT, w.pendN, w.pendNb = true, dev, T, N, N-w.tol*T
		w.pendB, w.pendMean = b, [2]float64{meanRaw, meanMid}
	default:
		w.addPoint(b, meanRaw, meanMid)
		if math.Abs(D) <= N {
			w.rateOn = false
		}
	}
	w.prev = b
	if !w.pending {
		w.checkSinceStart(b, h)
	}
}

// confirmRate handles a second period past its N: the rate changed.
func (w *Watch) confirmRate(D, dev, T, N float64) {
	newRate := dev / T // relative to the old baseline
	lo, hi := min(0, newRate*w.pendT), max(0, newRate*w.pendT)
	slack := w.pendN + N*w.pendT/T
	if excess := w.pendDev - max(lo, min(hi, w.pendDev)); math.Abs(excess) > slack {
		w.raise(Event{Kind: EventJump, Severity: Untrusted, Value: excess, Threshold: slack})
		w.shift += excess * w.perNs
	}
	w.base = D / T
	ppm, thr := w.base*1e6, N/T*1e6
	// Raised again for a rate that moved once more, by more than the
	// threshold from the one last reported.
	if math.Abs(ppm) > thr && (!w.rateOn || math.Abs(ppm-w.ratePPM) > thr) {
		sev := Degraded
		if math.Abs(ppm) > untrustedRatePPM {
			sev = Untrusted
		}
		w.raise(Event{Kind: EventRate, Severity: sev, Value: ppm, Threshold: thr})
		w.rateOn, w.ratePPM = true, ppm
	}
	if math.Abs(ppm) <= thr {
		w.rateOn = false
	}
	// The history before belongs to another rate: start the fit and the
	// since-start check again from here.
	w.segStart, w.segShift = w.pendB, w.shift
	w.sinceOn = false
	raw, ticks := w.point(w.pendB, w.pendMean[0], w.pendMean[1])
	w.mu.Lock() // one section, so that Refined never sees the fit empty
	w.fit.reset(w.perNs * (1 + w.base))
	w.fit.add(raw, ticks)
	w.mu.Unlock()
}

// checkSinceStart holds the rate since the segment's start against the rate
// in use.
func (w *Watch) checkSinceStart(b bracket, h float64) {
	T := float64(b.raw - w.segStart.raw)
	if T <= 0 || w.sinceOn || w.rateOn {
		return
	}
	D := (float64(b.mid.Sub(w.segStart.mid))-(w.shift-w.segShift))/w.perNs - T
	N := float64(w.segStart.width)/2/w.perNs + h + w.step + w.tol*T
	if math.Abs(D) > N {
		w.sinceOn = true
		w.raise(Event{Kind: EventRateSinceStart, Severity: Degraded, Value: D / T * 1e6, Threshold: N / T * 1e6})
	}
}

// addPoint adds a check's mean bracket to the refined fit, jumps taken out.
func (w *Watch) addPoint(b bracket, meanRaw, meanMid float64) {
	raw, ticks := w.point(b, meanRaw, meanMid)
	w.mu.Lock()
	w.fit.add(raw, ticks)
	w.mu.Unlock()
}

// point returns a check's mean bracket as a point of the refined fit: the
// raw clock, and the counter's ticks since the segment's start with the
// jumps taken out.
func (w *Watch) point(b bracket, meanRaw, meanMid float64) (raw int64, ticks float64) {
	raw = b.raw + int64(math.Round(meanRaw))
	ticks = float64(b.mid.Sub(w.segStart.mid)) + meanMid - (w.shift - w.segShift) - (meanRaw-math.Round(meanRaw))*w.perNs
	return raw, ticks
}

// checkCPUs runs the per-CPU check again.
func (w *Watch) checkCPUs() {
	check, err := w.deps.checkCPUs(w.rate)
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
	l := check.Largest()
	w.raise(Event{Kind: EventCPUOffsets, Severity: Untrusted, Value: float64(l.Offset), Threshold: float64(l.Bound), Err: err})
}

// openSource opens the clocksource file and keeps what it says at the start.
func (w *Watch) openSource() {
	read, closeSrc, err := w.deps.clocksrc()
	if err != nil {
		return // no file to watch: this check is off
	}
	n, err := read(w.srcBuf[:])
	if err != nil {
		closeSrc()
		return
	}
	w.source, w.closeSrc = read, closeSrc
	if w.srcNow != nil {
		// Run again: hold the file against what the last run saw, so that
		// a change while the watch was stopped is not missed.
		w.checkClocksource()
		return
	}
	w.srcNow = append(w.srcSaved[:0], bytes.TrimSpace(w.srcBuf[:n])...)
}

func (w *Watch) closeSource() {
	if w.closeSrc != nil {
		w.closeSrc()
	}
	w.source, w.closeSrc = nil, nil
}

// checkClocksource reads the clocksource file and raises an event where it
// changed since the last read.
func (w *Watch) checkClocksource() {
	if w.source == nil {
		return
	}
	n, err := w.source(w.srcBuf[:])
	if err != nil {
		if !w.srcFailed {
			w.srcFailed = true
			w.raise(Event{Kind: EventClocksource, Severity: Degraded, From: string(w.srcNow), Err: err})
		}
		return
	}
	w.srcFailed = false
	now := bytes.TrimSpace(w.srcBuf[:n])
	if bytes.Equal(now, w.srcNow) {
		return
	}
	from, to := string(w.srcNow), string(now)
	sev := Degraded
	if w.deps.counterSrc(from) && !w.deps.counterSrc(to) {
		sev = Untrusted
	}
	w.srcNow = append(w.srcSaved[:0], now...)
	w.raise(Event{Kind: EventClocksource, Severity: sev, From: from, To: to})
}

// isCounterClocksource reports whether Linux's clocksource of that name reads
// the counter this package reads.
func isCounterClocksource(name string) bool {
	return name == "tsc" || name == "arch_sys_counter"
}
