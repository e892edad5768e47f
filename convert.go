package counter

import (
	"math"
	"math/bits"
)

// A scale multiplies a count by a ratio n/d without dividing, rounding to
// the nearest integer. It splits the ratio once into a whole part and a
// 64-bit binary fraction:
//
//	a = ⌊n/d⌋,  b = the odd integer nearest r·2⁶⁴/d  where r = n mod d,
//
// the upper one where two are equally near, and turns a count c into
//
//	R = c·a + ⌊(c·b + 2⁶³)/2⁶⁴⌋.
//
// Why R is right. Write b = r·2⁶⁴/d + e. The odd integers lie 2 apart, so
// −1 < e ≤ 1, and e = 1 only where r·2⁶⁴/d is an even integer. The exact
// quotient is q = c·n/d = c·a + c·r/d, so
//
//	R = ⌊q + ε + ½⌋,  ε = c·e/2⁶⁴.
//
// As |c| ≤ 2⁶³, |ε| < ½, except that ε = −½ at c = −2⁶³ with e = 1, and
// |ε| ≤ |c|/2⁶⁴ for every c. So q − ½ ≤ q + ε < q + ½, and:
//   - where q is whole, q ≤ q + ε + ½ < q + 1 gives R = q: a multiple of
//     the ratio converts exactly, with either sign;
//   - elsewhere R is ⌊q⌋ or ⌈q⌉, within one unit, and it is the integer
//     nearest q unless q lies within |c|/2⁶⁴ of halfway between two.
//
// Why it is cheap. With the count biased to u = c + 2⁶³ (its sign bit
// flipped, an unsigned number) and b = 2j + 1, u·b = c·b + 2⁶⁴·j + 2⁶³, so
//
//	⌊(c·b + 2⁶³)/2⁶⁴⌋ = hi(u·b) − j,
//
// the high word of one unsigned 64-bit multiply less a constant: no sign
// handling, no shift, no carry. That b is odd is what puts the rounding
// half in for free; a b rounded up or down instead would leave |ε| up to 1
// or take an add with carry.
//
// b fits 64 bits: r·2⁶⁴/d < 2⁶⁴ and 2⁶⁴ − 1 is odd. The high word less j
// is within an int64 for every c, since it is ⌊(c·b + 2⁶³)/2⁶⁴⌋, and with
// −2⁶³ ≤ c < 2⁶³ and b < 2⁶⁴, −2¹²⁷ + 2⁶⁴ ≤ c·b + 2⁶³ ≤ 2¹²⁷ − 2⁶⁴ + 1.
// The whole R, though, passes the int64 range where c·a grows large: R
// never decreases as c grows (n/d ≥ 0), so the counts whose R fits are
// exactly those from one limit to another, worked out once, and the rest
// saturate. Where a = 0 nothing saturates, as |R| ≤ |c|
// there; the conversion then skips the multiply by a and the range test.
type scale struct {
	a    uint64 // ⌊n/d⌋
	b    uint64 // the odd integer nearest (n mod d)·2⁶⁴/d
	j    uint64 // b>>1, the rounding half and the bias taken back out
	low  uint64 // the least count whose R fits an int64, biased by 2⁶³
	span uint64 // the greatest such count less the least one
}

// newScale returns the scale for n/d, with n and d above zero.
func newScale(n, d uint64) scale {
	k := scale{a: n / d}
	t, _ := bits.Div64(n%d, 0, d) // ⌊r·2⁶⁴/d⌋, as r < d
	// The odd integer nearest r·2⁶⁴/d, which lies in [t, t+1): t itself
	// if odd, else t+1 (t−1 is farther, and t+1 wins a tie).
	k.b = t | 1
	k.j = k.b >> 1
	// R never decreases: bisect for the greatest count from 0 whose R is
	// at most MaxInt64, and the least count up to 0 whose R is at least
	// MinInt64. R(0) = 0 fits.
	hi := uint64(math.MaxInt64)
	if !k.fits(int64(hi)) {
		lo := uint64(0) // fits; hi does not
		for hi-lo > 1 {
			if mid := lo + (hi-lo)/2; k.fits(int64(mid)) {
				lo = mid
			} else {
				hi = mid
			}
		}
		hi = lo
	}
	least := uint64(1 << 63) // the magnitude of the least count that fits
	if !k.fits(math.MinInt64) {
		good, bad := uint64(0), least // magnitudes: −good fits, −bad does not
		for bad-good > 1 {
			if mid := good + (bad-good)/2; k.fits(-int64(mid)) {
				good = mid
			} else {
				bad = mid
			}
		}
		least = good
	}
	k.low = 1<<63 - least // −least, biased
	k.span = (hi + 1<<63) - k.low
	return k
}

// fits reports whether R(c) lies in the int64 range, working R out without
// wrapping: the high word less j is exact (see the comment on scale), and
// c·a is taken as a 128-bit magnitude.
func (k scale) fits(c int64) bool {
	h, _ := bits.Mul64(uint64(c)^(1<<63), k.b)
	f := int64(h - k.j) // ⌊(c·b + 2⁶³)/2⁶⁴⌋: ≥ 0 for c ≥ 0, ≤ 0 below
	if c >= 0 {
		whole, ca := bits.Mul64(uint64(c), k.a)
		return whole == 0 && ca <= math.MaxInt64-uint64(f)
	}
	m := -uint64(c) // |c|, up to 2⁶³
	whole, ca := bits.Mul64(m, k.a)
	return whole == 0 && ca <= 1<<63-uint64(-f)
}

// apply returns R as the comment on scale says, saturated to the int64
// range. It has no division; its branches are on the scale (a = 0), the
// same for every count of a loop, and on the range, taken only past it.
// It must stay cheap enough for the compiler to inline, with the
// conversion methods around it.
func (k *scale) apply(c int64) int64 {
	u := uint64(c) ^ (1 << 63)
	h, _ := bits.Mul64(u, k.b)
	if k.a == 0 {
		return int64(h - k.j)
	}
	if u-k.low > k.span {
		return c>>63 ^ math.MaxInt64 // MaxInt64, or MinInt64 when c < 0
	}
	return int64(h-k.j) + c*int64(k.a)
}
