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
	return clockPair{counter: readCPU, raw: bracketNanos, cpu: measureCPU, stallWait: stalledClockWait}.measure(window)
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

// measure measures the counter's rate over window of the raw clock, on one
// locked thread. It reads the raw clock between two readings of the
// counter, back to back for the whole window; keeps the brackets no
// interrupt or preemption stretched; gathers them in 64 bins by the raw
// clock, and in a new segment wherever the thread moved to another CPU; and
// fits one straight line through the bins' mean points, each segment with
// its own offset. It measures another window only where decide says so.
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
	for starved := 0; ; starved++ {
		s, brackets, v, err := p.gather(int64(window), starved)
		m := measurement{Brackets: brackets, Kept: s.kept, Segments: s.seg + 1, Starved: starved}
		if err != nil {
			return m, err
		}
		if v != measureAgain {
			return s.fit(m)
		}
	}
}

// The samples of a window are its kept brackets, gathered into bins by
// where in the window they fell and on which CPU. Only add and split change
// them; the other methods are queries, on a copy.
type samples struct {
	length   int64     // the window, in ns of the raw clock, before any stretch
	raw0     int64     // the raw clock at the window's first bracket, kept or not
	base     Tickstamp // the counter's midpoint at that bracket
	bins     []bin
	seg      int   // the segment under way, counted from 0
	kept     int   // how many brackets the bins hold
	firstRaw int64 // the raw clock at the first bracket kept
	lastRaw  int64 // the raw clock at the last bracket kept
}

// newSamples returns the empty samples of a window of length ns of the raw
// clock that starts at bracket b.
func newSamples(length int64, b *bracket) samples {
	return samples{length: length, raw0: b.raw, base: b.mid, bins: make([]bin, 0, measureBins+maxSegments)}
}

// add adds a kept bracket to its bin.
func (s *samples) add(b *bracket) {
	x := b.raw - s.raw0
	slot := int(x * measureBins / s.length)
	if x < 0 || slot >= 2*measureBins {
		return // a raw clock that went back, or past the window
	}
	n := len(s.bins)
	if n == 0 || s.bins[n-1].seg != s.seg || s.bins[n-1].slot != slot {
		s.bins = append(s.bins, bin{seg: s.seg, slot: slot, x0: b.raw, y0: b.mid})
		n++
	}
	if s.kept == 0 {
		s.firstRaw = b.raw
	}
	s.lastRaw = b.raw
	bn := &s.bins[n-1]
	bn.n++
	bn.sx += float64(b.raw - bn.x0)
	bn.sy += float64(b.mid.Sub(bn.y0))
	s.kept++
}

// split starts a new segment, the thread having moved to another CPU,
// unless the segment under way holds no bracket yet; it returns how many
// segments there are.
func (s *samples) split() int {
	if n := len(s.bins); n > 0 && s.bins[n-1].seg == s.seg {
		s.seg++
	}
	return s.seg + 1
}

// filled returns how many of the window's stretches hold a kept bracket,
// on whichever CPU.
func (s samples) filled() int {
	var seen [2 * measureBins]bool
	n := 0
	for _, b := range s.bins {
		if !seen[b.slot] {
			seen[b.slot] = true
			n++
		}
	}
	return n
}

// past returns how many bins lie past the window's end, in its stretch.
func (s samples) past() int {
	n := 0
	for _, b := range s.bins {
		if b.slot >= measureBins {
			n++
		}
	}
	return n
}

// cut reports whether the kept brackets stopped short of the window's
// second half: the thread did not run there, as where the process was
// stopped (SIGSTOP, a debugger, a paused VM) and woke with the raw clock
// past the window's end. A preemption of a scheduler's tick or two near the
// end leaves enough of the window to fit.
func (s samples) cut() bool {
	return s.kept == 0 || 2*(s.lastRaw-s.raw0) < s.length
}

// thin reports whether the samples are too few to fit a line through well:
// the thread ran in fewer than minFilledBins of the window's stretches, or
// was cut before its second half.
func (s samples) thin() bool { return s.filled() < minFilledBins || s.cut() }

// A course is what a measurement does after a bracket of a window.
type course int

const (
	gatherOn      course = iota // the window is not over: take another bracket
	stretchWindow               // the window is over but not enough: take brackets past its end
	fitWindow                   // the window is over and enough: fit its samples
	measureAgain                // the window and its stretch are over and not enough: measure another
	fitLast                     // as measureAgain, but no window is left: fit what there is, or refuse
	clockStalled                // the raw clock has not advanced by the window in time: refuse
)

// decide returns the course after a bracket taken x ns of the raw clock
// past the start of the window whose samples are s, starved windows having
// been measured again before it; late is whether the runtime's clock had
// passed the deadline for a stalled raw clock before the bracket was taken.
// It is the one place that stretches a window, ends it, measures another,
// and gives up.
//
// Where the thread ran in too few of the window's stretches, or stopped
// before its second half (a preemption of a few scheduler ticks, on a busy
// machine), brackets taken just after the window fit the line as well as
// another window's would, and sooner: a thin window is stretched, and a
// stretched one goes on until extendStretches stretches past its end hold
// a kept bracket, or until a second window's time has passed. A window
// still thin then was a longer stop, or a machine so busy that the
// scheduler left the thread off its CPU for most of it: it is measured
// again, measureWindows windows at most, and the last is fitted as it is.
//
// Only a raw reading taken after the deadline can show that the raw clock
// has not advanced: a process stopped for seconds (SIGSTOP, a debugger, a
// paused VM) wakes past the deadline with a raw clock that has advanced all
// the same, and its window is over.
func decide(s samples, x int64, starved int, late bool) course {
	if x >= s.length {
		thin, past := s.thin(), s.past()
		if x >= 2*s.length || !thin && (past == 0 || past >= extendStretches) {
			switch {
			case !thin:
				return fitWindow
			case starved+1 < measureWindows:
				return measureAgain
			}
			return fitLast
		}
	}
	switch {
	case late:
		return clockStalled
	case x >= s.length:
		return stretchWindow
	}
	return gatherOn
}

// gather takes brackets for a window of length ns of the raw clock, the one
// after starved windows measured again, until decide ends it; it returns the
// window's samples, how many brackets it took, and the course that ended
// it. It owns what each bracket is held against, in its variables: the
// recent narrowest width, the shortest gap from a bracket to the next, the
// narrowest question to the OS of where the thread runs, the counter's
// latest reading, and the CPU of the segment under way.
func (p clockPair) gather(length int64, starved int) (samples, int, course, error) {
	var b bracket
	p.take(&b)
	brackets := 1
	s := newSamples(length, &b)
	last := b.end()
	var tightest recentLeast
	tightest.start(b.width)
	tightGap, asked := maxTickdelta, maxTickdelta
	giveUp := p.stallClock() + length + int64(p.stallWait)
	cpu := b.cpu
	if cpu < 0 {
		cpu, last, asked = p.whereNow(last, asked)
	}
	rawFrom := b.raw
	for {
		gapFrom := last
		// The runtime's clock is asked every few brackets, to keep the
		// gaps between brackets short.
		late := brackets%stallEvery == 0 && p.stallClock() > giveUp
		p.take(&b)
		brackets++
		last = b.end()
		switch v := decide(s, b.raw-s.raw0, starved, late); v {
		case clockStalled:
			return s, brackets, v, fmt.Errorf("%w: the raw clock did not advance %v in %v", ErrMeasure, time.Duration(length), time.Duration(length)+p.stallWait)
		case fitWindow, measureAgain, fitLast:
			return s, brackets, v, nil
		}
		tightest.add(b.width)
		gap := b.mid.Sub(gapFrom) - b.width/2
		if gap >= 0 {
			tightGap = min(tightGap, gap)
		}
		stretched := !accepted(b.width, tightest.least())
		// Nothing that moves a thread fits in minPauseNs of the raw
		// clock: a gap that short is the loop's own jitter (longer with the
		// race detector), however it compares with the least.
		paused := !accepted(gap, tightGap) && b.raw-rawFrom > minPauseNs
		moved := b.cpu >= 0 && b.cpu != cpu
		rawFrom = b.raw
		if !stretched && !paused && !moved {
			s.add(&b)
			continue
		}
		// The thread may have left its CPU: drop this bracket, and find
		// out where the thread is before trusting another, from the
		// counter's instruction or else the OS. A move to another CPU
		// starts a new segment. Where nothing can say (macOS; a seccomp
		// filter refusing getcpu), the segment goes on: the CPUs are
		// trusted to share one counter, as Apple silicon's system counter
		// is and Intel Macs' TSCs are kept. Starting a segment at every
		// pause instead would cut the window at every interrupt.
		now := b.cpu
		if now < 0 {
			now, last, asked = p.whereNow(last, asked)
		}
		if now < 0 || now == cpu {
			continue
		}
		if cpu >= 0 && s.split() > maxSegments {
			return s, brackets, gatherOn, fmt.Errorf("%w: the thread moved between CPUs more than %d times in %v; pin it and try again", ErrMeasure, maxSegments-1, time.Duration(length))
		}
		cpu = now
	}
}

// stallClock returns the clock that times the wait for a stalled raw clock.
func (p clockPair) stallClock() int64 {
	if p.now != nil {
		return p.now()
	}
	return nanotime()
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

// fit fits the line through the samples' bins, and fills in the rest of m.
func (s samples) fit(m measurement) (measurement, error) {
	slope, spread, kept, err := fitBins(s.bins, s.raw0, s.base)
	if err != nil {
		return m, err
	}
	m.Kept = kept
	m.Window = time.Duration(s.lastRaw - s.firstRaw)
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
