package main

import (
	"math"
	"strconv"
	"strings"
)

// ppmDigits is how many significant digits the table and -watch's lines
// print a ppm figure with, whatever its size.
const ppmDigits = 2

// ppmJSONDigits is how many significant digits -json keeps of a ppm figure
// at least: one more than the table prints, so that the table's last digit
// is one the JSON holds.
const ppmJSONDigits = 3

// formatPPM returns x, a figure in ppm, as the table and -watch's lines
// print it, without the unit: to ppmDigits (two) significant digits
// whatever its size (0.00031, 0.50, 12), but with every digit of its whole
// part (1234, not 1200); below 10⁻⁶ in exponent form (3.1e-09), which keeps
// the two digits without a row of zeros; 0 as "0". Where signed, a positive
// figure has a "+" (+0.50); a negative one always has its "-". NaN prints
// as "NaN" and an infinity as "Inf" with its sign ("+Inf" where signed).
// So no figure that is not 0 prints as 0, and none claims a digit it does
// not have.
func formatPPM(x float64, signed bool) string {
	plus := ""
	if signed {
		plus = "+"
	}
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return plus + "Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	case x == 0:
		return "0"
	}
	// The exponent of x rounded to ppmDigits digits: 9.96 rounds to 10,
	// whose two digits are both whole.
	e := strconv.FormatFloat(x, 'e', ppmDigits-1, 64)
	exp, err := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if err != nil || exp < -6 {
		return signPlus(e, x, plus)
	}
	return signPlus(strconv.FormatFloat(x, 'f', max(0, ppmDigits-1-exp), 64), x, plus)
}

// signPlus returns s, the figure x, with plus before it where x is above 0.
func signPlus(s string, x float64, plus string) string {
	if x > 0 {
		return plus + s
	}
	return s
}

// roundPPM rounds a ppm figure for -json: to decimals places, or to
// ppmJSONDigits (three) significant digits where those reach further, so
// that a figure too small for the decimals is not rounded to 0, nor to
// fewer digits than the table prints. A larger figure keeps its decimals,
// as it did before: 1234.5678 to three decimals is 1234.568.
func roundPPM(x float64, decimals int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) >= math.Pow10(ppmJSONDigits-1-decimals) {
		return round(x, decimals)
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'e', ppmJSONDigits-1, 64), 64)
	if err != nil {
		return x
	}
	return v
}
