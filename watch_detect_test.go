package counter

import (
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// A line is a counter against the raw clock for the detector's tests: a
// counter at hz·(1+ppm/10⁶) ticks a second from its start, with faults.
type line struct {
	hz, ppm float64
	start   int64 // ticks at raw time 0

	jumpAt   int64   // raw ns after which the counter has stepped by jump (never where 0)
	jump     float64 // ns, at the rate in use
	rateAt   int64   // raw ns after which the counter's rate is hz·(1+ratePPM/10⁶) (never where 0)
	ratePPM  float64
	rate2At  int64 // and after which it is hz·(1+rate2PPM/10⁶) (never where 0)
	rate2PPM float64
}

// ticks returns the counter's reading at raw time t.
func (l line) ticks(t int64) float64 { return float64(l.start) + l.since(t) }

// since returns the ticks the counter has counted from raw time 0 to t. It
// is apart from start so that a large start costs no precision: at 2⁴⁸
// ticks, a float64 is good to only a sixteenth of a tick, and the sums
// here would be off by more than the one-tick rounding the detector's
// tests allow for.
func (l line) since(t int64) float64 {
	x := float64(t) * l.hz / 1e9 * (1 + l.ppm/1e6)
	if l.rateAt != 0 && t > l.rateAt {
		x += float64(t-l.rateAt) * l.hz / 1e9 * (l.ratePPM - l.ppm) / 1e6
	}
	if l.rate2At != 0 && t > l.rate2At {
		x += float64(t-l.rate2At) * l.hz / 1e9 * (l.rate2PPM - l.ratePPM) / 1e6
	}
	if l.jumpAt != 0 && t > l.jumpAt {
		x += l.jump * l.hz / 1e9
	}
	return x
}

// bracketAt returns a bracket of the raw clock at t, width ticks wide, the
// raw reading at place pos within it (-1 at its start, 1 at its end).
func (l line) bracketAt(t int64, width int64, pos float64) bracket {
	mid := l.since(t) - pos*float64(width)/2
	return bracket{raw: t, mid: Tickstamp(l.start + int64(math.Round(mid))), width: Tickdelta(width)}
}

// feed runs a detector of l at the rate in use l.hz and tolerance tolPPM
// (a counter step of 1 tick, the rounding of a midpoint) over brackets at
// the times given, and returns the events by the index of the check that
// raised them.
func feed(l line, tolPPM float64, times []int64, widths []int64, pos []float64) (*detector, map[int][]Event) {
	d := newDetector(uint64(l.hz), tolPPM)
	d.setStep(1)
	got := map[int][]Event{}
	for i, t := range times {
		v := d.observe(l.bracketAt(t, widths[i], pos[i]), 0, 0)
		if v.n > 0 {
			got[i] = append(got[i], v.events[:v.n]...)
		}
	}
	return &d, got
}

// even returns n check times a period apart, each width ticks wide with its
// raw reading at alternating ends.
func even(n int, period time.Duration, width int64) (times, widths []int64, pos []float64) {
	for i := range n {
		times = append(times, int64(i)*int64(period))
		widths = append(widths, width)
		pos = append(pos, float64(i%2*2-1))
	}
	return times, widths, pos
}

// TestDetector feeds the detector scripted counters and checks which check
// raises which event.
func TestDetector(t *testing.T) {
	const hz = 2_000_000_000
	sec := int64(time.Second)
	type want struct {
		at   int // the check that raises it
		kind EventKind
		sev  WatchState
		val  float64 // within the event's threshold
		more float64 // and this much more
	}
	for _, tc := range []struct {
		name string
		l    line
		tol  float64
		n    int
		want []want
	}{
		{"quiet", line{hz: hz}, 2, 30, nil},
		{"in use off within the tolerance", line{hz: hz, ppm: 1.9}, 2, 30, nil},
		{"jump forwards", line{hz: hz, jumpAt: 3*sec + sec/2, jump: 1e6}, 2, 10, []want{{5, EventJump, Untrusted, 1e6, 0}}},
		{"jump backwards", line{hz: hz, jumpAt: 3*sec + sec/2, jump: -1e6}, 2, 10, []want{{5, EventJump, Untrusted, -1e6, 0}}},
		{"jump just at a check", line{hz: hz, jumpAt: 3 * sec, jump: 5e4}, 2, 10, []want{{5, EventJump, Untrusted, 5e4, 0}}},
		{"rate +100 ppm", line{hz: hz, rateAt: 3*sec + sec/2, ratePPM: 100}, 2, 10, []want{{5, EventRate, Degraded, 100, 0}}},
		{"rate -100 ppm late in a period", line{hz: hz, rateAt: 3*sec + 99*sec/100, ratePPM: -100}, 2, 10, []want{{6, EventRate, Degraded, -100, 0}}},
		{"rate +5000 ppm", line{hz: hz, rateAt: 3*sec + sec/2, ratePPM: 5000}, 2, 10, []want{{5, EventRate, Untrusted, 5000, 0}}},
		// Either side of the 1000 ppm that makes a change of rate untrusted.
		{"rate -990 ppm", line{hz: hz, rateAt: 3*sec + sec/2, ratePPM: -990}, 2, 10, []want{{5, EventRate, Degraded, -990, 0}}},
		{"rate -1010 ppm", line{hz: hz, rateAt: 3*sec + sec/2, ratePPM: -1010}, 2, 10, []want{{5, EventRate, Untrusted, -1010, 0}}},
		// A jump that comes with a change of rate is told from the rate to
		// within the change over the period it came in.
		{"migration", line{hz: hz, rateAt: 3*sec + sec/2, ratePPM: 200, jumpAt: 3*sec + sec/2, jump: 5e7}, 2, 10,
			[]want{{5, EventJump, Untrusted, 5e7, 200e-6 * 1e9}, {5, EventRate, Degraded, 200, 0}}},
		// A rate past the threshold, then back within it though not at
		// the rate in use: once a period is back within N, the rate since
		// the change is checked again, and it is past the tolerance.
		{"rate back within the threshold", line{hz: hz, rateAt: 3*sec + sec/2, ratePPM: 3, rate2At: 7 * sec, rate2PPM: 1.8}, 2, 12,
			[]want{{6, EventRate, Degraded, 3, 0}, {8, EventRateSinceStart, Degraded, 2.6, 0}}},
		// Too little for one period to see: the rate since the start does.
		{"in use off past the tolerance", line{hz: hz, ppm: 1.2}, 1, 30, []want{{-1, EventRateSinceStart, Degraded, 1.2, 0}}},
		// Periods just past N, and just within it: a rate, never a jump.
		{"steady error near the tolerance", line{hz: hz, ppm: 10.3}, 10, 60, []want{{2, EventRate, Degraded, 10.3, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.l.start = 1e12
			times, widths, pos := even(tc.n, time.Second, 200)
			_, got := feed(tc.l, tc.tol, times, widths, pos)
			n := 0
			for _, evs := range got {
				n += len(evs)
			}
			if n != len(tc.want) {
				t.Fatalf("events %v; want %d", got, len(tc.want))
			}
			for _, w := range tc.want {
				found := false
				for at, evs := range got {
					for _, e := range evs {
						if e.Kind == w.kind && (w.at < 0 || at == w.at) {
							found = true
							if e.Severity != w.sev || math.Abs(e.Value-w.val) > e.Threshold+w.more {
								t.Errorf("%v at check %d; want %v, %v within the threshold", e, at, w.sev, w.val)
							}
						}
					}
				}
				if !found {
					t.Errorf("events %v; want %v at check %d", got, w.kind, w.at)
				}
			}
		})
	}
}

// TestDetectorSkips checks that a bracket the counter ran backwards in,
// and a check at which the raw clock did not advance, are taken as no check.
func TestDetectorSkips(t *testing.T) {
	l := line{hz: 2e9, start: 1e12}
	d := newDetector(2e9, 2)
	sec := int64(time.Second)
	for i, b := range []bracket{
		l.bracketAt(0, 100, 0),
		{raw: sec, mid: Tickstamp(l.ticks(sec) + 1e9), width: -5}, // backwards, and far off
		l.bracketAt(2*sec, 100, 0),
		l.bracketAt(2*sec, 100, 0), // the raw clock stood still
		{raw: 2 * sec, mid: Tickstamp(l.ticks(2*sec) + 1e9), width: 100},
		l.bracketAt(3*sec, 100, 0),
	} {
		if v := d.observe(b, 0, 0); v.n != 0 {
			t.Errorf("check %d raised %v", i, v.events[:v.n])
		}
	}
	if e := d.fit.estimate(); e.points != 3 || math.Abs(e.hz-2e9) > 1e-3 {
		t.Errorf("fit %+v; want 3 checks at 2 GHz", e)
	}
}

// TestDetectorAllowsTheRawClocksNanosecond: the raw clock reads whole
// nanoseconds, so a reading taken 0.99 ns into a nanosecond puts the raw
// time between two checks off by that much, besides the midpoints' rounding
// the step allows for. At 3 GHz with no tolerance, that is past h₁ + h₂ + s
// and within N only by r, a nanosecond: nothing is raised.
func TestDetectorAllowsTheRawClocksNanosecond(t *testing.T) {
	const perNs = 3
	d := newDetector(perNs*1e9, 0)
	d.setStep(1)
	check := func(trueNs float64) verdict {
		raw := int64(trueNs) // whole nanoseconds, truncated
		mid := math.Round(trueNs*perNs + 0.49)
		return d.observe(bracket{raw: raw, mid: Tickstamp(mid)}, 0, 0)
	}
	for i, at := range []float64{1e9, 2e9 + 0.99, 3e9, 4e9 + 0.99, 5e9} {
		if v := check(at); v.n != 0 {
			t.Fatalf("check %d raised %v; want nothing from a counter at the rate in use", i, v.events[:v.n])
		}
	}
}

// widthsOf draws a width a check, in ticks, up to a hundredth of the
// period (at hz), and a place of the raw reading within each bracket.
func widthsOf(t *rapid.T, n int, period int64, hz float64) (widths []int64, pos []float64) {
	most := rapid.Int64Range(0, min(100_000, int64(float64(period)*hz/1e9/100))).Draw(t, "most width")
	for i := range n {
		widths = append(widths, rapid.Int64Range(0, most).Draw(t, "width"))
		pos = append(pos, rapid.Float64Range(-1, 1).Draw(t, "pos"))
		_ = i
	}
	return widths, pos
}

// timesOf draws n check times about period apart (within a tenth), the
// first a second into the raw clock.
func timesOf(t *rapid.T, n int, period int64) []int64 {
	times := make([]int64, n)
	times[0] = int64(time.Second)
	for i := 1; i < n; i++ {
		times[i] = times[i-1] + period + rapid.Int64Range(-period/10, period/10).Draw(t, "jitter")
	}
	return times
}

// TestDetectorQuietProperty: a counter whose rate is within the tolerance
// of the rate in use, read through brackets whose midpoints are within
// their half-widths of it, raises nothing, whatever the widths and places:
// the threshold N bounds the error of every deviation it judges. And the
// refined fit finds the counter's rate.
func TestDetectorQuietProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tol := rapid.Float64Range(0, 100).Draw(t, "tol")
		l := line{
			hz:    float64(rapid.Uint64Range(1e6, 1e10).Draw(t, "hz")),
			ppm:   rapid.Float64Range(-0.99, 0.99).Draw(t, "of tol") * tol,
			start: rapid.Int64Range(0, 1<<48).Draw(t, "start"),
		}
		n := rapid.IntRange(2, 40).Draw(t, "checks")
		period := rapid.Int64Range(int64(minWatchPeriod), int64(10*time.Second)).Draw(t, "period")
		widths, pos := widthsOf(t, n, period, l.hz)
		d, got := feed(l, tol, timesOf(t, n, period), widths, pos)
		if len(got) != 0 {
			t.Fatalf("events %v from a counter within the tolerance", got)
		}
		if e := d.fit.estimate(); e.points != n {
			t.Fatalf("the fit has %d checks; want %d", e.points, n)
		}
	})
}

// A faultScenario is what the fault properties draw: a counter on a line
// within the tolerance, the checks' times and brackets, and a true time at
// which a fault comes, in the period ended by check k.
type faultScenario struct {
	tol    float64
	l      line
	n      int
	period int64
	times  []int64
	widths []int64
	pos    []float64
	k      int
	at     int64
	maxW   float64 // the widest bracket, in ticks
}

// drawFault draws a faultScenario of at least minChecks checks, whose fault
// comes with at least after checks left after check k.
func drawFault(t *rapid.T, minChecks, after int) faultScenario {
	var sc faultScenario
	sc.tol = rapid.Float64Range(0, 100).Draw(t, "tol")
	sc.l = line{
		hz:    float64(rapid.Uint64Range(1e6, 1e10).Draw(t, "hz")),
		ppm:   rapid.Float64Range(-0.5, 0.5).Draw(t, "of tol") * sc.tol,
		start: rapid.Int64Range(0, 1<<48).Draw(t, "start"),
	}
	sc.n = rapid.IntRange(minChecks, 30).Draw(t, "checks")
	sc.period = rapid.Int64Range(int64(minWatchPeriod), int64(10*time.Second)).Draw(t, "period")
	sc.times = timesOf(t, sc.n, sc.period)
	sc.widths, sc.pos = widthsOf(t, sc.n, sc.period, sc.l.hz)
	sc.k = rapid.IntRange(1, sc.n-after).Draw(t, "the check ending the fault's period")
	sc.at = sc.times[sc.k-1] + rapid.Int64Range(0, sc.times[sc.k]-sc.times[sc.k-1]-1).Draw(t, "into the period")
	for _, w := range sc.widths {
		sc.maxW = max(sc.maxW, float64(w))
	}
	return sc
}

// TestDetectorJumpProperty: a step of the counter's offset well past the
// thresholds, at any time between two checks, is one EventJump raised by
// the check after the one that ends the period it came in, its Value the
// step within its Threshold; and the refined fit takes it out.
func TestDetectorJumpProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawFault(t, 4, 2)
		tol, l, n, times, widths, pos, k, maxW := sc.tol, sc.l, sc.n, sc.times, sc.widths, sc.pos, sc.k, sc.maxW
		l.jumpAt = sc.at
		// Past twice the most the jump's threshold can come to: the bracket
		// terms (two half-widths, a step and a raw resolution) of the
		// period it came in, and of the next scaled by the ratio of the
		// two periods' lengths; and twice the rate tolerance over the
		// whole time. Within that, what the midpoints' rounding takes off
		// the step still leaves it past the threshold.
		ratio := float64(times[k]-times[k-1]) / float64(times[k+1]-times[k])
		bound := 2*(1+ratio)*((maxW+1)/l.hz*1e9+rawResolution) + 2*tol/1e6*float64(times[n-1])
		l.jump = (bound + rapid.Float64Range(0, 1e9).Draw(t, "jump past the bound")) * float64(rapid.SampledFrom([]int{-1, 1}).Draw(t, "sign"))
		d, got := feed(l, tol, times, widths, pos)
		evs := got[k+1]
		if len(evs) == 0 || evs[0].Kind != EventJump || evs[0].Severity != Untrusted {
			t.Fatalf("events %v; want a jump at check %d", got, k+1)
		}
		if e := evs[0]; math.Abs(e.Value-l.jump) > e.Threshold {
			t.Fatalf("%v; want %v ns within the threshold", e, l.jump)
		}
		// The jump taken out is the jump to within its threshold, and the
		// check of the rate since the start does not allow for that: it may
		// see the rest, but no more than the rest.
		for at, es := range got {
			for i, e := range es {
				if at == k+1 && i == 0 {
					continue
				}
				T := float64(times[at] - times[0])
				if e.Kind != EventRateSinceStart || (math.Abs(e.Value)-e.Threshold)*T/1e6 > evs[0].Threshold {
					t.Fatalf("events %v; want only the jump, and at most the rest of it since the start", got)
				}
			}
		}
		// Each point is off by at most its half-width, the rounding of its
		// midpoint, and after the jump the error of the jump taken out (its
		// threshold): a line through them is off by at most four times that
		// over the span.
		hz := l.hz * (1 + l.ppm/1e6)
		worst := maxW/2 + 1 + evs[0].Threshold*l.hz/1e9
		if e := d.fit.estimate(); math.Abs(e.hz-hz)/hz > 4*worst/(float64(times[n-1]-times[0])*l.hz/1e9) {
			t.Fatalf("refined %v Hz; want the counter's %v Hz, the jump taken out", e.hz, hz)
		}
	})
}

// TestDetectorRateProperty: a change of rate well past the threshold, at
// any time, is an EventRate raised within two periods and what was left of
// the one it came in, its Value the new rate against the rate in use within
// its Threshold, Untrusted past 1000 ppm; never a jump. Other events may
// be an EventRateSinceStart from the check ending the change's period on,
// and further EventRates, each within its threshold of the new rate (where
// the first confirmation's threshold was wider than a later period's, the
// later may report the same rate again, better measured).
func TestDetectorRateProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := drawFault(t, 5, 3)
		tol, l, times, widths, pos, k, maxW, period := sc.tol, sc.l, sc.times, sc.widths, sc.pos, sc.k, sc.maxW, sc.period
		l.rateAt = sc.at
		// Past four times the largest N of a period, over the shortest.
		shortest := float64(period - period/10)
		bound := 4 * (((maxW+1)/l.hz*1e9+rawResolution)/shortest*1e6 + tol)
		l.ratePPM = l.ppm + (bound+rapid.Float64Range(0, 1e4).Draw(t, "change past the bound"))*float64(rapid.SampledFrom([]int{-1, 1}).Draw(t, "sign"))
		_, got := feed(l, tol, times, widths, pos)
		first := 0
		for at, evs := range got {
			for _, e := range evs {
				switch {
				case e.Kind == EventRateSinceStart && at >= k:
					// The rate since the start may see a change the period
					// it came in could not.
					continue
				case e.Kind != EventRate || at < k+1:
					t.Fatalf("events %v; want rate events only, from check %d", got, k+1)
				case at <= k+2:
					first++
				}
				sev := Degraded
				if math.Abs(e.Value) > untrustedRatePPM {
					sev = Untrusted
				}
				if math.Abs(e.Value-l.ratePPM) > e.Threshold || e.Severity != sev {
					t.Fatalf("%v; want %v ppm within the threshold, %v", e, l.ratePPM, sev)
				}
			}
		}
		if first != 1 {
			t.Fatalf("events %v; want one rate event at check %d or %d", got, k+1, k+2)
		}
	})
}
