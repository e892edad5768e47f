// A rate's text: how a TickRate is written (String, MarshalText) and read
// back (ParseTickRate, UnmarshalText). The value type is in rate.go.

package counter

import (
	"errors"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The units a rate is written in, largest first.
var rateUnits = [...]struct {
	name string
	hz   uint64
	exp  int // log10(hz)
}{
	{"GHz", 1e9, 9},
	{"MHz", 1e6, 6},
	{"kHz", 1e3, 3},
	{"Hz", 1, 0},
}

// String returns the rate exactly, in the largest of GHz, MHz, kHz and Hz that
// leaves a whole part, with as many decimals as it takes and no more:
// "2.3 GHz", "2.299999917 GHz", "62.5 MHz", "24 MHz", "1 Hz". The zero
// TickRate is "0 Hz". [ParseTickRate] reads every such string of a rate
// back to the same rate, and refuses "0 Hz", as it refuses any zero rate.
func (r TickRate) String() string {
	return string(r.appendText(make([]byte, 0, 32)))
}

// appendText appends the rate's [TickRate.String] form to b.
func (r TickRate) appendText(b []byte) []byte {
	hz := r.Hertz()
	u := rateUnits[len(rateUnits)-1]
	for _, c := range rateUnits {
		if hz >= c.hz {
			u = c
			break
		}
	}
	b = strconv.AppendUint(b, hz/u.hz, 10)
	if frac := hz % u.hz; frac != 0 {
		digits := strconv.AppendUint(make([]byte, 0, 9), frac, 10)
		b = append(b, '.')
		for range u.exp - len(digits) {
			b = append(b, '0')
		}
		b = append(b, strings.TrimRight(string(digits), "0")...)
	}
	b = append(b, ' ')
	return append(b, u.name...)
}

// MarshalText implements [encoding.TextMarshaler] with the [TickRate.String]
// form, so a rate sits in a JSON, YAML or TOML config as "2.3 GHz".
func (r TickRate) MarshalText() ([]byte, error) { return r.appendText(nil), nil }

// UnmarshalText implements [encoding.TextUnmarshaler] with [ParseTickRate].
// With MarshalText it makes a rate a command-line flag through
// [flag.TextVar]: flag.TextVar(&rate, "rate", rate, "the counter's rate").
func (r *TickRate) UnmarshalText(text []byte) error {
	if r == nil {
		return errors.New("counter: TickRate.UnmarshalText: a nil *TickRate has nowhere to keep the rate")
	}
	v, err := ParseTickRate(string(text))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// ParseTickRate parses a rate written as a decimal number, at most one space
// and a unit: "1000000000 Hz", "1 GHz", "2.3GHz", "24 MHz", "2300000 kHz".
// It reads every [TickRate.String] form of a rate back to the same rate,
// and refuses the zero TickRate's "0 Hz".
//
// The number is decimal digits with an optional fraction after a point: 2.3
// and 2300, not .3, 2., 2,3, 1_000, 1e9 or 0x10. The unit is Hz, kHz, MHz or
// GHz, spelt as SI spells it, or spelt all in lower case or all in upper case
// where that cannot mean another unit: hz, HZ, khz, KHZ, ghz and GHZ. So
// megahertz is MHz and only MHz: mhz is refused because a lower-case m is
// SI's milli, and MHZ because it is millihertz in the upper-case-only
// spelling of ISO 2955 and UCUM. The unit mHz, millihertz, is refused
// whatever the number (even "1000 mHz"), since a millihertz is not a whole
// number of hertz and mHz in a counter's rate is more likely a mistyped MHz.
// Other mixes of case, such as KHz or Ghz, are refused with the spelling to
// use.
//
// It refuses white space before or after the rate, a missing or unknown
// unit, a sign, a number in any other form, a rate of zero, a fraction of a
// hertz, a rate past [math.MaxUint64] Hz and anything else, each with an
// error of one shape that quotes s and says which: counter: invalid tick
// rate "1.5 Hz": not a whole number of hertz. An error quotes at most the
// first 64 bytes of s, followed by its length.
func ParseTickRate(s string) (TickRate, error) {
	hz, why := parseHertz(s)
	var sentinel error
	if why == "" && hz == 0 {
		why, sentinel = "zero: a counter that never ticks has no rate", errZeroRate
	}
	if why != "" {
		return TickRate{}, &wrapError{msg: "counter: invalid tick rate " + quoteInput(s) + ": " + why, wrapped: sentinel}
	}
	return NewTickRate(hz)
}

// wantDecimal ends the error of a number that is not written in decimal.
const wantDecimal = "want a decimal number like 2.3"

// parseHertz reads s as [ParseTickRate] documents, returning the rate in
// hertz, zero included, or why s is not a rate, which ParseTickRate puts
// after the quoted input and a colon.
func parseHertz(s string) (hz uint64, why string) {
	if hasEdgeSpace(s) {
		return 0, "white space before or after it"
	}
	n := numberEnd(s)
	num, rest := s[:n], s[n:]
	if why := checkDecimal(num); why != "" {
		return 0, why
	}
	exp, why := unitExponent(rest)
	if why != "" {
		return 0, why
	}
	// Trailing zeros of the fraction change nothing; what remains must be
	// whole hertz: at most exp decimals.
	whole, frac, _ := strings.Cut(num, ".")
	frac = strings.TrimRight(frac, "0")
	if len(frac) > exp {
		return 0, "not a whole number of hertz"
	}
	hz, ok := decimalTimesPow10(whole+frac, exp-len(frac))
	if !ok {
		return 0, "past the largest rate, 18446744073709551615 Hz"
	}
	return hz, ""
}

// hasEdgeSpace reports whether s starts or ends with white space.
func hasEdgeSpace(s string) bool { return strings.TrimSpace(s) != s }

// numberEnd returns the length of the number s starts with, read loosely:
// a sign, a base prefix (0x, 0b, 0o), digits, points, commas, underscores and
// exponents (e9, E+9) after a digit. Reading more than ParseTickRate accepts
// lets it say what is wrong with the number instead of taking its tail for
// a unit: "1e9 Hz" has an exponent, not the unit "e9 Hz".
func numberEnd(s string) int {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	base := basePrefix(s[i:])
	isDigit := isDecimalDigit
	if base != 0 {
		i += 2 // the prefix
	}
	if base == 16 {
		isDigit = isHexDigit
	}
	sawDigit := false
	for i < len(s) {
		c := s[i]
		switch {
		case isDigit(c):
			sawDigit = true
			i++
		case c == '.' || c == ',' || c == '_':
			i++
		case (c == 'e' || c == 'E') && sawDigit && base != 16 && exponentFollows(s[i+1:]):
			i++
			if s[i] == '+' || s[i] == '-' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// exponentFollows reports whether s starts with the digits of an exponent,
// with or without a sign.
func exponentFollows(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && isDecimalDigit(s[0])
}

// basePrefix returns the base of a prefix of Go's integer syntax (0x, 0b or
// 0o, in either case) that s starts with, followed by a digit of that base;
// else 0.
func basePrefix(s string) int {
	if len(s) < 3 || s[0] != '0' {
		return 0
	}
	switch c := s[2]; s[1] {
	case 'x', 'X':
		if isHexDigit(c) {
			return 16
		}
	case 'b', 'B':
		if c == '0' || c == '1' {
			return 2
		}
	case 'o', 'O':
		if c >= '0' && c <= '7' {
			return 8
		}
	}
	return 0
}

func isDecimalDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isDecimalDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// checkDecimal returns why num, as numberEnd cut it, is not decimal digits
// with an optional fraction, or "" if it is.
func checkDecimal(num string) (why string) {
	if num == "" {
		return "no number"
	}
	if num[0] == '-' || num[0] == '+' {
		return "a sign: a rate is a positive number"
	}
	switch basePrefix(num) {
	case 16:
		return "a hexadecimal number: " + wantDecimal
	case 8:
		return "an octal number: " + wantDecimal
	case 2:
		return "a binary number: " + wantDecimal
	}
	if strings.ContainsAny(num, "eE") {
		return "an exponent: " + wantDecimal
	}
	const malformed = "a malformed number: " + wantDecimal
	whole, frac, dot := strings.Cut(num, ".")
	if whole == "" || (dot && frac == "") {
		return malformed
	}
	for _, c := range []byte(whole + frac) {
		if !isDecimalDigit(c) {
			return malformed
		}
	}
	return ""
}

// unitExponent returns the power of ten of the unit that follows the number,
// rest being what follows it, space included, or why it is not a unit that
// [ParseTickRate] reads.
func unitExponent(rest string) (exp int, why string) {
	unit := strings.TrimPrefix(rest, " ")
	switch {
	case unit == "":
		return 0, "no unit: want Hz, kHz, MHz or GHz"
	case hasEdgeSpace(unit):
		return 0, "white space other than one space between the number and the unit"
	case isDecimalDigit(unit[0]):
		return 0, "a space inside the number: " + wantDecimal
	}
	switch unit {
	case "Hz", "hz", "HZ":
		return 0, ""
	case "kHz", "khz", "KHZ":
		return 3, ""
	case "MHz":
		return 6, ""
	case "GHz", "ghz", "GHZ":
		return 9, ""
	case "mHz":
		return 0, "in millihertz, and a millihertz is not a whole number of hertz: for megahertz write MHz"
	case "mhz", "MHZ":
		return 0, "the unit " + strconv.Quote(unit) + ", which could be millihertz or megahertz: for megahertz write MHz"
	}
	for _, u := range rateUnits {
		if strings.EqualFold(unit, u.name) {
			return 0, "the unit " + strconv.Quote(unit) + " in a case not read: write " + u.name
		}
	}
	return 0, "an unknown unit: want Hz, kHz, MHz or GHz"
}

// decimalTimesPow10 returns the decimal digits ds times 10^exp and whether
// that fits a uint64.
func decimalTimesPow10(ds string, exp int) (uint64, bool) {
	var v uint64
	for i := 0; i < len(ds); i++ {
		hi, lo := bits.Mul64(v, 10)
		lo, carry := bits.Add64(lo, uint64(ds[i]-'0'), 0)
		if hi != 0 || carry != 0 {
			return 0, false
		}
		v = lo
	}
	for range exp {
		if v > math.MaxUint64/10 {
			return 0, false
		}
		v *= 10
	}
	return v, true
}

// maxQuoted is the most bytes of its input that an error quotes.
const maxQuoted = 64

// quoteInput quotes s as [strconv.Quote] does when it is at most maxQuoted
// bytes long. A longer s is cut to at most maxQuoted bytes, before any UTF-8
// character the cut would split, and quoted as `"prefix"… (100000 bytes)`
// with its whole length, so that a megabyte of input never makes a megabyte
// of error. The result is at most 4·maxQuoted+2 bytes of quoted prefix (when
// every byte needs a \x escape) and a short suffix.
func quoteInput(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	// s[cut] is the first byte left out: while it continues a character,
	// leave that character out too. A valid character is at most UTFMax
	// bytes, so a run of stray continuation bytes stops this after UTFMax−1.
	for back := 0; back < utf8.UTFMax-1 && !utf8.RuneStart(s[cut]); back++ {
		cut--
	}
	return strconv.Quote(s[:cut]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
