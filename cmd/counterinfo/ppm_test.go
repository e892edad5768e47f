package main

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/tickstamp/counter"
)

// TestFormatPPM checks that a ppm figure prints with two significant
// digits whatever its size, every digit of its whole part, and its sign.
func TestFormatPPM(t *testing.T) {
	for _, tc := range []struct {
		x              float64
		plain, signedS string
	}{
		{0, "0", "0"},
		{math.Copysign(0, -1), "0", "0"},
		{3.1e-9, "3.1e-09", "+3.1e-09"},
		{1e-6, "0.0000010", "+0.0000010"},
		{0.0003, "0.00030", "+0.00030"},
		{0.00031, "0.00031", "+0.00031"},
		{0.000312, "0.00031", "+0.00031"},
		{0.012, "0.012", "+0.012"},
		{0.0999, "0.10", "+0.10"},
		{0.5, "0.50", "+0.50"},
		{1.2, "1.2", "+1.2"},
		{9.96, "10", "+10"},
		{12, "12", "+12"},
		{1234, "1234", "+1234"},
		{1234.56, "1235", "+1235"},
		{-0.00031, "-0.00031", "-0.00031"},
		{-0.5, "-0.50", "-0.50"},
		{-12, "-12", "-12"},
		{math.NaN(), "NaN", "NaN"},
		{math.Inf(1), "Inf", "+Inf"},
		{math.Inf(-1), "-Inf", "-Inf"},
	} {
		if got := formatPPM(tc.x, false); got != tc.plain {
			t.Errorf("formatPPM(%v, false) = %q; want %q", tc.x, got, tc.plain)
		}
		if got := formatPPM(tc.x, true); got != tc.signedS {
			t.Errorf("formatPPM(%v, true) = %q; want %q", tc.x, got, tc.signedS)
		}
	}
}

// TestFormatPPMKeepsTheFigure checks, over figures from 10⁻¹² to 10⁶ of
// both signs, that what formatPPM prints reads back within half a unit of
// its second significant digit of the figure: never 0 for a figure that is
// not, and never more than the two digits and the whole part.
func TestFormatPPMKeepsTheFigure(t *testing.T) {
	for e := -12.0; e <= 6; e += 0.01 {
		for _, x := range []float64{math.Pow(10, e), -math.Pow(10, e)} {
			s := formatPPM(x, true)
			got, err := strconv.ParseFloat(s, 64)
			if err != nil || got == 0 || math.Abs(got-x) > 0.05*math.Abs(x) {
				t.Fatalf("formatPPM(%v) = %q; want two significant digits of it", x, s)
			}
			if digits := strings.TrimLeft(strings.Map(keepDigits, mantissa(s)), "0"); len(digits) > max(2, len(wholePart(s))) {
				t.Fatalf("formatPPM(%v) = %q: more digits than two and the whole part", x, s)
			}
		}
	}
}

func keepDigits(r rune) rune {
	if r >= '0' && r <= '9' {
		return r
	}
	return -1
}

// mantissa returns s without its exponent.
func mantissa(s string) string {
	m, _, _ := strings.Cut(s, "e")
	return m
}

// wholePart returns the digits of s before its point, less leading zeros.
func wholePart(s string) string {
	w, _, _ := strings.Cut(mantissa(s), ".")
	return strings.TrimLeft(strings.Map(keepDigits, w), "0")
}

// TestRoundPPM checks -json's rounding of ppm figures: to the decimals as
// before where the figure is large enough, to three significant digits
// where that keeps more, so that no figure rounds to 0.
func TestRoundPPM(t *testing.T) {
	for _, tc := range []struct {
		x        float64
		decimals int
		want     float64
	}{
		{0, 3, 0},
		{1234.56789, 3, 1234.568},
		{0.5004, 3, 0.5},
		{0.1234, 3, 0.123},
		{0.0312345, 3, 0.0312},
		{0.000312345, 4, 0.000312},
		{-0.000312345, 3, -0.000312},
		{3.12345e-9, 4, 3.12e-9},
		{0.00031, 4, 0.00031},
		{2.5, 4, 2.5},
	} {
		if got := roundPPM(tc.x, tc.decimals); got != tc.want {
			t.Errorf("roundPPM(%v, %d) = %v; want %v", tc.x, tc.decimals, got, tc.want)
		}
	}
	if got := roundPPM(math.Inf(1), 3); !math.IsInf(got, 1) {
		t.Errorf("roundPPM(+Inf) = %v", got)
	}
}

// TestPPMInTable checks that the table prints each ppm figure of a report
// with its two digits, none as zero where the JSON holds more.
func TestPPMInTable(t *testing.T) {
	r := newReport()
	r.Usable, r.Rate, r.RateHz, r.KernelHz = true, "1 GHz", 1e9, 1e9
	r.UncertaintyPPM, r.KernelPPM, r.DriftPPM, r.DriftBoundPPM = 0.000312, -0.0312, 0.00031, 0.0003
	var b strings.Builder
	if err := writeTable(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"uncertainty    0.00031 ppm:", "vs kernel      -0.031 ppm from",
		"drift          +0.00031 ppm against", "(this check can tell ±0.00030 ppm)",
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("the table does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "0.000 ppm") || strings.Contains(out, "0.0000 ppm") {
		t.Errorf("the table prints a ppm figure as zero:\n%s", out)
	}
}

// TestEventText checks -watch's text line of an event: a figure in ppm with
// two significant digits, and every other event as its String.
func TestEventText(t *testing.T) {
	e := counter.Event{Kind: counter.EventRate, Severity: counter.Degraded, Value: -0.00031, Threshold: 0.012, Err: errors.New("why")}
	if got, want := eventText(e), "rate (degraded): -0.00031 ppm, threshold ±0.012 ppm: why"; got != want {
		t.Errorf("eventText = %q; want %q", got, want)
	}
	if !strings.HasPrefix(eventText(e), strings.SplitN(e.String(), ":", 2)[0]+": ") {
		t.Errorf("eventText %q does not start as String %q", eventText(e), e.String())
	}
	for _, e := range []counter.Event{
		{Kind: counter.EventJump, Severity: counter.Untrusted, Value: 1234.5, Threshold: 100},
		{Kind: counter.EventClocksource, Severity: counter.Untrusted, From: "tsc", To: "hpet"},
	} {
		if got := eventText(e); got != e.String() {
			t.Errorf("eventText = %q; want String's %q", got, e.String())
		}
	}
}
