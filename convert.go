package counter

import (
	"math"
	"math/bits"
)

// A scale multiplies a count by a ratio n/d without dividing. It splits the
// ratio once into a whole part and a 64-bit binary fraction rounded up:
//
//	a = ⌊n/d⌋,  b = ⌈r·2⁶⁴/d⌉  where r = n mod d,
//
// and turns a magnitude m into R = m·a + ⌊m·b/2⁶⁴⌋: one 128-bit multiply,
// one 64-bit multiply and an add, with no shift and no division.
//
// Why R is right. Write b = r·2⁶⁴/d + e with 0 ≤ e < 1 (e = 0 when d divides
// r·2⁶⁴). The exact quotient is q = m·n/d = m·a + m·r/d, so
//
//	m·a + m·b/2⁶⁴ = q + m·e/2⁶⁴ = q + ε,  0 ≤ ε < ½,
//
// the bound because e < 1 and a magnitude of an int64 is at most 2⁶³; also
// ε < m/2⁶⁴ wherever m > 0. As m·a is whole, R = ⌊q + ε⌋. Where q is
// whole, q ≤ q + ε < q + 1 gives R = q: a multiple of the ratio converts
// exactly. Elsewhere ⌊q⌋ < q ≤ q + ε < ⌊q⌋ + 2 gives R = ⌊q⌋ or ⌊q⌋ + 1 =
// ⌈q⌉: within one unit. More precisely, R is ⌈q⌉ only where q lies within
// m/2⁶⁴ below the integer above it, and ⌊q⌋ everywhere else.
//
// b fits 64 bits: b = 0 when r = 0, and otherwise b < r·2⁶⁴/d + 1 ≤
// 2⁶⁴ − 2⁶⁴/d + 1 < 2⁶⁴, since d < 2⁶⁴.
//
// R is the floor of m·(a + b/2⁶⁴), which never decreases as m grows, so the
// magnitudes whose R fits an int64 are exactly those up to a limit, worked
// out once. Up to it neither m·a nor the sum can wrap, since both are at
// most R < 2⁶³; past it the result saturates. A negative count converts by
// its magnitude and takes its sign back, so conversions are symmetric about
// zero and never decrease.
type scale struct {
	a   uint64 // ⌊n/d⌋
	b   uint64 // ⌈(n mod d)·2⁶⁴/d⌉
	lim uint64 // the largest magnitude whose R fits an int64, 0 to 2⁶³
}

// newScale returns the scale for n/d, with n and d above zero.
func newScale(n, d uint64) scale {
	k := scale{a: n / d}
	b, rem := bits.Div64(n%d, 0, d) // ⌊r·2⁶⁴/d⌋, r < d
	if rem != 0 {
		b++ // below 2⁶⁴, as the comment on scale shows
	}
	k.b = b
	// Bisect for the largest m in [0, 2⁶³] whose R fits an int64: R(0) = 0
	// fits, and R never decreases. A magnitude of 2⁶³ (MinInt64) whose R
	// is 2⁶³ saturates to MinInt64, which is that result anyway.
	lo, hi := uint64(0), uint64(1<<63)+1 // R(lo) fits; R(hi) does not, or hi is past 2⁶³
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if k.fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	k.lim = lo
	return k
}

// fits reports whether R = m·a + ⌊m·b/2⁶⁴⌋ is below 2⁶³, computing R in
// full, without wrapping.
func (k scale) fits(m uint64) bool {
	whole, lo := bits.Mul64(m, k.a)
	frac, _ := bits.Mul64(m, k.b)
	sum, carry := bits.Add64(lo, frac, 0)
	return whole == 0 && carry == 0 && sum < 1<<63
}

// apply returns R = ⌊|c|·n/d⌋ or ⌈|c|·n/d⌉ as the comment on scale says,
// with c's sign, saturated to the int64 range. It has no division and no
// branch: saturation is a conditional move. It must stay cheap enough for
// the compiler to inline, with the conversion methods around it.
func (k scale) apply(c int64) int64 {
	neg := c >> 63 // 0, or −1 for a negative count
	m := uint64((c ^ neg) - neg)
	frac, _ := bits.Mul64(m, k.b)
	v := m*k.a + frac
	if m > k.lim {
		// MaxInt64, or 2⁶³ when negative, which the sign below turns
		// into MinInt64.
		v = math.MaxInt64 - uint64(neg)
	}
	return (int64(v) ^ neg) - neg
}
