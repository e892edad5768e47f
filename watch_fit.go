package counter

import (
	"math"
	"time"
)

// A fitEstimate is what a [rateFit] says of the counter's rate.
type fitEstimate struct {
	hz             float64       // ticks a second of the raw clock; 0 with fewer than two points
	uncertaintyPPM float64       // the standard error of hz; +Inf with fewer than three points
	points         int           // how many points the fit holds
	span           time.Duration // the raw clock's time from the first point to the last
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

// estimate returns the fit's rate and standard error.
func (f *rateFit) estimate() fitEstimate {
	r := fitEstimate{points: f.n, uncertaintyPPM: math.Inf(1), span: time.Duration(f.lastX)}
	if f.n < 2 || f.sxx <= 0 {
		return r
	}
	slope := f.ref + f.sxy/f.sxx
	r.hz = slope * 1e9
	if f.n >= 3 {
		sse := max(0, f.syy-f.sxy*f.sxy/f.sxx)
		r.uncertaintyPPM = math.Sqrt(sse/float64(f.n-2)/f.sxx) / slope * 1e6
	}
	return r
}
