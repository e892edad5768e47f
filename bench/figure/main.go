// Command figure draws, as an SVG on standard output, how far each way of
// converting a span of counter ticks to a time.Duration lands from the
// exact quotient, across the whole range of spans, at this machine's rate
// as counter.Discover finds it:
//
//   - counter's Tickdelta.Duration;
//   - a float64 multiply, time.Duration(float64(d) * 1e9 / hz), as most
//     peers convert;
//   - an int64 multiply and divide, time.Duration(d * 1e9 / hz);
//   - loov/hrtime's Count.ApproxDuration, with the rate it calibrates
//     itself.
//
// From the repository's root (the README's figure):
//
//	cd bench && go run ./figure > figure/conversion-error.svg
package main

import (
	"fmt"
	"io"
	"log"
	"math"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/loov/hrtime"

	"github.com/tickstamp/counter"
)

// A series is one way of converting, and its error at each span.
type series struct {
	name    string
	color   string
	convert func(d int64) time.Duration
}

// A point is a span and how far a conversion of it landed from the exact
// quotient, in nanoseconds (+Inf where it wrapped to the other sign).
type point struct {
	ticks float64
	errNS float64
}

func main() {
	c, err := counter.Discover()
	if err != nil {
		log.Fatalf("figure: %v: the figure needs this machine's counter", err)
	}
	if err := draw(os.Stdout, c.Rate()); err != nil {
		log.Fatal(err)
	}
}

// spans returns the spans the figure converts: four a doubling, from 1
// tick to 2⁶³−1.
func spans() []int64 {
	var out []int64
	for k := 0; k < 63*4; k++ {
		out = append(out, int64(math.Round(math.Pow(2, float64(k)/4))))
	}
	return append(out, math.MaxInt64)
}

// allSeries returns the conversions at rate r.
func allSeries(r counter.TickRate) []series {
	hz := int64(r.Hertz())
	return []series{
		{"counter: Tickdelta.Duration", "#1b7837", func(d int64) time.Duration { return counter.Tickdelta(d).Duration(r) }},
		{"float64 multiply", "#2166ac", func(d int64) time.Duration { return time.Duration(float64(d) * 1e9 / float64(hz)) }},
		{"int64 multiply and divide", "#b2182b", func(d int64) time.Duration { return time.Duration(d * 1e9 / hz) }},
		{"loov/hrtime ApproxDuration (its own rate)", "#e08214", func(d int64) time.Duration { return hrtime.Count(d).ApproxDuration() }},
	}
}

// errors returns how far s lands from the exact d·10⁹/hz at each span.
func errorsOf(s series, hz uint64) []point {
	var out []point
	for _, d := range spans() {
		exact := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(d), big.NewInt(1e9)), new(big.Int).SetUint64(hz))
		got := s.convert(d)
		diff := new(big.Rat).Sub(new(big.Rat).SetInt64(int64(got)), exact)
		e, _ := diff.Abs(diff).Float64()
		if got < 0 {
			e = math.Inf(1) // wrapped past the top to the other sign
		}
		out = append(out, point{float64(d), e})
	}
	return out
}

// The plot's frame, in SVG units, and its axes' decades.
const (
	width, height            = 760, 430
	left, right, top, bottom = 70, 20, 40, 110
	xDecades                 = 19     // 10⁰ to 10¹⁹ ticks
	yLow, yHigh              = -1, 19 // 10⁻¹ to 10¹⁹ ns
)

func x(ticks float64) float64 {
	return left + math.Log10(ticks)/xDecades*(width-left-right)
}

func y(ns float64) float64 {
	l := math.Log10(ns)
	switch {
	case ns <= math.Pow(10, yLow):
		l = yLow
	case math.IsInf(ns, 1) || l > yHigh:
		l = yHigh
	}
	return top + (yHigh-l)/(yHigh-yLow)*(height-top-bottom)
}

// draw writes the SVG.
func draw(w io.Writer, r counter.TickRate) error {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="14">How far a span's conversion to time.Duration lands from the exact quotient, at %v</text>`+"\n", left, r)
	for d := 0; d <= xDecades; d += 3 {
		px := x(math.Pow(10, float64(d)))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/><text x="%.1f" y="%d" text-anchor="middle">1e%d</text>`+"\n", px, top, px, height-bottom, px, height-bottom+16, d)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">span, ticks</text>`+"\n", (left+width-right)/2, height-bottom+34)
	for d := yLow; d <= yHigh; d += 4 {
		py := y(math.Pow(10, float64(d)))
		label := fmt.Sprintf("1e%d", d)
		if d == yLow {
			label = "≤0.1"
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left, py, width-right, py, left-6, py+4, label)
	}
	fmt.Fprintf(&b, `<text x="16" y="%d" transform="rotate(-90 16 %d)" text-anchor="middle">error, ns (top: wrapped)</text>`+"\n", (top+height-bottom)/2, (top+height-bottom)/2)
	for i, s := range allSeries(r) {
		var pts []string
		for _, p := range errorsOf(s, r.Hertz()) {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(p.ticks), y(p.errNS)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", s.color, strings.Join(pts, " "))
		ly := height - bottom + 52 + 14*i
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/><text x="%d" y="%d">%s</text>`+"\n", left, ly-4, left+24, ly-4, s.color, left+30, ly, s.name)
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
