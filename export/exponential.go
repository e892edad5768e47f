package export

import (
	"fmt"
	"math"
	"sort"
)

// An Exponential numbers the buckets of an exponential histogram, as
// OpenTelemetry's exponential histograms and Prometheus's native histograms
// both lay them out: at scale s, the base is b = 2^(2^−s), and bucket i
// holds the values in (bⁱ, bⁱ⁺¹]. Each bucket's upper bound is b times its
// lower, a relative width of b−1 = 2^(2^−s)−1: 2^(1/128)−1 at scale 7,
// under one part in a hundred, and 2^(1/8)−1 at scale 3, about one part in
// eleven. OpenTelemetry numbers the buckets so; Prometheus's
// native bucket of key k is bucket k−1 here, and its schema is the scale.
//
// The zero Exponential is scale 0, base 2.
type Exponential struct {
	scale int32
	// bounds[j] is the lower bound of the j-th bucket of a doubling, as a
	// fraction that math.Frexp returns: 2^(j/2^scale − 1). Only for
	// positive scales.
	bounds []float64
	// below[c] is how many bounds are below the least fraction whose top
	// cellBits bits of mantissa are c. A cell is 2^−(scale+3) wide, less
	// than the narrowest bucket (the first of a doubling, 2^(2^−scale−1) −
	// 1/2 wide, over 2^−(scale+2)), so a fraction of cell c has below[c]
	// bounds below it or one more.
	below []uint16
}

// cellBits is how many of a mantissa's leading bits pick a cell of below.
func cellBits(scale int32) int { return int(scale) + 2 }

// NewExponential returns the numbering at the given scale, which must be from
// −4 to 8, the schemas Prometheus's native histograms allow and a subset of
// OpenTelemetry's. It makes a table of 2^scale bounds for a positive scale.
func NewExponential(scale int32) (Exponential, error) {
	if scale < -4 || scale > 8 {
		return Exponential{}, fmt.Errorf("export: an exponential scale must be from -4 to 8, not %d", scale)
	}
	e := Exponential{scale: scale}
	if scale > 0 {
		n := 1 << scale
		e.bounds = make([]float64, n)
		for j := range e.bounds {
			e.bounds[j] = math.Exp2(float64(j)/float64(n) - 1)
		}
		e.below = make([]uint16, 1<<cellBits(scale))
		for c := range e.below {
			least := math.Ldexp(1+math.Ldexp(float64(c), -cellBits(scale)), -1)
			e.below[c] = uint16(sort.SearchFloat64s(e.bounds, least))
		}
	}
	return e, nil
}

// Scale returns the numbering's scale.
func (e Exponential) Scale() int32 { return e.scale }

// Index returns the index of the bucket that holds v, which must be positive
// and finite: the i for which bⁱ < v ≤ bⁱ⁺¹. Powers of two are exactly at a
// bucket's top; a value within a rounding error of any other bound may go to
// the bucket on either side of it. Index costs a table lookup and one or
// two comparisons at a positive scale, and a shift at the others. A value's
// bucket at scale s−k is its bucket at scale s shifted right, Index(v)>>k,
// exactly, to the last rounding: a bucket is two of the scale above it, and
// the bounds of a scale are bounds of the scales above it, computed alike.
func (e Exponential) Index(v float64) int32 {
	frac, exp := frexp(v) // v = frac·2^exp, frac in [0.5, 1)
	if e.scale > 0 {
		// Prometheus's key: the bounds below frac, plus the doublings below.
		mantissa := math.Float64bits(frac) & (1<<52 - 1)
		below := int(e.below[mantissa>>(52-cellBits(e.scale))])
		for below < len(e.bounds) && e.bounds[below] < frac {
			below++
		}
		return int32(below + (exp-1)*len(e.bounds) - 1)
	}
	if frac == 0.5 {
		exp-- // a power of two is the top of its bucket
	}
	// Each bucket spans 2^−scale doublings: round the doubling up.
	return int32((exp+1<<-e.scale-1)>>-e.scale) - 1
}

// frexp is math.Frexp for a positive v, taking a normal float64 apart
// with two masks rather than a call.
func frexp(v float64) (frac float64, exp int) {
	b := math.Float64bits(v)
	biased := int(b>>52) & 0x7ff
	if biased == 0 || biased == 0x7ff { // subnormal, or not finite
		return math.Frexp(v)
	}
	return math.Float64frombits(b&^(0x7ff<<52) | 1022<<52), biased - 1022
}

// Lower returns the lower bound bⁱ of bucket i, which that bucket leaves out.
func (e Exponential) Lower(i int32) float64 {
	return math.Exp2(math.Ldexp(float64(i), -int(e.scale)))
}
