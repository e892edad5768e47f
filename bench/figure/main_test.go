package main

import (
	"math"
	"strings"
	"testing"

	"github.com/tickstamp/counter"
)

// TestSeries checks the figure's data at a fixed rate: counter's
// conversion within a nanosecond of the exact quotient at every span; the
// float64 multiply within a nanosecond on short spans (it truncates) and
// off past 2⁵³ ticks; the int64
// one wrapped past 2⁶³/10⁹ ticks. (hrtime's depends on its calibration
// here, and is only drawn.)
func TestSeries(t *testing.T) {
	r, err := counter.NewTickRate(2_599_998_131)
	if err != nil {
		t.Fatal(err)
	}
	all := allSeries(r)
	for _, p := range errorsOf(all[0], r.Hertz()) {
		if p.errNS > 1 {
			t.Errorf("counter: %g ticks off by %g ns; want at most 1", p.ticks, p.errNS)
		}
	}
	var floatOff, intWrapped bool
	for _, p := range errorsOf(all[1], r.Hertz()) {
		if p.ticks < 1<<20 && p.errNS >= 1 {
			t.Errorf("float64: %g ticks off by %g ns; want within a nanosecond (it truncates)", p.ticks, p.errNS)
		}
		floatOff = floatOff || p.ticks > 1<<53 && p.errNS > 1
	}
	for _, p := range errorsOf(all[2], r.Hertz()) {
		intWrapped = intWrapped || p.ticks > math.MaxInt64/1e9 && math.IsInf(p.errNS, 1)
	}
	if !floatOff || !intWrapped {
		t.Errorf("float64 off past 2⁵³ %v, int64 wrapped %v; want both", floatOff, intWrapped)
	}
}

// TestDraw checks that draw writes one SVG with a line for each series.
func TestDraw(t *testing.T) {
	r, _ := counter.NewTickRate(2_599_998_131)
	var b strings.Builder
	if err := draw(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "<svg ") || !strings.HasSuffix(out, "</svg>\n") || strings.Count(out, "<polyline") != len(allSeries(r)) {
		t.Errorf("draw wrote no SVG of %d lines:\n%.300s", len(allSeries(r)), out)
	}
}
