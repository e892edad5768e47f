package counter

import (
	"math"
	"math/bits"
)

// A scale multiplies a count by a ratio n/d without dividing: by a factor f
// and a shift s chosen once, with s the largest shift whose f = ⌈n·2ˢ/d⌉
// still fits 64 bits, so that f keeps every bit of precision it can. Since
// f ≥ n·2ˢ/d, the result ⌊|c|·f/2ˢ⌋ is never below the floor of the exact
// quotient |c|·n/d; since f < n·2ˢ/d + 1 and f ≥ 2⁶³, it exceeds the exact
// quotient by less than quotient/2⁶³, which is below one unit wherever the
// result fits an int64. An exact multiple of the ratio therefore converts
// exactly, and every other count lands on the floor or the ceiling of its
// exact quotient.
//
// The hot path never sees f and s, only what is derived from them:
//
//	⌊m·f/2ˢ⌋ = m·a + (⌊m·b/2⁶⁴⌋ >> c)
//
// with a = ⌊f/2ˢ⌋, b = (f mod 2ˢ)·2⁶⁴⁻ˢ, c = 0 for s < 64, and a = 0, b = f,
// c = s−64 otherwise: one 128-bit multiply, one 64-bit multiply, a shift by
// under 64 and an add. Which magnitudes saturate is also worked out once.
//
// The zero scale turns every count into zero.
type scale struct {
	a, b uint64
	c    uint64 // 0 to 63
	// sat is the complement of the largest magnitude that converts without
	// saturating, so that the zero scale saturates nothing.
	sat uint64
}

// newScale returns the scale for n/d, with n and d above zero.
func newScale(n, d uint64) scale {
	f, s := largestShift(n, d)
	var k scale
	if s < 64 {
		k.a, k.b = f>>s, f<<(64-s)
	} else {
		k.b, k.c = f, uint64(s-64)
	}
	// ⌊m·f/2ˢ⌋ ≤ 2⁶³−1 exactly when m < 2⁶³⁺ˢ/f, so the largest such m is
	// ⌈2⁶³⁺ˢ/f⌉−1. A magnitude of 2⁶³ (MinInt64) whose result would be 2⁶³
	// saturates to MinInt64, which is that result anyway.
	lim := uint64(1 << 63)
	if c, ok := ceilShifted(1<<63, f, s); ok && c-1 < lim {
		lim = c - 1
	}
	k.sat = ^lim
	return k
}

// largestShift returns the factor f = ⌈n·2ˢ/d⌉ for the largest shift s at
// which it fits 64 bits. For n and d from 1 to 2⁶⁴−1, s is 1 to 127.
func largestShift(n, d uint64) (f uint64, s uint) {
	// n·2ˢ/d lies in [2^(ln−ld−1+s), 2^(ln−ld+1+s)), so the largest s lies
	// within two of 63−(ln−ld); start one above that and step down.
	s = uint(64 - (bits.Len64(n) - bits.Len64(d)))
	for {
		if f, ok := ceilShifted(n, d, s); ok {
			return f, s
		}
		s--
	}
}

// ceilShifted returns ⌈n·2ˢ/d⌉ and whether it fits 64 bits, for s below 128.
// The numerator is up to 192 bits wide, divided a word at a time.
func ceilShifted(n, d uint64, s uint) (uint64, bool) {
	var n2, n1, n0 uint64 // n<<s, most significant word first
	if s < 64 {
		n1, n0 = n>>(64-s), n<<s
	} else {
		n2, n1 = n>>(128-s), n<<(s-64)
	}
	q2, r := bits.Div64(0, n2, d)
	q1, r := bits.Div64(r, n1, d)
	q0, r := bits.Div64(r, n0, d)
	if q2 != 0 || q1 != 0 {
		return 0, false
	}
	if r != 0 {
		if q0 == math.MaxUint64 {
			return 0, false
		}
		q0++
	}
	return q0, true
}

// apply returns ⌊|c|·f/2ˢ⌋ with c's sign, saturated to the int64 range. It
// has no division and one branch, taken only to saturate. It must stay cheap
// enough for the compiler to inline, with the conversion methods around it.
func (k scale) apply(c int64) int64 {
	neg := c >> 63 // 0, or −1 for a negative count
	m := uint64((c ^ neg) - neg)
	if m > ^k.sat {
		return math.MaxInt64 ^ neg // MaxInt64, or MinInt64 when negative
	}
	hi, _ := bits.Mul64(m, k.b)
	return (int64(m*k.a+hi>>(k.c&63)) ^ neg) - neg
}
