package counter

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"
)

// A Measurement is the counter's rate measured against the raw monotonic
// clock over a window, with what the measurement can vouch for.
type Measurement struct {
	Hz     uint64        // the rate, in hertz, rounded to the nearest
	Window time.Duration // the raw clock's time from the first bracket kept to the last
	Ticks  Tickdelta     // the counter's ticks over the same time

	// Brackets is how many times the raw clock was read between two
	// readings of the counter, back to back over the whole window; Kept is
	// how many of them the rate was fitted to, those left out having been
	// stretched by an interrupt or a preemption.
	Brackets, Kept int

	// SpreadPPM is the standard error of the fitted rate, in parts per
	// million: how far it would typically move if measured again.
	SpreadPPM float64

	// Retries is how many windows were measured again because the thread
	// moved to another CPU within them.
	Retries int
}

// How a measurement is made: the bins its brackets are gathered in, the
// windows tried before it gives up on a thread that keeps moving, and how
// long it waits for a raw clock that does not advance.
const (
	measureBins      = 64
	measureAttempts  = 5
	stalledClockWait = time.Second
)

// A clockPair is what a measurement reads: the counter, with the CPU it was
// read on (-1 where unknown), and the raw clock in nanoseconds.
type clockPair struct {
	counter func() (Tickstamp, int)
	raw     func() int64
}

// measureCounter measures this machine's counter over window.
func measureCounter(window time.Duration) (Measurement, error) {
	return clockPair{counter: readCPU, raw: rawNanos}.measure(window)
}

// A bin gathers the brackets of one stretch of the window: the sums of their
// raw readings and of the counter's midpoints, each from the window's first.
type bin struct {
	n      int
	sx, sy float64
}

// measure measures the counter's rate over window of the raw clock, on one
// locked thread. It reads the raw clock between two readings of the
// counter, back to back for the whole window, gathers the brackets in bins,
// and fits a straight line through the bins.
//
// Why not a bracket at each end, as calibrations usually do: a bracket places
// the raw clock's reading on the counter's scale only to within how the
// system call that reads it happened to run, and the counter's own steps
// (AMD's counters advance in steps of about 10 ns): 10 to 20 ns, which over
// 10 ms is one or two parts per million. Tens of thousands of brackets spread
// over the window average that away.
func (p clockPair) measure(window time.Duration) (Measurement, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var m Measurement
	var bins [measureBins]bin
	for ; m.Retries < measureAttempts; m.Retries++ {
		bins = [measureBins]bin{}
		m.Brackets, m.Kept = 0, 0
		giveUp := nanotime() + int64(window+stalledClockWait)
		t0, cpu := p.counter()
		raw0 := p.raw()
		t1, cpu1 := p.counter()
		moved := cpu1 != cpu
		tightest := t1.Sub(t0)
		base, baseRaw := t0.Add(tightest/2), raw0
		first, last := 0, 0
		for raw := raw0; raw-raw0 < int64(window) && !moved; {
			if nanotime() > giveUp {
				return m, fmt.Errorf("%w: the raw clock did not advance %v in %v", ErrMeasure, window, window+stalledClockWait)
			}
			t0, cpu0 := p.counter()
			raw = p.raw()
			t1, cpu1 := p.counter()
			m.Brackets++
			if cpu0 != cpu || cpu1 != cpu {
				moved = true
			}
			w := t1.Sub(t0)
			if w < 0 {
				continue
			}
			tightest = min(tightest, w)
			if w > 2*tightest+64 {
				continue // stretched: an interrupt or a preemption fell inside
			}
			i := int((raw - raw0) * measureBins / int64(window))
			if i >= measureBins {
				break
			}
			b := &bins[i]
			b.n++
			b.sx += float64(raw - baseRaw)
			b.sy += float64(t0.Add(w / 2).Sub(base))
			m.Kept++
			if m.Kept == 1 {
				first = int(raw - baseRaw)
			}
			last = int(raw - baseRaw)
		}
		if moved {
			continue // the counter was read on two CPUs
		}
		slope, spread, err := fitBins(bins[:])
		if err != nil {
			return m, err
		}
		m.Window = time.Duration(last - first)
		m.Ticks = Tickdelta(math.Round(slope * float64(m.Window)))
		m.SpreadPPM = spread / slope * 1e6
		if slope <= 0 || m.Ticks <= 0 || m.Window <= 0 {
			return m, fmt.Errorf("%w: the counter advanced %v over %v of the raw clock", ErrMeasure, m.Ticks, m.Window)
		}
		m.Hz = uint64(math.Round(slope * 1e9))
		return m, nil
	}
	return m, fmt.Errorf("%w: the thread moved between CPUs in each of %d windows; pin it and try again", ErrMeasure, measureAttempts)
}

// fitBins returns the slope, in ticks a nanosecond, of the least-squares
// line through the bins' mean points, each weighted by its count of
// brackets, and the slope's standard error. A bin whose mean lies further
// from a first line than four times the typical bin's is left out of the
// second; the standard error comes from how the bins scatter about it, so
// that errors shared by a bin's brackets count as they should.
func fitBins(bins []bin) (slope, stderr float64, err error) {
	var keep [measureBins]bool
	for i, b := range bins {
		keep[i] = b.n > 0
	}
	slope, resid, err := fitKept(bins, keep[:])
	if err != nil {
		return 0, 0, err
	}
	typical := make([]float64, 0, len(bins))
	for i := range bins {
		if keep[i] {
			typical = append(typical, math.Abs(resid[i]))
		}
	}
	slices.Sort(typical)
	far := 4*typical[len(typical)/2] + slope // and a nanosecond
	for i := range bins {
		keep[i] = keep[i] && math.Abs(resid[i]) <= far
	}
	if slope, resid, err = fitKept(bins, keep[:]); err != nil {
		return 0, 0, err
	}
	var k, mx, sxx, sse float64
	for i, b := range bins {
		if keep[i] {
			k++
			mx += b.sx / float64(b.n)
		}
	}
	mx /= k
	for i, b := range bins {
		if keep[i] {
			dx := b.sx/float64(b.n) - mx
			sxx += dx * dx
			sse += resid[i] * resid[i]
		}
	}
	return slope, math.Sqrt(sse / (k - 2) / sxx), nil
}

// fitKept fits the weighted line through the kept bins, and returns its
// slope and every bin's residual.
func fitKept(bins []bin, keep []bool) (slope float64, resid []float64, err error) {
	var n, sx, sy float64
	used := 0
	for i, b := range bins {
		if keep[i] {
			n += float64(b.n)
			sx += b.sx
			sy += b.sy
			used++
		}
	}
	if used < 3 {
		return 0, nil, fmt.Errorf("%w: the brackets filled only %d of %d stretches of the window", ErrMeasure, used, len(bins))
	}
	mx, my := sx/n, sy/n
	var sxx, sxy float64
	for i, b := range bins {
		if keep[i] {
			w := float64(b.n)
			dx, dy := b.sx/w-mx, b.sy/w-my
			sxx += w * dx * dx
			sxy += w * dx * dy
		}
	}
	if sxx == 0 {
		return 0, nil, fmt.Errorf("%w: the raw clock did not advance", ErrMeasure)
	}
	slope = sxy / sxx
	resid = make([]float64, len(bins))
	for i, b := range bins {
		if b.n > 0 {
			w := float64(b.n)
			resid[i] = b.sy/w - my - slope*(b.sx/w-mx)
		}
	}
	return slope, resid, nil
}
