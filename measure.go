package counter

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"
)

// A measurement is the counter's rate measured against the raw monotonic
// clock over a window, with what the measurement can vouch for.
type measurement struct {
	Hz     uint64        // the rate, in hertz, rounded to the nearest
	Window time.Duration // the raw clock's time from the first bracket kept to the last
	Ticks  Tickdelta     // the counter's ticks over the same time, at the rate measured

	// Brackets is how many times the raw clock was read between two
	// readings of the counter, back to back over the whole window; Kept is
	// how many of them the rate was fitted to, those left out having been
	// stretched by an interrupt or a preemption, or fallen in a stretch of
	// the window that strayed from the line through the others.
	Brackets, Kept int

	// SpreadPPM is how far, in parts per million, a measurement made again
	// the same way typically lands from the true rate: an estimate of its
	// standard deviation. It is the jackknife's standard error over
	// spreadBlocks blocks of the window, times spreadFactor: the errors of
	// neighbouring stretches are shared (the raw clock's offset against the
	// counter wanders over milliseconds on a VM), so the scatter of the bins
	// about the line understates repeats, and even the blocks understate
	// them; the factor is what repeat measurements against a long reference
	// needed (see TestDiscoveryReport). Under heavy load the tail is longer
	// still: it is an estimate, not a bound. It is +Inf where the kept bins
	// fill fewer than two of the blocks, too few to say how far a repeat
	// lands.
	SpreadPPM float64

	// Starved is how many windows were measured again because the thread
	// ran in too few of their stretches, or not in their second half, even
	// with the window extended by up to its own length: a machine so busy
	// that the scheduler left it off its CPU for most of that time, or a
	// process stopped (SIGSTOP, a debugger, a paused VM) while it measured.
	// A shorter absence extends the window by the few stretches the fit
	// needs instead, and Window says how long it became.
	Starved int

	// Segments is how many stretches of the window the rate was fitted to,
	// each read on one CPU: 1 where the thread stayed where it started. A
	// thread that moves to another CPU does not spoil the window: the
	// stretches share one slope and each has its own offset, so the
	// counters of two CPUs may even be apart.
	Segments int
}

// How a measurement is made: the bins its brackets are gathered in, the
// least of them a window must fill and how many windows it tries for that,
// the stretches on different CPUs it accepts before it gives up on a thread
// that keeps moving, the blocks its spread is estimated from, and how long
// it waits for a raw clock that does not advance.
const (
	measureBins      = 64
	minFilledBins    = measureBins / 4
	measureWindows   = 3
	maxSegments      = 16
	spreadBlocks     = 8
	spreadFactor     = 2.5
	stalledClockWait = time.Second
	stallEvery       = 16     // brackets between two looks at the time for a stalled raw clock
	extendStretches  = 4      // stretches past a starved or cut window's end a fit needs
	minPauseNs       = 10_000 // the raw clock's least advance from one bracket to the next that may hide a pause
)

// measureCounter measures this machine's counter over window.
//
// The brackets read through readCPU, for the CPU where the instruction gives
// it, and because a bracket needs reads the raw clock's read cannot pass: the
// first counter read must not wait until after the raw clock is read, nor
// the second be taken before it was. RDTSCP waits for every earlier
// instruction, which keeps the second read after the system call; the first
// read can only be late by the few cycles an out-of-order core holds it,
// the same in every bracket, so it shifts every midpoint alike and leaves the
// slope alone. Where readCPU does not use RDTSCP (a CPU without it, or a
// system other than Linux, which does not put the CPU in TSC_AUX), it is
// LFENCE; RDTSC, which waits for the system call to return just as well.
func measureCounter(window time.Duration) (measurement, error) {
	return clockPair{counter: readCPU, raw: bracketNanos, cpu: osCPU, stallWait: stalledClockWait}.measure(window)
}

// A bin gathers the kept brackets of one stretch of the window read on one
// CPU: their count, the first one's raw reading and midpoint, and the sums
// of the others' from it, in nanoseconds and ticks.
type bin struct {
	seg    int // which segment, counted from 0
	slot   int // which of the window's measureBins stretches
	n      int
	x0     int64
	y0     Tickstamp
	sx, sy float64
}

// meanX and meanY return the bin's mean point, the raw clock from base and
// the counter from baseTicks.
func (b *bin) meanX(base int64) float64 { return float64(b.x0-base) + b.sx/float64(b.n) }
func (b *bin) meanY(base Tickstamp) float64 {
	return float64(b.y0.Sub(base)) + b.sy/float64(b.n)
}

// A gathering is a window being measured: its brackets, gathered into bins
// by where in the window they fell and on which CPU.
type gathering struct {
	p        clockPair
	m        measurement
	window   int64       // ns of the raw clock
	raw0     int64       // the raw clock at the first bracket
	base     Tickstamp   // the counter at the first bracket
	giveUp   int64       // the runtime's clock when a raw clock that has not advanced is declared stalled
	tightest recentLeast // the narrowest of the recent brackets
	tightGap Tickdelta   // the shortest gap yet from a bracket to the next
	asked    Tickdelta   // the narrowest bracket yet of a question to the OS of where the thread runs
	firstRaw int64       // the raw clock at the first bracket kept
	lastRaw  int64       // the raw clock at the last bracket kept
	last     Tickstamp   // the counter's latest reading
	cpu      int         // the current segment's CPU, -1 where unknown
	bins     []bin
}

// measure measures the counter's rate over window of the raw clock, on one
// locked thread. It reads the raw clock between two readings of the
// counter, back to back for the whole window; keeps the brackets no
// interrupt or preemption stretched; gathers them in 64 bins by the raw
// clock, and in a new segment wherever the thread moved to another CPU; and
// fits one straight line through the bins' mean points, each segment with
// its own offset.
//
// Why not a bracket at each end, as calibrations usually do: a bracket places
// the raw clock's reading on the counter's scale only to within how the
// system call that reads it happened to run, and the counter's own steps
// (AMD's counters advance by tens of ticks at a time): tens of nanoseconds,
// which over the window is parts per million. Thousands of brackets spread
// over the window average much of that away.
func (p clockPair) measure(window time.Duration) (measurement, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	starved := 0
	for {
		g := gathering{p: p, window: int64(window), asked: math.MaxInt64, bins: make([]bin, 0, measureBins+maxSegments)}
		g.m.Starved = starved
		if err := g.gather(); err != nil {
			return g.m, err
		}
		// A thread the scheduler kept off its CPU for most of the window,
		// or stopped before its second half, leaves a few stretches or a
		// short stretch to fit a line through: measure again, a few
		// windows at most, before fitting what there is.
		if (g.filled() >= minFilledBins && !g.cut()) || starved+1 >= measureWindows {
			return g.fit()
		}
		starved++
	}
}

// now returns the clock that times the wait for a stalled raw clock.
func (g *gathering) now() int64 {
	if g.p.now != nil {
		return g.p.now()
	}
	return nanotime()
}

// cut reports whether the window's brackets stopped short of its second
// half: the thread did not run there, as where the process was stopped
// (SIGSTOP, a debugger, a paused VM) and woke with the raw clock past the
// window's end. A preemption of a scheduler's tick or two near the end
// leaves enough of the window to fit, and is not worth another window.
func (g *gathering) cut() bool {
	return g.m.Kept == 0 || 2*(g.lastRaw-g.raw0) < g.window
}

// extend reports whether to go on gathering brackets at x ns of the raw
// clock past the window's start, the window being over: where the thread
// ran in too few of the window's stretches, or stopped before its second
// half (a preemption of a few scheduler ticks, on a busy machine), brackets
// taken just after the window fit the line as well as another window's
// would, and sooner. It goes on until extendStretches stretches past the
// window hold a kept bracket and the window is no longer starved or cut,
// or until a second window's time has passed (a longer stop, whose window
// is measured again).
func (g *gathering) extend(x int64) bool {
	if x >= 2*g.window {
		return false
	}
	if g.filled() < minFilledBins || g.cut() {
		return true
	}
	past := 0
	for _, b := range g.bins {
		if b.slot >= measureBins {
			past++
		}
	}
	return past > 0 && past < extendStretches
}

// filled returns how many of the window's stretches hold a kept bracket,
// on whichever CPU.
func (g *gathering) filled() int {
	var seen [2 * measureBins]bool
	n := 0
	for _, b := range g.bins {
		if !seen[b.slot] {
			seen[b.slot] = true
			n++
		}
	}
	return n
}

// gather takes brackets until the raw clock has advanced by the window.
func (g *gathering) gather() error {
	var b bracket
	g.p.take(&b)
	g.m.Brackets++
	g.raw0, g.base, g.last = b.raw, b.mid, b.end()
	g.tightest.start(b.width)
	g.tightGap = maxTickdelta
	g.giveUp = g.now() + g.window + int64(g.p.stallWait)
	g.cpu = b.cpu
	if g.cpu < 0 {
		g.cpu, g.last, g.asked = g.p.whereNow(g.last, g.asked)
	}
	rawFrom := b.raw
	for {
		gapFrom := g.last
		// Only a raw reading taken after the deadline has passed can show
		// that the raw clock has not advanced: a process stopped for
		// seconds (SIGSTOP, a debugger, a paused VM) wakes past the
		// deadline with a raw clock that has advanced all the same. The
		// clock is asked every few brackets, to keep the gaps between
		// brackets short.
		late := g.m.Brackets%stallEvery == 0 && g.now() > g.giveUp
		g.p.take(&b)
		g.m.Brackets++
		g.last = b.end()
		if x := b.raw - g.raw0; x >= g.window && !g.extend(x) {
			return nil
		}
		if late {
			return fmt.Errorf("%w: the raw clock did not advance %v in %v", ErrMeasure, time.Duration(g.window), time.Duration(g.window)+g.p.stallWait)
		}
		g.tightest.add(b.width)
		gap := b.mid.Sub(gapFrom) - b.width/2
		if gap >= 0 {
			g.tightGap = min(g.tightGap, gap)
		}
		stretched := !accepted(b.width, g.tightest.least())
		// Nothing that moves a thread fits in minPauseNs of the raw
		// clock: a gap that short is the loop's own jitter (longer with the
		// race detector), however it compares with the least.
		paused := !accepted(gap, g.tightGap) && b.raw-rawFrom > minPauseNs
		moved := b.cpu >= 0 && b.cpu != g.cpu
		rawFrom = b.raw
		if stretched || paused || moved {
			// The thread may have left its CPU: find out where it is
			// before trusting another bracket, and drop this one.
			if err := g.relocate(b.cpu); err != nil {
				return err
			}
			continue
		}
		g.add(&b)
	}
}

// leastSpan is how many brackets a span of a recentLeast holds.
const leastSpan = 256

// A recentLeast is the narrowest of the recent brackets' widths, those of
// the span of leastSpan brackets under way and of the span before it: what
// a measurement holds each bracket against, to drop those an interrupt or
// a preemption stretched. The narrowest of the whole window would not do:
// where the thread slows for long, as it does while a busy sibling shares
// its core (SMT, or a host that shares one core between two virtual CPUs),
// every bracket is wider than the ones before, by more than accepted
// allows, and all would be dropped; and one bracket narrow by chance would
// hold every later one to its width. The recent narrowest follows such a
// change within two spans.
type recentLeast struct {
	prev, cur Tickdelta // the narrowest of the span before and of this one
	n         int       // brackets in this span
}

// start starts with the first bracket's width, w.
func (r *recentLeast) start(w Tickdelta) {
	r.prev, r.cur, r.n = maxTickdelta, maxTickdelta, 0
	r.add(w)
}

// add counts a bracket of width w; one whose counter ran back, w < 0,
// counts as no width at all.
func (r *recentLeast) add(w Tickdelta) {
	if w >= 0 {
		r.cur = min(r.cur, w)
	}
	if r.n++; r.n == leastSpan {
		r.prev, r.cur, r.n = r.cur, maxTickdelta, 0
	}
}

// least returns the narrowest recent width; maxTickdelta before any.
func (r *recentLeast) least() Tickdelta { return min(r.prev, r.cur) }

// whereNow returns the CPU the thread runs on as the OS sees it, or -1
// where the OS cannot say or the thread moved while it asked. It brackets
// the question between two counter reads, as take brackets the raw clock,
// so that a thread moved after the OS answered shows as a wide bracket, held
// against asked, the narrowest such bracket before. It returns last, the
// counter's latest reading, and asked, each as given where it did not ask.
func (p clockPair) whereNow(last Tickstamp, asked Tickdelta) (int, Tickstamp, Tickdelta) {
	if p.cpu == nil {
		return -1, last, asked
	}
	for range 3 {
		t0, _ := p.counter()
		cpu := p.cpu()
		t1, _ := p.counter()
		last = t1
		w := t1.Sub(t0)
		if w < 0 {
			continue
		}
		asked = min(asked, w)
		if cpu >= 0 && accepted(w, asked) {
			return cpu, last, asked
		}
	}
	return -1, last, asked
}

// relocate starts a new segment where the thread is known to have moved to
// another CPU: cpu is what the counter's instruction said, -1 where it said
// nothing, and then the OS is asked. Where nothing can say (macOS; a seccomp
// filter refusing getcpu), the segment goes on: the CPUs are trusted to share
// one counter, as Apple silicon's system counter is and Intel Macs' TSCs
// are kept. Starting a segment at every pause instead would cut the window
// at every interrupt.
func (g *gathering) relocate(cpu int) error {
	if cpu < 0 {
		cpu, g.last, g.asked = g.p.whereNow(g.last, g.asked)
	}
	if cpu < 0 || cpu == g.cpu {
		return nil
	}
	moved := g.cpu >= 0
	g.cpu = cpu
	if n := len(g.bins); moved && n > 0 && g.bins[n-1].seg == g.m.Segments {
		g.m.Segments++
		if g.m.Segments >= maxSegments {
			return fmt.Errorf("%w: the thread moved between CPUs more than %d times in %v; pin it and try again", ErrMeasure, maxSegments-1, time.Duration(g.window))
		}
	}
	return nil
}

// add adds a kept bracket to its bin.
func (g *gathering) add(b *bracket) {
	x := b.raw - g.raw0
	slot := int(x * measureBins / g.window)
	if x < 0 || slot >= 2*measureBins {
		return // a raw clock that went back, or past the window
	}
	n := len(g.bins)
	if n == 0 || g.bins[n-1].seg != g.m.Segments || g.bins[n-1].slot != slot {
		g.bins = append(g.bins, bin{seg: g.m.Segments, slot: slot, x0: b.raw, y0: b.mid})
		n++
	}
	if g.m.Kept == 0 {
		g.firstRaw = b.raw
	}
	g.lastRaw = b.raw
	bn := &g.bins[n-1]
	bn.n++
	bn.sx += float64(b.raw - bn.x0)
	bn.sy += float64(b.mid.Sub(bn.y0))
	g.m.Kept++
}

// fit fits the line through the gathered bins, and fills in the measurement.
func (g *gathering) fit() (measurement, error) {
	m := g.m
	m.Segments++ // counted from 1
	slope, spread, kept, err := fitBins(g.bins, g.raw0, g.base)
	if err != nil {
		return m, err
	}
	m.Kept = kept
	m.Window = time.Duration(g.lastRaw - g.firstRaw)
	m.Ticks = Tickdelta(math.Round(slope * float64(m.Window)))
	if slope <= 0 || m.Ticks <= 0 || m.Window <= 0 {
		return m, fmt.Errorf("%w: the counter advanced %v over %v of the raw clock", ErrMeasure, m.Ticks, m.Window)
	}
	m.SpreadPPM = spread / slope * 1e6
	m.Hz = uint64(math.Round(slope * 1e9))
	return m, nil
}

// fitBins returns the slope, in ticks a nanosecond, of the least-squares
// line through the bins' mean points, weighted by their counts of brackets,
// with an offset of its own for each segment; the slope's spread, in the
// same unit (see measurement.SpreadPPM); and how many brackets the kept
// bins hold. A bin whose mean lies further from a first line than four
// times the typical bin's, and a nanosecond, is left out of the second.
//
// The spread is a delete-a-block jackknife: the bins are cut into
// spreadBlocks contiguous blocks, the line is fitted again without each, and
// the spread is the jackknife's standard error of those slopes, times
// spreadFactor. Unlike the scatter of the bins about the line, the jackknife
// counts errors that neighbouring bins share, which are the larger part of
// the scatter of repeats; errors shared over more than a block it still
// misses, and the factor makes up for them as measured (BENCHMARKS.md: the
// 95th percentile of |repeat − reference| / jackknife over 100 repeats on
// a loaded guest).
func fitBins(bins []bin, rawBase int64, ctrBase Tickstamp) (slope, spread float64, kept int, err error) {
	keep := make([]bool, len(bins))
	for i := range bins {
		keep[i] = bins[i].n > 0
	}
	slope, resid, err := fitKept(bins, keep, rawBase, ctrBase)
	if err != nil {
		return 0, 0, 0, err
	}
	typical := make([]float64, 0, len(bins))
	for i := range bins {
		if keep[i] && !math.IsNaN(resid[i]) {
			typical = append(typical, math.Abs(resid[i]))
		}
	}
	slices.Sort(typical)
	far := 4*typical[len(typical)/2] + slope // and a nanosecond
	for i := range bins {
		keep[i] = keep[i] && math.Abs(resid[i]) <= far
	}
	if second, _, err := fitKept(bins, keep, rawBase, ctrBase); err == nil {
		slope = second
	} else {
		// Leaving the far bins out left too few to fit: keep them all.
		for i := range bins {
			keep[i] = bins[i].n > 0
		}
	}
	for i := range bins {
		if keep[i] {
			kept += bins[i].n
		}
	}
	return slope, spreadFactor * jackknife(bins, keep, rawBase, ctrBase, spreadBlocks), kept, nil
}

// jackknife returns the delete-a-block jackknife's standard error of the
// slope fitted to the kept bins, in blocks of contiguous slots of the window.
func jackknife(bins []bin, keep []bool, rawBase int64, ctrBase Tickstamp, blocks int) float64 {
	var slopes []float64
	without := make([]bool, len(bins))
	slots := measureBins // more where the window was extended
	for i := range bins {
		slots = max(slots, bins[i].slot+1)
	}
	for blk := range blocks {
		removed := false
		for i := range bins {
			in := bins[i].slot*blocks/slots == blk
			without[i] = keep[i] && !in
			removed = removed || keep[i] && in
		}
		if !removed {
			continue // an empty block: its replicate would be the full fit, and say nothing
		}
		if s, _, err := fitKept(bins, without, rawBase, ctrBase); err == nil {
			slopes = append(slopes, s)
		}
	}
	k := float64(len(slopes))
	if k < 2 {
		return math.Inf(1)
	}
	var mean, ss float64
	for _, s := range slopes {
		mean += s
	}
	mean /= k
	for _, s := range slopes {
		ss += (s - mean) * (s - mean)
	}
	return math.Sqrt((k - 1) / k * ss)
}

// fitKept fits the weighted line through the kept bins, one offset for each
// segment, and returns its slope and every bin's residual, in ticks. A
// segment of a single kept bin says nothing of the slope, and is left out.
func fitKept(bins []bin, keep []bool, rawBase int64, ctrBase Tickstamp) (slope float64, resid []float64, err error) {
	segs := 0
	for i := range bins {
		segs = max(segs, bins[i].seg+1)
	}
	type sums struct{ n, x, y float64 }
	var means [maxSegments]sums
	count := [maxSegments]int{}
	for i := range bins {
		if keep[i] {
			b := &bins[i]
			w := float64(b.n)
			s := &means[b.seg]
			s.n += w
			s.x += w * b.meanX(rawBase)
			s.y += w * b.meanY(ctrBase)
			count[b.seg]++
		}
	}
	used, usedSegs := 0, 0
	for s := range segs {
		if count[s] >= 2 {
			used += count[s]
			usedSegs++
			means[s].x /= means[s].n
			means[s].y /= means[s].n
		}
	}
	if used-usedSegs < 2 {
		return 0, nil, fmt.Errorf("%w: the brackets filled only %d of %d stretches of the window on %d CPUs", ErrMeasure, used, measureBins, max(usedSegs, 1))
	}
	var sxx, sxy float64
	for i := range bins {
		if b := &bins[i]; keep[i] && count[b.seg] >= 2 {
			w := float64(b.n)
			dx, dy := b.meanX(rawBase)-means[b.seg].x, b.meanY(ctrBase)-means[b.seg].y
			sxx += w * dx * dx
			sxy += w * dx * dy
		}
	}
	if sxx == 0 {
		return 0, nil, fmt.Errorf("%w: the raw clock did not advance", ErrMeasure)
	}
	slope = sxy / sxx
	resid = make([]float64, len(bins))
	for i := range bins {
		resid[i] = math.NaN() // a bin of a segment left out
		if b := &bins[i]; b.n > 0 && count[b.seg] >= 2 {
			resid[i] = b.meanY(ctrBase) - means[b.seg].y - slope*(b.meanX(rawBase)-means[b.seg].x)
		}
	}
	return slope, resid, nil
}
