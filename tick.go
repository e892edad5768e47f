package counter

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// A Tickstamp is one reading of a counter, in that counter's ticks.
//
// Its origin is the hardware's own (power-on, boot, or whatever the
// hypervisor chose) and means nothing by itself: only the difference of two
// readings of the same counter, a [Tickdelta], converts to time. Readings
// taken by different goroutines, threads or processes on one machine may be
// subtracted, since they read one counter; and since every read but
// [Counter.NowUnordered] waits for the loads before it, a reading handed to
// another goroutine is never later than that goroutine's next one. A
// reading of NowUnordered may be, by up to microseconds. Readings of
// different machines may not be subtracted.
//
// A Tickstamp wraps around modulo 2⁶⁴; at 10 GHz that takes 58 years.
type Tickstamp uint64

// A Tickdelta is a signed span of ticks: the difference of two [Tickstamp]
// values. Its range is [MinTickdelta] to [MaxTickdelta], about ±29 years at
// 10 GHz and ±292 years at 1 GHz.
type Tickdelta int64

// The ends of the [Tickdelta] range.
const (
	MinTickdelta Tickdelta = math.MinInt64
	MaxTickdelta Tickdelta = math.MaxInt64
)

// Sub returns the span t−u. The difference wraps modulo 2⁶⁴ and is read as
// signed, so a reading a few ticks behind u gives a small negative span and
// readings up to 2⁶³−1 ticks apart subtract correctly across a wrap of the
// counter.
func (t Tickstamp) Sub(u Tickstamp) Tickdelta {
	return Tickdelta(t - u)
}

// Add returns the reading d ticks after t (before t for a negative d),
// wrapping modulo 2⁶⁴ as the counter does.
func (t Tickstamp) Add(d Tickdelta) Tickstamp {
	return t + Tickstamp(d)
}

// Duration converts the span to time at rate r: the exact quotient d·10⁹/hz
// nanoseconds rounded to the nearest integer, without division. A span whose
// quotient is past the range of [time.Duration] saturates to its nearest
// end; elsewhere the result is exact wherever the quotient is an integer,
// and within one unit always: only a quotient within |d|/2⁶⁴ of halfway
// between two integers may round to the farther one. At the zero [TickRate]
// every span is zero.
func (d Tickdelta) Duration(r TickRate) time.Duration {
	if r.t == nil {
		return 0
	}
	return time.Duration(r.t.toNanos.apply(int64(d)))
}

// String returns the reading as "1000 ticks" ("1 tick" for one).
func (t Tickstamp) String() string {
	b, _ := t.AppendText(make([]byte, 0, 26))
	return string(b)
}

// String returns the span as "-1000 ticks" ("1 tick" and "-1 tick" for ±1).
func (d Tickdelta) String() string {
	b, _ := d.AppendText(make([]byte, 0, 26))
	return string(b)
}

// AppendText appends the reading's [Tickstamp.String] form to b.
func (t Tickstamp) AppendText(b []byte) ([]byte, error) {
	return appendTicks(strconv.AppendUint(b, uint64(t), 10), t == 1), nil
}

// AppendText appends the span's [Tickdelta.String] form to b.
func (d Tickdelta) AppendText(b []byte) ([]byte, error) {
	return appendTicks(strconv.AppendInt(b, int64(d), 10), d == 1 || d == -1), nil
}

func appendTicks(b []byte, one bool) []byte {
	if one {
		return append(b, " tick"...)
	}
	return append(b, " ticks"...)
}

// MarshalText implements [encoding.TextMarshaler] with the
// [Tickstamp.String] form.
func (t Tickstamp) MarshalText() ([]byte, error) { return t.AppendText(nil) }

// MarshalText implements [encoding.TextMarshaler] with the
// [Tickdelta.String] form.
func (d Tickdelta) MarshalText() ([]byte, error) { return d.AppendText(nil) }

// UnmarshalText implements [encoding.TextUnmarshaler] with [ParseTickstamp].
func (t *Tickstamp) UnmarshalText(text []byte) error {
	v, err := ParseTickstamp(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// UnmarshalText implements [encoding.TextUnmarshaler] with [ParseTickdelta].
func (d *Tickdelta) UnmarshalText(text []byte) error {
	v, err := ParseTickdelta(string(text))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// ParseTickstamp parses a reading written as by [Tickstamp.String]
// ("1000 ticks", "1 tick") or as a bare decimal count ("1000"). It refuses a
// sign, a count past 2⁶⁴−1 and anything else, with an error that says which
// and quotes at most the first 64 bytes of s, followed by its length.
func ParseTickstamp(s string) (Tickstamp, error) {
	digits, err := splitTicks("tickstamp", s)
	if err != nil {
		return 0, err
	}
	if digits[0] == '-' {
		return 0, parseError("tickstamp", s, "is negative: a reading counts up from zero")
	}
	v, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, numError("tickstamp", s, err)
	}
	return Tickstamp(v), nil
}

// ParseTickdelta parses a span written as by [Tickdelta.String]
// ("-1000 ticks", "1 tick") or as a bare decimal count ("-1000"). It refuses
// a count outside [MinTickdelta] to [MaxTickdelta] and anything else, with an
// error that says which and quotes at most the first 64 bytes of s, followed
// by its length.
func ParseTickdelta(s string) (Tickdelta, error) {
	digits, err := splitTicks("tickdelta", s)
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, numError("tickdelta", s, err)
	}
	return Tickdelta(v), nil
}

// splitTicks checks the shape of "N ticks", "N tick" or "N" and returns N,
// which is a run of decimal digits with at most a leading minus sign.
func splitTicks(what, s string) (string, error) {
	digits := s
	if i := strings.IndexByte(s, ' '); i >= 0 {
		digits = s[:i]
		if unit := s[i+1:]; unit != "ticks" && unit != "tick" {
			return "", parseError(what, s, `has a unit other than "ticks"`)
		}
	}
	d := strings.TrimPrefix(digits, "-")
	if d == "" {
		return "", parseError(what, s, "has no count of ticks")
	}
	if !isDigits(d) {
		return "", parseError(what, s, "is not a decimal count of ticks")
	}
	return digits, nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
