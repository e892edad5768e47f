package counter

import (
	"math"
	"time"
)

// A Refined is a [Watch]'s best estimate of the counter's rate against the
// raw monotonic clock, from every check since it started (since the last
// change of rate it confirmed, where it confirmed one).
type Refined struct {
	// Hz is the rate in ticks a second of the raw clock; 0 where the watch
	// has fewer than two checks.
	Hz float64
	// UncertaintyPPM is the standard error of Hz, in parts per million,
	// from how the checks scatter about the fitted line; +Inf where there
	// are fewer than three checks.
	UncertaintyPPM float64
	// Checks is how many checks the fit is made of, and Span the raw
	// clock's time from the first to the last.
	Checks int
	Span   time.Duration
}

// Rate returns Hz rounded to the nearest hertz as a [TickRate], ready for
// [New]; an error where there is no estimate yet.
func (r Refined) Rate() (TickRate, error) {
	if r.Hz < 0.5 || math.IsNaN(r.Hz) {
		return TickRate{}, &wrapError{msg: "counter: the watch has no refined rate yet: it needs two checks", wrapped: errZeroRate}
	}
	return NewTickRate(uint64(math.Round(r.Hz)))
}

// A rateFit is the least-squares line through a watch's checks, kept as
// running sums: O(1) memory however long the watch runs. Each point is a
// check's mean bracket: the raw clock x, in nanoseconds from the first
// point, and the counter y, in ticks from the first point less ref·x, so
// that the sums hold the small departures from the reference slope ref
// (ticks a nanosecond) and not the counter's whole advance, which would
// leave the residuals below float64's precision after a few seconds. The
// sums are Welford's: means and centred sums of squares and products.
type rateFit struct {
	ref           float64 // ticks a nanosecond
	x0            int64
	y0            float64 // ticks, from the segment's first bracket's midpoint
	n             int
	mx, my        float64
	sxx, sxy, syy float64
	lastX         float64
}

// reset starts a new fit at slope ref.
func (f *rateFit) reset(ref float64) { *f = rateFit{ref: ref} }

// add adds a point: raw in nanoseconds, and the counter's place relative to
// some fixed origin, in ticks.
func (f *rateFit) add(raw int64, ticks float64) {
	if f.n == 0 {
		f.x0, f.y0 = raw, ticks
	}
	x := float64(raw - f.x0)
	y := ticks - f.y0 - f.ref*x
	f.n++
	dx := x - f.mx
	f.mx += dx / float64(f.n)
	dy := y - f.my
	f.my += dy / float64(f.n)
	f.sxx += dx * (x - f.mx)
	f.sxy += dx * (y - f.my)
	f.syy += dy * (y - f.my)
	f.lastX = x
}

// refined returns the fit's rate and standard error.
func (f *rateFit) refined() Refined {
	r := Refined{Checks: f.n, UncertaintyPPM: math.Inf(1), Span: time.Duration(f.lastX)}
	if f.n < 2 || f.sxx <= 0 {
		return r
	}
	slope := f.ref + f.sxy/f.sxx
	r.Hz = slope * 1e9
	if f.n >= 3 {
		sse := max(0, f.syy-f.sxy*f.sxy/f.sxx)
		r.UncertaintyPPM = math.Sqrt(sse/float64(f.n-2)/f.sxx) / slope * 1e6
	}
	return r
}
