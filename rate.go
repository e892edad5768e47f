package counter

import (
	"math"
	"math/bits"
	"runtime"
	"sync"
	"time"
	"weak"
)

// A TickRate is the rate at which a counter ticks, in hertz, with both of
// its conversions worked out once, so that converting a span is one or two
// multiplies and no division. It is one word, meant to be copied, and two
// TickRates are == exactly when their rates are.
//
// The zero TickRate is no rate: its [TickRate.Hertz] is 0, it prints as
// "0 Hz", and it converts every span and every duration to zero. It never
// divides and never panics. [NewTickRate] and [ParseTickRate] refuse to make
// it.
type TickRate struct {
	t *rateTable // nil for the zero TickRate
}

// A rateTable holds what a rate's conversions need. Tables are shared: every
// TickRate of one rate points to the same table (see internTable), which is
// what makes == on TickRate mean equal rates. A TickRate holds a pointer,
// not the table, because Go keeps a struct of at most four words in
// registers: a TickRate holding its table by value had it copied to the
// stack on every conversion, even inlined, which made each conversion
// costlier.
type rateTable struct {
	hz      uint64
	toNanos scale // ticks to nanoseconds: 10⁹/hz
	toTicks scale // nanoseconds to ticks: hz/10⁹
}

func newRateTable(hz uint64) *rateTable {
	return &rateTable{hz: hz, toNanos: newScale(1e9, hz), toTicks: newScale(hz, 1e9)}
}

// gigahertz returns the rate of a counter that ticks once a nanosecond,
// 1 GHz: the rate of the monotonic clocks, and of Arm's generic timer from
// Armv8.6 on, and what NewTickRate(1e9) returns. At this rate a tick is a
// nanosecond and both conversions are the identity. It inlines to a
// constant and costs nothing.
func gigahertz() TickRate { return TickRate{&gigahertzTable} }

// gigahertzTable is the table of 1 GHz, written out so that it costs nothing
// at start-up: at 10⁹/10⁹ the whole part is 1, the fraction's odd
// neighbour 1 (so j = 0), every count fits, and each converts to itself.
var gigahertzTable = rateTable{
	hz:      1e9,
	toNanos: scale{a: 1, b: 1, span: math.MaxUint64},
	toTicks: scale{a: 1, b: 1, span: math.MaxUint64},
}

// NewTickRate returns the rate of a counter that ticks hz times a second. It
// refuses only 0 Hz, with an error that says so: every rate from 1 Hz to
// [math.MaxUint64] Hz converts exactly as documented, and whether a rate is
// plausible for a real counter is for [Discover] to judge.
func NewTickRate(hz uint64) (TickRate, error) {
	switch hz {
	case 0:
		return TickRate{}, errZeroRate
	case 1e9:
		return gigahertz(), nil
	}
	return TickRate{internTable(hz)}, nil
}

// interned maps a rate in hertz to a weak pointer to its table, so that
// every live TickRate of one rate shares one table, and a table no TickRate
// holds any longer is collected and its entry dropped.
var interned sync.Map // uint64 → weak.Pointer[rateTable]

// internTable returns the shared table of a rate, making it if no live
// TickRate holds one.
func internTable(hz uint64) *rateTable {
	if v, ok := interned.Load(hz); ok {
		if t := v.(weak.Pointer[rateTable]).Value(); t != nil {
			return t
		}
	}
	fresh := newRateTable(hz)
	wp := weak.Make(fresh)
	for {
		v, loaded := interned.LoadOrStore(hz, wp)
		if loaded {
			if t := v.(weak.Pointer[rateTable]).Value(); t != nil {
				return t // another goroutine made it first
			}
			// Its table was collected, and its entry not yet dropped.
			if !interned.CompareAndSwap(hz, v, wp) {
				continue
			}
		}
		runtime.AddCleanup(fresh, forgetTable, internedEntry{hz, wp})
		return fresh
	}
}

type internedEntry struct {
	hz uint64
	wp weak.Pointer[rateTable]
}

// forgetTable drops the entry of a collected table, unless a new table has
// already taken its place.
func forgetTable(e internedEntry) { interned.CompareAndDelete(e.hz, e.wp) }

// Hertz returns the rate in ticks per second; 0 for the zero TickRate.
func (r TickRate) Hertz() uint64 {
	if r.t == nil {
		return 0
	}
	return r.t.hz
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

// Ticks converts a duration to a span of ticks at rate r: the exact quotient
// d·hz/10⁹ rounded to the nearest integer, without division. A span past the
// range of [Tickdelta] saturates to its nearest end, −2⁶³ or 2⁶³−1 ticks;
// elsewhere the result is exact wherever the quotient is an integer, and
// within one unit always: only a quotient within |d|/2⁶⁴ of halfway between
// two integers may round to the farther one. At the zero TickRate every
// duration is zero ticks.
func (r TickRate) Ticks(d time.Duration) Tickdelta {
	if r.t == nil {
		return 0
	}
	return Tickdelta(r.t.toTicks.apply(int64(d)))
}

// Seconds returns the span in seconds at rate r, as a float64: d/hz
// rounded once, to the nearest float64 (ties to even), over the whole range
// of Tickdelta; 0 at the zero TickRate. Duration gives whole nanoseconds
// instead, and Seconds the fraction a short span needs. It does not
// allocate.
func (d Tickdelta) Seconds(r TickRate) float64 {
	if r.t == nil {
		return 0
	}
	return quotient(d, 1, r.t.hz)
}

// Nanoseconds returns the span in nanoseconds at rate r, as a float64:
// d·10⁹/hz rounded once, to the nearest float64 (ties to even), over the
// whole range of Tickdelta; 0 at the zero TickRate. It does not allocate.
func (d Tickdelta) Nanoseconds(r TickRate) float64 {
	if r.t == nil {
		return 0
	}
	return quotient(d, 1e9, r.t.hz)
}

// quotient returns d·m/den rounded to the nearest float64, ties to even,
// for den > 0. Where the product and den are both at most 2⁵³, both are
// exact float64s and one float division rounds right; otherwise it divides
// the 128-bit product in integers until it holds 64
// significant bits of the quotient, then folds whatever remains into the
// lowest bit, below float64's 53, so that the one rounding of the
// conversion to float64 is the rounding of the exact quotient.
func quotient(d Tickdelta, m, den uint64) float64 {
	neg := d < 0
	mag := uint64(d)
	if neg {
		mag = -mag // 2⁶³ for the least Tickdelta, as unsigned
	}
	nh, nl := bits.Mul64(mag, m)
	if nh == 0 && nl <= 1<<53 && den <= 1<<53 {
		// Both are exact as float64s, and IEEE division rounds once.
		q := float64(nl) / float64(den)
		if neg {
			return -q
		}
		return q
	}
	qh, r := bits.Div64(0, nh, den)
	ql, r := bits.Div64(r, nl, den)
	var mant uint64
	exp := 0
	if qh != 0 {
		// The quotient has more than 64 bits: keep its top 64, and fold
		// the bits shifted out into the remainder's sticky bit.
		sh := uint(64 - bits.LeadingZeros64(qh))
		mant = qh<<(64-sh) | ql>>sh
		if ql<<(64-sh) != 0 {
			r |= 1 // only whether r is 0 matters below
		}
		exp = int(sh)
	} else {
		mant = ql
		// Bring down binary digits of the fraction r/den until mant has
		// 64 significant bits.
		for mant < 1<<63 {
			if mant == 0 && r == 0 {
				return 0
			}
			// r < den, so r·2^sh/den < 2^sh: the next sh digits. (A
			// shift by 64 gives 0 in Go, as mant<<64 must.)
			sh := uint(bits.LeadingZeros64(mant))
			var f uint64
			f, r = bits.Div64(r>>(64-sh), r<<sh, den)
			mant = mant<<sh | f
			exp -= int(sh)
		}
	}
	if r != 0 {
		mant |= 1 // sticky: the exact quotient is above mant
	}
	q := math.Ldexp(float64(mant), exp)
	if neg {
		return -q
	}
	return q
}
