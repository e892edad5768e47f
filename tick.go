package counter

import (
	"math"
	"strconv"
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
// reading of NowUnordered may be, by an amount with no bound (see
// [Counter.NowUnordered]). Readings of
// different machines may not be subtracted.
//
// A Tickstamp wraps around modulo 2⁶⁴; at 10 GHz that takes 58 years.
type Tickstamp uint64

// A Tickdelta is a signed span of ticks: the difference of two [Tickstamp]
// values. Its range is −2⁶³ to 2⁶³−1 ticks, about ±29 years at 10 GHz and
// ±292 years at 1 GHz.
type Tickdelta int64

// The ends of the [Tickdelta] range.
const (
	minTickdelta Tickdelta = math.MinInt64
	maxTickdelta Tickdelta = math.MaxInt64
)

// Sub returns the span t−u. The difference wraps modulo 2⁶⁴ and is read as
// signed, so a reading a few ticks behind u gives a small negative span and
// readings up to 2⁶³−1 ticks apart subtract correctly across a wrap of the
// counter.
func (t Tickstamp) Sub(u Tickstamp) Tickdelta {
	return Tickdelta(t - u)
}

// add returns the reading d ticks after t (before t for a negative d),
// wrapping modulo 2⁶⁴ as the counter does.
func (t Tickstamp) add(d Tickdelta) Tickstamp {
	return t + Tickstamp(d)
}

// String returns the reading as "1000 ticks" ("1 tick" for one).
func (t Tickstamp) String() string {
	return string(appendTicks(strconv.AppendUint(make([]byte, 0, 26), uint64(t), 10), t == 1))
}

// String returns the span as "-1000 ticks" ("1 tick" and "-1 tick" for ±1).
func (d Tickdelta) String() string {
	return string(appendTicks(strconv.AppendInt(make([]byte, 0, 26), int64(d), 10), d == 1 || d == -1))
}

func appendTicks(b []byte, one bool) []byte {
	if one {
		return append(b, " tick"...)
	}
	return append(b, " ticks"...)
}
