package counter

import "math"

// A detector is the judgement of a [Watch]'s rate and jump checks, without
// clocks or I/O: fed one bracket a check (the raw clock's reading, the
// counter's midpoint and the bracket's width), it holds each period against
// its threshold N, confirms a deviation with the next period, and says
// which events that makes. It also keeps the refined fit. The doc of
// [Watch] states what it holds against what; [Watch] feeds it.
// untrustedRatePPM is how far off a rate must be to show a counter that is
// not invariant: the detector calls the counter untrusted past it.
const untrustedRatePPM = 1000

type detector struct {
	perNs float64 // the rate in use, in ticks a nanosecond
	tol   float64 // the rate tolerance, as a fraction
	step  float64 // the counter's step (or the read's own cost, where larger), in ns

	started  bool
	prev     bracket // the last check's bracket
	base     float64 // the counter's rate relative to the rate in use, less one, as last confirmed
	shift    float64 // ticks: the sum of the jumps found so far
	segStart bracket // the first bracket since the start or the last change of rate
	segShift float64 // shift at segStart

	pending bool          // the last period was past its N
	pend    pendingPeriod // that period, while pending

	rateOn  bool    // an EventRate was raised and no period has been back within N since
	ratePPM float64 // the Value of the last EventRate
	sinceOn bool    // an EventRateSinceStart was raised since the segment's start

	fit rateFit
}

// A pendingPeriod is a period past its N, waiting for the next to say
// whether it held a jump or a change of rate.
type pendingPeriod struct {
	dev     float64 // its deviation from the confirmed rate, ns
	T       float64 // its length, ns
	N       float64 // its N, ns
	Nb      float64 // the brackets' and the step's share of N, ns
	b       bracket // the bracket that ended it
	meanRaw float64 // and that check's mean bracket, relative to b
	meanMid float64
}

// A verdict is the events one check raised, in the order they were found:
// at most a jump, a rate and a rate since the start.
type verdict struct {
	n      int
	events [3]Event
}

func (v *verdict) raise(e Event) {
	v.events[v.n] = e
	v.n++
}

// newDetector returns a detector of a counter converted at hz ticks a
// second, with a rate tolerance of tolPPM, its fit empty.
func newDetector(hz uint64, tolPPM float64) detector {
	d := detector{perNs: float64(hz) / 1e9, tol: tolPPM / 1e6}
	d.fit.reset(d.perNs)
	return d
}

// rawResolution is r of the Watch's N, in ns: the raw clock's readings are
// whole nanoseconds, so the raw time between two of them is off by up to
// one. It also covers the rounding of the float64 arithmetic on T, which is
// many orders of magnitude smaller.
const rawResolution = 1

// threshold returns N, in ns, of the T ns between the brackets from and to,
// as [Watch]'s doc states it: N = h₁ + h₂ + s + r + tol·T, the two
// brackets' half-widths, the step, the raw clock's resolution and the rate
// in use's tolerance over T. Both the period's check and the since-start
// check hold their deviation against it.
func (d *detector) threshold(from, to bracket, T float64) float64 {
	return float64(from.width)/2/d.perNs + float64(to.width)/2/d.perNs + d.step + rawResolution + d.tol*T
}

// setStep sets the counter's step, in ticks, that each threshold allows for.
func (d *detector) setStep(step Tickdelta) { d.step = float64(step) / d.perNs }

// observe takes one check's tightest bracket b, and the mean of its
// brackets relative to it (meanRaw in ns, meanMid in ticks), and returns the
// events it raises.
func (d *detector) observe(b bracket, meanRaw, meanMid float64) (v verdict) {
	if b.width < 0 {
		return v // the counter went backwards in every bracket: the next check will see a jump
	}
	if !d.started {
		d.started = true
		d.prev, d.segStart = b, b
		d.addPoint(b, meanRaw, meanMid)
		return v
	}
	T := float64(b.raw - d.prev.raw)
	if T <= 0 {
		return v // the raw clock did not advance: nothing to hold the counter against
	}
	N := d.threshold(d.prev, b, T)
	D := float64(b.mid.Sub(d.prev.mid))/d.perNs - T // ns the counter ran ahead of the rate in use
	dev := D - d.base*T
	off := math.Abs(dev) > N
	switch {
	case d.pending && !off:
		// The period before was off, this one is back within N. What this
		// period's rate does not explain of the one before is a jump; the
		// rate in use's error, common to both, cancels, so only the
		// brackets bound it. A steady rate error near tol·T, which puts
		// one period just past N and the next just within it, is no jump.
		d.pending = false
		p := d.pend
		excess := p.dev - dev*p.T/T
		if slack := p.Nb + (N-d.tol*T)*p.T/T; math.Abs(excess) > slack {
			v.raise(Event{Kind: EventJump, Severity: Untrusted, Value: excess, Threshold: slack})
			d.shift += excess * d.perNs
		}
		d.addPoint(p.b, p.meanRaw, p.meanMid)
		d.addPoint(b, meanRaw, meanMid)
	case d.pending:
		// Two periods off: the rate changed, in the first or at its end.
		d.pending = false
		d.confirmRate(&v, D, dev, T, N)
		d.addPoint(b, meanRaw, meanMid)
	case off:
		d.pending = true
		d.pend = pendingPeriod{dev: dev, T: T, N: N, Nb: N - d.tol*T, b: b, meanRaw: meanRaw, meanMid: meanMid}
	default:
		d.addPoint(b, meanRaw, meanMid)
		if math.Abs(D) <= N {
			d.rateOn = false
		}
	}
	d.prev = b
	if !d.pending {
		d.checkSinceStart(&v, b)
	}
	return v
}

// confirmRate handles a second period past its N: the rate changed. What
// the new rate cannot explain of the first period is a jump.
func (d *detector) confirmRate(v *verdict, D, dev, T, N float64) {
	p := d.pend
	newRate := dev / T // relative to the old baseline
	lo, hi := min(0, newRate*p.T), max(0, newRate*p.T)
	slack := p.N + N*p.T/T
	if excess := p.dev - max(lo, min(hi, p.dev)); math.Abs(excess) > slack {
		v.raise(Event{Kind: EventJump, Severity: Untrusted, Value: excess, Threshold: slack})
		d.shift += excess * d.perNs
	}
	d.base = D / T
	ppm, thr := d.base*1e6, N/T*1e6
	// Raised again for a rate that moved once more, by more than the
	// threshold from the one last reported.
	if math.Abs(ppm) > thr && (!d.rateOn || math.Abs(ppm-d.ratePPM) > thr) {
		sev := Degraded
		if math.Abs(ppm) > untrustedRatePPM {
			sev = Untrusted
		}
		v.raise(Event{Kind: EventRate, Severity: sev, Value: ppm, Threshold: thr})
		d.rateOn, d.ratePPM = true, ppm
	}
	if math.Abs(ppm) <= thr {
		d.rateOn = false
	}
	// The history before belongs to another rate: start the fit and the
	// since-start check again from here.
	d.segStart, d.segShift = p.b, d.shift
	d.sinceOn = false
	d.fit.reset(d.perNs * (1 + d.base))
	d.addPoint(p.b, p.meanRaw, p.meanMid)
}

// checkSinceStart holds the rate since the segment's start against the rate
// in use.
func (d *detector) checkSinceStart(v *verdict, b bracket) {
	T := float64(b.raw - d.segStart.raw)
	if T <= 0 || d.sinceOn || d.rateOn {
		return
	}
	D := (float64(b.mid.Sub(d.segStart.mid))-(d.shift-d.segShift))/d.perNs - T
	N := d.threshold(d.segStart, b, T)
	if math.Abs(D) > N {
		d.sinceOn = true
		v.raise(Event{Kind: EventRateSinceStart, Severity: Degraded, Value: D / T * 1e6, Threshold: N / T * 1e6})
	}
}

// addPoint adds a check's mean bracket to the refined fit, as a point of
// the raw clock and the counter's ticks since the segment's start, with the
// jumps taken out.
func (d *detector) addPoint(b bracket, meanRaw, meanMid float64) {
	raw := b.raw + int64(math.Round(meanRaw))
	ticks := float64(b.mid.Sub(d.segStart.mid)) + meanMid - (d.shift - d.segShift) - (meanRaw-math.Round(meanRaw))*d.perNs
	d.fit.add(raw, ticks)
}

// refined returns the fit's rate rounded to the hertz and its uncertainty
// in ppm, as [Watch.Refined] does.
func (d *detector) refined() (TickRate, float64) {
	e := d.fit.estimate()
	if !(e.hz >= 0.5 && e.hz < math.MaxUint64) { // none yet, or a counter that ran backwards
		return TickRate{}, 0
	}
	rate, _ := NewTickRate(uint64(math.Round(e.hz)))
	return rate, e.uncertaintyPPM
}
