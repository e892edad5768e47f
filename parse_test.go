package counter

import (
	"encoding"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"
)

// A rate is text in a config or on a command line; readings and spans are
// plain integers (see TestJSONConfig).
var (
	_ encoding.TextMarshaler   = TickRate{}
	_ encoding.TextUnmarshaler = (*TickRate)(nil)
)

func TestTickRateString(t *testing.T) {
	tests := []struct {
		hz   uint64
		want string
	}{
		{0, "0 Hz"},
		{1, "1 Hz"},
		{999, "999 Hz"},
		{1000, "1 kHz"},
		{1500, "1.5 kHz"},
		{1001, "1.001 kHz"},
		{24_000_000, "24 MHz"},
		{62_500_000, "62.5 MHz"},
		{19_200_000, "19.2 MHz"},
		{1e9, "1 GHz"},
		{2_300_000_000, "2.3 GHz"},
		{2_299_999_917, "2.299999917 GHz"},
		{3_000_000_001, "3.000000001 GHz"},
		{math.MaxUint64, "18446744073.709551615 GHz"},
	}
	for _, tt := range tests {
		r, _ := NewTickRate(tt.hz) // the zero TickRate for 0
		if got := r.String(); got != tt.want {
			t.Errorf("TickRate(%d Hz).String() = %q; want %q", tt.hz, got, tt.want)
		}
	}
}

func TestParseTickRate(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
	}{
		{"1000000000 Hz", 1e9},
		{"1 GHz", 1e9},
		{"2.3GHz", 2_300_000_000},
		{"2.3 GHz", 2_300_000_000},
		{"24 MHz", 24_000_000},
		{"24MHz", 24_000_000},
		{"62.5 MHz", 62_500_000},
		{"2300000 kHz", 2_300_000_000},
		{"2.299999917 GHz", 2_299_999_917},
		{"0001 Hz", 1},
		{"1.000000000 Hz", 1},
		{"0.000000001 GHz", 1},
		{"18446744073.709551615 GHz", math.MaxUint64},
		{"18446744073709551615 Hz", math.MaxUint64},
		// Every other spelling of a unit that is read: all lower or all
		// upper case, where that cannot mean another unit.
		{"1 hz", 1},
		{"1 HZ", 1},
		{"1.5 khz", 1500},
		{"1.500 KHZ", 1500},
		{"2.3 ghz", 2_300_000_000},
		{"2.3GHZ", 2_300_000_000},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			r, err := ParseTickRate(tt.in)
			if err != nil {
				t.Fatalf("ParseTickRate(%q): %v", tt.in, err)
			}
			if r.Hertz() != tt.want {
				t.Fatalf("ParseTickRate(%q) = %d Hz; want %d Hz", tt.in, r.Hertz(), tt.want)
			}
			if want, _ := NewTickRate(tt.want); r != want {
				t.Fatalf("ParseTickRate(%q) = %+v; want %+v", tt.in, r, want)
			}
		})
	}
}

func TestParseTickRateErrors(t *testing.T) {
	long := strings.Repeat("1", 100_000)
	tests := []struct {
		in, want string
	}{
		// White space around the rate.
		{" 2.3 GHz", `counter: invalid tick rate " 2.3 GHz": white space before or after it`},
		{"2.3 GHz ", `counter: invalid tick rate "2.3 GHz ": white space before or after it`},
		{"2.3 GHz\n", `counter: invalid tick rate "2.3 GHz\n": white space before or after it`},
		{"\u00a02.3 GHz", `counter: invalid tick rate "\u00a02.3 GHz": white space before or after it`},
		{" ", `counter: invalid tick rate " ": white space before or after it`},

		// The number.
		{"", `counter: invalid tick rate "": no number`},
		{"GHz", `counter: invalid tick rate "GHz": no number`},
		{"e9 Hz", `counter: invalid tick rate "e9 Hz": no number`},
		{"-1 GHz", `counter: invalid tick rate "-1 GHz": a sign: a rate is a positive number`},
		{"+1 GHz", `counter: invalid tick rate "+1 GHz": a sign: a rate is a positive number`},
		{"-0x10 Hz", `counter: invalid tick rate "-0x10 Hz": a sign: a rate is a positive number`},
		{"0x10 Hz", `counter: invalid tick rate "0x10 Hz": a hexadecimal number: want a decimal number like 2.3`},
		{"0X1f GHz", `counter: invalid tick rate "0X1f GHz": a hexadecimal number: want a decimal number like 2.3`},
		{"0xAGHz", `counter: invalid tick rate "0xAGHz": a hexadecimal number: want a decimal number like 2.3`},
		{"0b101 Hz", `counter: invalid tick rate "0b101 Hz": a binary number: want a decimal number like 2.3`},
		{"0o17 Hz", `counter: invalid tick rate "0o17 Hz": an octal number: want a decimal number like 2.3`},
		{"1e9 Hz", `counter: invalid tick rate "1e9 Hz": an exponent: want a decimal number like 2.3`},
		{"1e9Hz", `counter: invalid tick rate "1e9Hz": an exponent: want a decimal number like 2.3`},
		{"2.3E+9 Hz", `counter: invalid tick rate "2.3E+9 Hz": an exponent: want a decimal number like 2.3`},
		{"1e-3 GHz", `counter: invalid tick rate "1e-3 GHz": an exponent: want a decimal number like 2.3`},
		{"1e9", `counter: invalid tick rate "1e9": an exponent: want a decimal number like 2.3`},
		{"2,3 GHz", `counter: invalid tick rate "2,3 GHz": a malformed number: want a decimal number like 2.3`},
		{"1_000 Hz", `counter: invalid tick rate "1_000 Hz": a malformed number: want a decimal number like 2.3`},
		{"2. GHz", `counter: invalid tick rate "2. GHz": a malformed number: want a decimal number like 2.3`},
		{".5 GHz", `counter: invalid tick rate ".5 GHz": a malformed number: want a decimal number like 2.3`},
		{"1.2.3 GHz", `counter: invalid tick rate "1.2.3 GHz": a malformed number: want a decimal number like 2.3`},
		{"1 000 Hz", `counter: invalid tick rate "1 000 Hz": a space inside the number: want a decimal number like 2.3`},

		// The unit.
		{"2300000000", `counter: invalid tick rate "2300000000": no unit: want Hz, kHz, MHz or GHz`},
		{"2.3  GHz", `counter: invalid tick rate "2.3  GHz": white space other than one space between the number and the unit`},
		{"2.3\tGHz", `counter: invalid tick rate "2.3\tGHz": white space other than one space between the number and the unit`},
		{"2.3 THz", `counter: invalid tick rate "2.3 THz": an unknown unit: want Hz, kHz, MHz or GHz`},
		{"2.3 ticks", `counter: invalid tick rate "2.3 ticks": an unknown unit: want Hz, kHz, MHz or GHz`},
		{"1EHz", `counter: invalid tick rate "1EHz": an unknown unit: want Hz, kHz, MHz or GHz`},
		{"1 Hz/s", `counter: invalid tick rate "1 Hz/s": an unknown unit: want Hz, kHz, MHz or GHz`},
		{"1 GHz GHz", `counter: invalid tick rate "1 GHz GHz": an unknown unit: want Hz, kHz, MHz or GHz`},
		{"24 \u3392", `counter: invalid tick rate "24 ㎒": an unknown unit: want Hz, kHz, MHz or GHz`},
		{"1 mHz", `counter: invalid tick rate "1 mHz": in millihertz, and a millihertz is not a whole number of hertz: for megahertz write MHz`},
		{"1000 mHz", `counter: invalid tick rate "1000 mHz": in millihertz, and a millihertz is not a whole number of hertz: for megahertz write MHz`},
		{"62.5 mhz", `counter: invalid tick rate "62.5 mhz": the unit "mhz", which could be millihertz or megahertz: for megahertz write MHz`},
		{"62.5 MHZ", `counter: invalid tick rate "62.5 MHZ": the unit "MHZ", which could be millihertz or megahertz: for megahertz write MHz`},
		{"1 Mhz", `counter: invalid tick rate "1 Mhz": the unit "Mhz" in a case not read: write MHz`},
		{"1 mHZ", `counter: invalid tick rate "1 mHZ": the unit "mHZ" in a case not read: write MHz`},
		{"1 KHz", `counter: invalid tick rate "1 KHz": the unit "KHz" in a case not read: write kHz`},
		{"1 Khz", `counter: invalid tick rate "1 Khz": the unit "Khz" in a case not read: write kHz`},
		{"1 \u212aHz", "counter: invalid tick rate \"1 \u212aHz\": the unit \"\u212aHz\" in a case not read: write kHz"}, // Kelvin sign
		{"1 Ghz", `counter: invalid tick rate "1 Ghz": the unit "Ghz" in a case not read: write GHz`},
		{"1 gHz", `counter: invalid tick rate "1 gHz": the unit "gHz" in a case not read: write GHz`},
		{"1 hZ", `counter: invalid tick rate "1 hZ": the unit "hZ" in a case not read: write Hz`},

		// The value.
		{"0 Hz", `counter: invalid tick rate "0 Hz": zero: a counter that never ticks has no rate`},
		{"0.000 GHz", `counter: invalid tick rate "0.000 GHz": zero: a counter that never ticks has no rate`},
		{"1.5 Hz", `counter: invalid tick rate "1.5 Hz": not a whole number of hertz`},
		{"0.5 Hz", `counter: invalid tick rate "0.5 Hz": not a whole number of hertz`},
		{"0.0000000001 GHz", `counter: invalid tick rate "0.0000000001 GHz": not a whole number of hertz`},
		{"18446744073709551616 Hz", `counter: invalid tick rate "18446744073709551616 Hz": past the largest rate, 18446744073709551615 Hz`},
		{"18446744073.709551616 GHz", `counter: invalid tick rate "18446744073.709551616 GHz": past the largest rate, 18446744073709551615 Hz`},
		{"99999999999999999999999 GHz", `counter: invalid tick rate "99999999999999999999999 GHz": past the largest rate, 18446744073709551615 Hz`},

		// A long input is quoted in part, with its length.
		{long + " Hz", `counter: invalid tick rate "` + long[:64] + `"… (100003 bytes): past the largest rate, 18446744073709551615 Hz`},
		{"1 " + long, `counter: invalid tick rate "1 ` + long[:62] + `"… (100002 bytes): a space inside the number: want a decimal number like 2.3`},
		{"0." + strings.Repeat("0", 100) + "1 GHz", `counter: invalid tick rate "0.` + strings.Repeat("0", 62) + `"… (107 bytes): not a whole number of hertz`},
		{"1 " + strings.Repeat("Hz", 50_000), `counter: invalid tick rate "1 ` + strings.Repeat("Hz", 31) + `"… (100002 bytes): an unknown unit: want Hz, kHz, MHz or GHz`},
	}
	for _, tt := range tests {
		t.Run(tt.in[:min(len(tt.in), 40)], func(t *testing.T) {
			r, err := ParseTickRate(tt.in)
			if err == nil {
				t.Fatalf("ParseTickRate(%q) = %v; want an error", tt.in, r)
			}
			if got := err.Error(); got != tt.want {
				t.Fatalf("ParseTickRate(%q) error\n got %s\nwant %s", tt.in, got, tt.want)
			}
			if r != (TickRate{}) {
				t.Fatalf("ParseTickRate(%q) = %+v with its error; want the zero TickRate", tt.in, r)
			}
			if zero := strings.Contains(tt.want, ": zero:"); errors.Is(err, errZeroRate) != zero {
				t.Fatalf("ParseTickRate(%q): errors.Is(err, errZeroRate) = %v; want %v", tt.in, !zero, zero)
			}
		})
	}
}

// invalidRateHead is how every error of a rate's parsers starts: what was
// refused, the input as quoteInput quotes it, and a colon before the reason.
func invalidRateHead(s string) string {
	return "counter: invalid tick rate " + quoteInput(s) + ": "
}

// TestRateParsersErrorShape checks that every way a rate's text is read
// refuses bad input with an error of one shape, which quotes the input and
// then gives a reason, and that it leaves the rate it was reading into
// alone. The error reaches errors.Is where the reader passes it on; the flag
// package puts its text in a message of its own.
func TestRateParsersErrorShape(t *testing.T) {
	start, _ := NewTickRate(24_000_000)
	parsers := []struct {
		name   string
		parse  func(s string) (TickRate, error)
		passed bool // the error itself comes back, for errors.Is
	}{
		{"ParseTickRate", ParseTickRate, true},
		{"TickRate.UnmarshalText", func(s string) (TickRate, error) {
			r := start
			err := r.UnmarshalText([]byte(s))
			return r, err
		}, true},
		{"json.Unmarshal", func(s string) (TickRate, error) {
			r := start
			b, _ := json.Marshal(s)
			err := json.Unmarshal(b, &r)
			return r, err
		}, true},
		{"flag.TextVar", func(s string) (TickRate, error) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(new(discard))
			var r TickRate
			fs.TextVar(&r, "rate", start, "")
			err := fs.Parse([]string{"-rate", s})
			return r, err
		}, false},
	}
	inputs := []string{
		"", "2.3 GZ", " 2.3 GHz", "2.3", "0x10 Hz", "1 mhz", "1 KHz",
		"0 Hz", "1.5 Hz", "18446744073709551616 Hz", strings.Repeat("9", 100) + " Hz",
	}
	for _, p := range parsers {
		for _, s := range inputs {
			r, err := p.parse(s)
			if err == nil {
				t.Errorf("%s(%q) = %v; want an error", p.name, s, r)
				continue
			}
			head := invalidRateHead(s)
			msg := err.Error()
			_, reason, ok := strings.Cut(msg, head)
			if !ok || reason == "" || !p.passed && !strings.HasSuffix(msg, head+reason) {
				t.Errorf("%s(%q) error %q; want %q and a reason", p.name, s, msg, head)
			}
			if p.passed && !strings.HasPrefix(msg, head) {
				t.Errorf("%s(%q) error %q; want it to start %q", p.name, s, msg, head)
			}
			if p.passed && errors.Is(err, errZeroRate) != (s == "0 Hz") {
				t.Errorf("%s(%q): errors.Is(err, errZeroRate) = %v; want %v", p.name, s, !(s == "0 Hz"), s == "0 Hz")
			}
			if r != start && p.name != "ParseTickRate" {
				t.Errorf("%s(%q) changed the rate to %v", p.name, s, r)
			}
		}
	}
}

func TestQuoteInput(t *testing.T) {
	a := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		in, want string
	}{
		{"", `""`},
		{"2.3 GHz", `"2.3 GHz"`},
		{a(64), `"` + a(64) + `"`},
		{a(65), `"` + a(64) + `"… (65 bytes)`},
		{a(100_000), `"` + a(64) + `"… (100000 bytes)`},
		// A character the cut would split is left out whole.
		{a(63) + "é" + a(10), `"` + a(63) + `"… (75 bytes)`},
		{a(62) + "é" + a(10), `"` + a(62) + `é"… (74 bytes)`},
		{a(61) + "😀" + a(10), `"` + a(61) + `"… (75 bytes)`},
		{a(60) + "😀" + a(10), `"` + a(60) + `😀"… (74 bytes)`},
		// Bytes that are not UTF-8 are escaped, and a run of stray
		// continuation bytes costs at most three bytes of the prefix.
		{strings.Repeat("\xff", 70), `"` + strings.Repeat(`\xff`, 64) + `"… (70 bytes)`},
		{strings.Repeat("\x80", 70), `"` + strings.Repeat(`\x80`, 61) + `"… (70 bytes)`},
	}
	for _, tt := range tests {
		if got := quoteInput(tt.in); got != tt.want {
			t.Errorf("quoteInput(%.20q… %d bytes)\n got %s\nwant %s", tt.in, len(tt.in), got, tt.want)
		}
	}
}

// TestQuoteInputProperties checks quoteInput on any string: it quotes a
// short one whole, and of a long one the longest prefix of at most
// maxQuoted bytes that splits no character, then its whole length.
func TestQuoteInputProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.String(),
			rapid.StringN(50, 200, -1),
			rapid.StringOfN(rapid.RuneFrom([]rune{'a', 'é', '€', '😀'}), 10, 100, -1),
			rapid.Map(rapid.SliceOfN(rapid.Byte(), 50, 100), func(b []byte) string { return string(b) }),
		).Draw(t, "s")
		got := quoteInput(s)
		if len(s) <= maxQuoted {
			if want := strconv.Quote(s); got != want {
				t.Fatalf("quoteInput(%q) = %s; want %s", s, got, want)
			}
			return
		}
		quoted, ok := strings.CutSuffix(got, "… ("+strconv.Itoa(len(s))+" bytes)")
		if !ok {
			t.Fatalf("quoteInput(%q) = %s; want it to end with the length, %d bytes", s, got, len(s))
		}
		p, err := strconv.Unquote(quoted)
		if err != nil || !strings.HasPrefix(s, p) || len(p) > maxQuoted || len(p) < maxQuoted-(utf8.UTFMax-1) {
			t.Fatalf("quoteInput(%q) = %s; want a quoted prefix of %d to %d bytes", s, got, maxQuoted-(utf8.UTFMax-1), maxQuoted)
		}
		if utf8.ValidString(s) {
			_, next := utf8.DecodeRuneInString(s[len(p):])
			if !utf8.ValidString(p) || len(p)+next <= maxQuoted {
				t.Fatalf("quoteInput(%q) = %s; want the longest prefix of whole characters within %d bytes", s, got, maxQuoted)
			}
		}
	})
}

func TestTicksString(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Tickstamp(1000).String(), "1000 ticks"},
		{Tickstamp(1).String(), "1 tick"},
		{Tickstamp(0).String(), "0 ticks"},
		{Tickdelta(-1000).String(), "-1000 ticks"},
		{Tickdelta(-1).String(), "-1 tick"},
		{minTickdelta.String(), "-9223372036854775808 ticks"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q; want %q", tt.got, tt.want)
		}
	}
}

// TestRoundTrip checks that a rate's String and ParseTickRate round-trip
// exactly for every rate.
func TestRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r, _ := NewTickRate(rateGen().Draw(t, "hz"))
		if got, err := ParseTickRate(r.String()); err != nil || got != r {
			t.Fatalf("ParseTickRate(%q) = %v, %v; want %v", r.String(), got, err, r)
		}
		text, err := r.MarshalText()
		var back TickRate
		if err != nil || string(text) != r.String() || back.UnmarshalText(text) != nil || back != r {
			t.Fatalf("MarshalText = %q, %v, read back as %v; want %q and %v", text, err, back, r.String(), r)
		}
	})
}

// TestZeroRateText: the zero TickRate writes as "0 Hz", as String does, and
// ParseTickRate refuses it, as it refuses every zero rate.
func TestZeroRateText(t *testing.T) {
	var zero TickRate
	if text, err := zero.MarshalText(); err != nil || string(text) != "0 Hz" || zero.String() != "0 Hz" {
		t.Fatalf("the zero TickRate writes as %q, %v (String %q); want \"0 Hz\"", text, err, zero.String())
	}
	if r, err := ParseTickRate("0 Hz"); !errors.Is(err, errZeroRate) || r != zero {
		t.Fatalf("ParseTickRate(\"0 Hz\") = %v, %v; want the zero-rate error", r, err)
	}
}

// A config that holds all three types, as a service would.
type config struct {
	Rate  TickRate  `json:"rate"`
	Start Tickstamp `json:"start"`
	Span  Tickdelta `json:"span"`
}

func TestJSONConfig(t *testing.T) {
	rate, _ := NewTickRate(2_300_000_000)
	in := config{Rate: rate, Start: 12345, Span: -7}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"rate":"2.3 GHz","start":12345,"span":-7}`; got != want {
		t.Fatalf("json.Marshal = %s; want %s", got, want)
	}
	var out config
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Fatalf("json round trip = %+v; want %+v", out, in)
	}
	err = json.Unmarshal([]byte(`{"rate":"fast"}`), &out)
	if err == nil || out.Rate != rate {
		t.Fatalf("json.Unmarshal of a bad rate: err %v, rate %v; want an error and the rate untouched", err, out.Rate)
	}
}

func TestTickRateFlag(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(new(discard))
	var r TickRate
	fs.TextVar(&r, "rate", TickRate{}, "the counter's rate")
	if err := fs.Parse([]string{"-rate", "24MHz"}); err != nil {
		t.Fatal(err)
	}
	if r.Hertz() != 24_000_000 {
		t.Fatalf("-rate 24MHz gave %v; want 24 MHz", r)
	}
	if err := fs.Parse([]string{"-rate", "0 Hz"}); err == nil {
		t.Fatal("-rate '0 Hz' was accepted; want an error")
	}
	if r.Hertz() != 24_000_000 {
		t.Fatalf("a refused -rate changed the rate to %v", r)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// A fatalfer is what the checks below need of a *testing.T or a *rapid.T.
type fatalfer interface {
	Fatalf(format string, args ...any)
}

// maxErrorLen bounds the message of every parser's error, whatever the
// length of its input: the prefix quoteInput keeps, at most four bytes each
// once escaped, and the longest explanation.
const maxErrorLen = 4*maxQuoted + 200

// rateSyntax is the grammar ParseTickRate documents, written out apart from
// its code: decimal digits, an optional fraction, at most one space, and one
// of the spellings of a unit it reads.
var rateSyntax = regexp.MustCompile(`^([0-9]+)(?:\.([0-9]+))? ?(Hz|hz|HZ|kHz|khz|KHZ|MHz|GHz|ghz|GHZ)$`)

var unitExponents = map[string]int64{
	"Hz": 0, "hz": 0, "HZ": 0,
	"kHz": 3, "khz": 3, "KHZ": 3,
	"MHz": 6,
	"GHz": 9, "ghz": 9, "GHZ": 9,
}

// referenceRate is ParseTickRate's contract worked out by math/big: the rate
// s names in hertz, and whether ParseTickRate must accept it.
func referenceRate(s string) (hz uint64, ok bool) {
	m := rateSyntax.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	ten := big.NewInt(10)
	n, _ := new(big.Int).SetString(m[1]+m[2], 10)
	n.Mul(n, new(big.Int).Exp(ten, big.NewInt(unitExponents[m[3]]), nil))
	q, r := n.QuoRem(n, new(big.Int).Exp(ten, big.NewInt(int64(len(m[2]))), nil), new(big.Int))
	if r.Sign() != 0 || q.Sign() == 0 || !q.IsUint64() {
		return 0, false
	}
	return q.Uint64(), true
}

// checkParseTickRate checks ParseTickRate(s) against referenceRate, and
// that what it accepts prints back to the same rate and what it refuses
// it explains in a bounded message.
func checkParseTickRate(t fatalfer, s string) {
	want, ok := referenceRate(s)
	r, err := ParseTickRate(s)
	if err != nil {
		if ok {
			t.Fatalf("ParseTickRate(%q): %v; want %d Hz", s, err, want)
		}
		if msg, head := err.Error(), invalidRateHead(s); len(msg) > maxErrorLen || !strings.HasPrefix(msg, head) || len(msg) == len(head) {
			t.Fatalf("ParseTickRate(%.80q…, %d bytes): an error of %d bytes, %.200q…; want one of at most %d, %.200q and a reason", s, len(s), len(msg), msg, maxErrorLen, head)
		}
		return
	}
	if !ok {
		t.Fatalf("ParseTickRate(%q) = %v; want an error", s, r)
	}
	if r.Hertz() != want {
		t.Fatalf("ParseTickRate(%q) = %d Hz; want %d Hz", s, r.Hertz(), want)
	}
	if back, err := ParseTickRate(r.String()); err != nil || back != r {
		t.Fatalf("ParseTickRate(%q) = %v, which reads back as %v, %v", s, r, back, err)
	}
}

// rateTextGen draws strings that are rates or nearly: numbers of every
// shape the parser must refuse or accept, each spelling of each unit in
// every mix of case, and the spaces between and around them.
func rateTextGen() *rapid.Generator[string] {
	var units []string
	for _, u := range []string{"hz", "khz", "mhz", "ghz", "thz"} {
		for mask := range 1 << len(u) {
			b := []byte(u)
			for i := range b {
				if mask&(1<<i) != 0 {
					b[i] -= 'a' - 'A'
				}
			}
			units = append(units, string(b))
		}
	}
	units = append(units, "", "ticks", "Hz ", "\u212aHz")
	return rapid.Custom(func(t *rapid.T) string {
		num := rapid.OneOf(
			rapid.StringMatching(`[0-9]{1,22}`),
			rapid.StringMatching(`[0-9]{1,12}\.[0-9]{1,12}`),
			rapid.StringMatching(`0{0,3}1[0-9]{0,19}(\.[0-9]{0,10}0{0,3})?`),
			rapid.StringMatching(`[-+]?[0-9.,_eExXbBoO]{0,8}`),
			rapid.StringMatching(`[0-9]{1,3}(\.[0-9])?[eE][-+]?[0-9]{1,2}`),
			rapid.StringMatching(`0[xXbBoO][0-9a-fA-F]{1,4}`),
		).Draw(t, "num")
		sep := rapid.SampledFrom([]string{"", "", " ", " ", " ", " ", "  ", "\t"}).Draw(t, "sep")
		unit := rapid.SampledFrom(units).Draw(t, "unit")
		edge := rapid.SampledFrom([]string{"", "", "", "", "", "", "", " "}).Draw(t, "edge")
		return edge + num + sep + unit
	})
}

// TestParseTickRateAgainstReference checks ParseTickRate against its
// documented grammar on strings that are rates or nearly, which random bytes
// seldom are.
func TestParseTickRateAgainstReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkParseTickRate(t, rateTextGen().Draw(t, "s"))
	})
}

// Fuzz targets: no input panics, each parser agrees with its reference,
// what parses prints back to a string that parses to the same value, and
// every error is bounded whatever the input's length.

func FuzzParseTickRate(f *testing.F) {
	for _, s := range []string{
		"1 GHz", "2.3GHz", "24 MHz", "62.5 MHz", "2300000 kHz", "1000000000 Hz", "1.500 KHZ", "2.3 ghz",
		"0 Hz", "-1 GHz", "1.5 Hz", "18446744073.709551616 GHz", "x", " 2.3 GHz",
		"1 mHz", "1 mhz", "1 MHZ", "1 KHz", "1e9 Hz", "0x10 Hz", "0b1 Hz", "1 000 Hz", "2.3  GHz",
		strings.Repeat("1", 1000) + " Hz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkParseTickRate(t, s) })
}

// FuzzConversion feeds the property of TestConversionAgainstBig to the
// coverage-guided fuzzer.
func FuzzConversion(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(checkBothDirections))
}

// TestZeroRateRefused checks that both ways of making a rate refuse 0 Hz
// with the one error of a rate that is no rate, and say so.
func TestZeroRateRefused(t *testing.T) {
	if r, err := NewTickRate(0); err != errZeroRate || r != (TickRate{}) {
		t.Errorf("NewTickRate(0) = %v, %v; want the zero TickRate and errZeroRate", r, err)
	}
	r, err := ParseTickRate("0 Hz")
	if !errors.Is(err, errZeroRate) || r != (TickRate{}) {
		t.Errorf("ParseTickRate(\"0 Hz\") = %v, %v; want the zero TickRate and an error wrapping errZeroRate", r, err)
	}
	if err != nil && !strings.Contains(err.Error(), ": zero:") {
		t.Errorf("ParseTickRate(\"0 Hz\") error %q does not say the rate is zero", err)
	}
}
