package counter

import (
	"encoding"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// The spellings every type must accept.
var (
	_ encoding.TextMarshaler   = Tickstamp(0)
	_ encoding.TextMarshaler   = Tickdelta(0)
	_ encoding.TextMarshaler   = TickRate{}
	_ encoding.TextUnmarshaler = (*Tickstamp)(nil)
	_ encoding.TextUnmarshaler = (*Tickdelta)(nil)
	_ encoding.TextUnmarshaler = (*TickRate)(nil)
	_ encoding.TextAppender    = Tickstamp(0)
	_ encoding.TextAppender    = Tickdelta(0)
	_ encoding.TextAppender    = TickRate{}
	_ flag.Value               = (*TickRate)(nil)
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
		{"2300000 kHz", 2_300_000_000},
		{"62.5 mhz", 62_500_000},
		{"1 hz", 1},
		{"1.500 KHZ", 1500},
		{"2.299999917 GHz", 2_299_999_917},
		{"0001 Hz", 1},
		{"1.000000000 Hz", 1},
		{"18446744073.709551615 GHz", math.MaxUint64},
		{"18446744073709551615 Hz", math.MaxUint64},
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
	tests := []struct {
		in, want string
	}{
		{"", `counter: tickrate "" has no number`},
		{"GHz", `counter: tickrate "GHz" has no number`},
		{"2300000000", `counter: tickrate "2300000000" has no unit (Hz, kHz, MHz or GHz)`},
		{"2.3 THz", `counter: tickrate "2.3 THz" has an unknown unit (want Hz, kHz, MHz or GHz)`},
		{"2.3 GHz ", `counter: tickrate "2.3 GHz " has an unknown unit (want Hz, kHz, MHz or GHz)`},
		{"2.3 ticks", `counter: tickrate "2.3 ticks" has an unknown unit (want Hz, kHz, MHz or GHz)`},
		{"-1 GHz", `counter: tickrate "-1 GHz" has a sign: a rate is a positive number`},
		{"+1 GHz", `counter: tickrate "+1 GHz" has a sign: a rate is a positive number`},
		{"0 Hz", `counter: tickrate "0 Hz" is zero: a counter that never ticks has no rate`},
		{"0.000 GHz", `counter: tickrate "0.000 GHz" is zero: a counter that never ticks has no rate`},
		{"1.5 Hz", `counter: tickrate "1.5 Hz" is not a whole number of hertz`},
		{"0.0000000001 GHz", `counter: tickrate "0.0000000001 GHz" is not a whole number of hertz`},
		{"18446744073709551616 Hz", `counter: tickrate "18446744073709551616 Hz" is past the largest rate, 18446744073709551615 Hz`},
		{"18446744073.709551616 GHz", `counter: tickrate "18446744073.709551616 GHz" is past the largest rate, 18446744073709551615 Hz`},
		{"99999999999999999999999 GHz", `counter: tickrate "99999999999999999999999 GHz" is past the largest rate, 18446744073709551615 Hz`},
		{"2,3 GHz", `counter: tickrate "2,3 GHz" is not a decimal number`},
		{"2. GHz", `counter: tickrate "2. GHz" is not a decimal number`},
		{".5 GHz", `counter: tickrate ".5 GHz" is not a decimal number`},
		{"1.2.3 GHz", `counter: tickrate "1.2.3 GHz" is not a decimal number`},
		{"2.3  GHz", `counter: tickrate "2.3  GHz" is not a decimal number`},
		{" 2.3 GHz", `counter: tickrate " 2.3 GHz" is not a decimal number`},
		{"1e9 Hz", `counter: tickrate "1e9 Hz" has an unknown unit (want Hz, kHz, MHz or GHz)`},
		{"0x10 Hz", `counter: tickrate "0x10 Hz" has an unknown unit (want Hz, kHz, MHz or GHz)`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
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
		})
	}
	if _, err := ParseTickRate("0 kHz"); !errors.Is(err, ErrZeroRate) {
		t.Errorf("ParseTickRate(\"0 kHz\") error %v does not wrap ErrZeroRate", err)
	}
}

func TestParseTicks(t *testing.T) {
	stamps := []struct {
		in   string
		want Tickstamp
	}{
		{"1000 ticks", 1000},
		{"1000", 1000},
		{"1 tick", 1},
		{"1 ticks", 1},
		{"0 ticks", 0},
		{"18446744073709551615 ticks", math.MaxUint64},
	}
	for _, tt := range stamps {
		if got, err := ParseTickstamp(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseTickstamp(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	deltas := []struct {
		in   string
		want Tickdelta
	}{
		{"-1000 ticks", -1000},
		{"-1000", -1000},
		{"-1 tick", -1},
		{"9223372036854775807 ticks", MaxTickdelta},
		{"-9223372036854775808 ticks", MinTickdelta},
	}
	for _, tt := range deltas {
		if got, err := ParseTickdelta(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseTickdelta(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestParseTicksErrors(t *testing.T) {
	tests := []struct {
		parse func(string) error
		in    string
		want  string
	}{
		{parseStamp, "", `counter: tickstamp "" has no count of ticks`},
		{parseStamp, " ticks", `counter: tickstamp " ticks" has no count of ticks`},
		{parseStamp, "-5 ticks", `counter: tickstamp "-5 ticks" is negative: a reading counts up from zero`},
		{parseStamp, "+5 ticks", `counter: tickstamp "+5 ticks" is not a decimal count of ticks`},
		{parseStamp, "5 ns", `counter: tickstamp "5 ns" has a unit other than "ticks"`},
		{parseStamp, "5 ticks ", `counter: tickstamp "5 ticks " has a unit other than "ticks"`},
		{parseStamp, "5ticks", `counter: tickstamp "5ticks" is not a decimal count of ticks`},
		{parseStamp, "0x10", `counter: tickstamp "0x10" is not a decimal count of ticks`},
		{parseStamp, "1_000", `counter: tickstamp "1_000" is not a decimal count of ticks`},
		{parseStamp, "18446744073709551616 ticks", `counter: tickstamp "18446744073709551616 ticks" is out of range`},
		{parseDelta, "-", `counter: tickdelta "-" has no count of ticks`},
		{parseDelta, "--5", `counter: tickdelta "--5" is not a decimal count of ticks`},
		{parseDelta, "9223372036854775808 ticks", `counter: tickdelta "9223372036854775808 ticks" is out of range`},
		{parseDelta, "-9223372036854775809", `counter: tickdelta "-9223372036854775809" is out of range`},
		{parseDelta, "1.5 ticks", `counter: tickdelta "1.5 ticks" is not a decimal count of ticks`},
	}
	for _, tt := range tests {
		err := tt.parse(tt.in)
		if err == nil {
			t.Errorf("parse %q: no error; want %s", tt.in, tt.want)
			continue
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("parse %q error\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func parseStamp(s string) error { _, err := ParseTickstamp(s); return err }
func parseDelta(s string) error { _, err := ParseTickdelta(s); return err }

func TestTicksString(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Tickstamp(1000).String(), "1000 ticks"},
		{Tickstamp(1).String(), "1 tick"},
		{Tickstamp(0).String(), "0 ticks"},
		{Tickdelta(-1000).String(), "-1000 ticks"},
		{Tickdelta(-1).String(), "-1 tick"},
		{MinTickdelta.String(), "-9223372036854775808 ticks"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q; want %q", tt.got, tt.want)
		}
	}
}

// TestRoundTrip checks that String and Parse round-trip exactly for every
// value of each type.
func TestRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ts := Tickstamp(rapid.Uint64().Draw(t, "stamp"))
		if got, err := ParseTickstamp(ts.String()); err != nil || got != ts {
			t.Fatalf("ParseTickstamp(%q) = %d, %v; want %d", ts.String(), got, err, ts)
		}
		td := Tickdelta(countGen().Draw(t, "delta"))
		if got, err := ParseTickdelta(td.String()); err != nil || got != td {
			t.Fatalf("ParseTickdelta(%q) = %d, %v; want %d", td.String(), got, err, td)
		}
		r, _ := NewTickRate(rateGen().Draw(t, "hz"))
		if got, err := ParseTickRate(r.String()); err != nil || got != r {
			t.Fatalf("ParseTickRate(%q) = %v, %v; want %v", r.String(), got, err, r)
		}
	})
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
	if got, want := string(b), `{"rate":"2.3 GHz","start":"12345 ticks","span":"-7 ticks"}`; got != want {
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
	fs.Var(&r, "rate", "the counter's rate")
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

// Fuzz targets: no input panics, and what parses prints back to a string that
// parses to the same value.

func FuzzParseTickRate(f *testing.F) {
	for _, s := range []string{"1 GHz", "2.3GHz", "24 MHz", "62.5 mhz", "2300000 kHz", "1000000000 Hz", "0 Hz", "-1 GHz", "1.5 Hz", "18446744073.709551616 GHz", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseTickRate(s)
		if err != nil {
			return
		}
		if r.Hertz() == 0 {
			t.Fatalf("ParseTickRate(%q) accepted a zero rate", s)
		}
		if back, err := ParseTickRate(r.String()); err != nil || back != r {
			t.Fatalf("ParseTickRate(%q) = %v, which reads back as %v, %v", s, r, back, err)
		}
	})
}

func FuzzParseTickstamp(f *testing.F) {
	for _, s := range []string{"1000 ticks", "1000", "1 tick", "-1", "18446744073709551616", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseTickstamp(s)
		if err != nil {
			return
		}
		if back, err := ParseTickstamp(v.String()); err != nil || back != v {
			t.Fatalf("ParseTickstamp(%q) = %d, which reads back as %d, %v", s, v, back, err)
		}
	})
}

func FuzzParseTickdelta(f *testing.F) {
	for _, s := range []string{"-1000 ticks", "1000", "-1 tick", "-", "9223372036854775808", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseTickdelta(s)
		if err != nil {
			return
		}
		if back, err := ParseTickdelta(v.String()); err != nil || back != v {
			t.Fatalf("ParseTickdelta(%q) = %d, which reads back as %d, %v", s, v, back, err)
		}
	})
}

// FuzzConversion feeds the property of TestConversionAgainstBig to the
// coverage-guided fuzzer.
func FuzzConversion(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(checkBothDirections))
}
