package export_test

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// TestExponentialIndex checks Index against the definition, bⁱ < v ≤ bⁱ⁺¹,
// at every scale, for values across the float64 range that seconds take
// and for every power of two among them, which must be exactly at a top.
func TestExponentialIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for scale := int32(-4); scale <= 8; scale++ {
		e, err := export.NewExponential(scale)
		if err != nil {
			t.Fatal(err)
		}
		if e.Scale() != scale {
			t.Fatalf("Scale %d, want %d", e.Scale(), scale)
		}
		check := func(v float64) {
			i := e.Index(v)
			lo, hi := e.Lower(i), e.Lower(i+1)
			// A bound that is not a power of two is irrational and rounded:
			// a value within a few ulps of it may go either side.
			const slack = 4e-16
			if !(lo < v*(1+slack) && v <= hi*(1+slack)) {
				t.Fatalf("scale %d: %v in bucket %d, (%v, %v]", scale, v, i, lo, hi)
			}
		}
		for range 20_000 {
			v := math.Exp2(-45 + 70*r.Float64())
			check(v)
			if scale > 0 {
				if got, want := e.Index(v), searched(v, scale); got != want {
					t.Fatalf("scale %d: Index(%v) = %d, a search of the bounds says %d", scale, v, got, want)
				}
			}
		}
		// Every bound of a doubling, and the floats either side of it,
		// against a binary search of the bounds.
		n := 1 << max(scale, 0)
		for j := range n {
			b := math.Exp2(float64(j)/float64(n) + 3)
			for _, v := range []float64{math.Nextafter(b, 0), b, math.Nextafter(b, 16)} {
				check(v)
				if scale > 0 {
					if got, want := e.Index(v), searched(v, scale); got != want {
						t.Fatalf("scale %d: Index(%v) = %d, a search of the bounds says %d", scale, v, got, want)
					}
				}
			}
		}
		// Subnormal values, which Index takes apart the slow way.
		for _, v := range []float64{math.SmallestNonzeroFloat64, 3e-320, 1e-310, math.Nextafter(0x1p-1022, 0)} {
			check(v)
		}
		for k := -45; k <= 25; k++ {
			v := math.Ldexp(1, k)
			check(v)
			// A power of two whose exponent the bucket width divides is
			// exactly the top of a bucket.
			if scale >= 0 || k%(1<<-scale) == 0 {
				i := e.Index(v)
				if e.Lower(i+1) != v {
					t.Errorf("scale %d: 2^%d in bucket %d, whose top is %v", scale, k, i, e.Lower(i+1))
				}
			}
		}
	}
	for _, bad := range []int32{-5, 9, math.MaxInt32, math.MinInt32} {
		if _, err := export.NewExponential(bad); err == nil {
			t.Errorf("scale %d: no error", bad)
		}
	}
}

// TestExponentialNested checks that a value's bucket at a scale is its
// bucket at any finer scale shifted right by the difference, for values
// across the range of seconds and for the bounds of the finest scale and
// the floats either side of them, which a rounding would put astray.
func TestExponentialNested(t *testing.T) {
	var es []export.Exponential
	for scale := int32(-4); scale <= 8; scale++ {
		e, err := export.NewExponential(scale)
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	check := func(v float64) {
		for i, fine := range es {
			for _, coarse := range es[:i] {
				k := fine.Scale() - coarse.Scale()
				if got, want := fine.Index(v)>>k, coarse.Index(v); got != want {
					t.Fatalf("%v: bucket %d at scale %d, shifted by %d, is %d; at scale %d it is %d",
						v, fine.Index(v), fine.Scale(), k, got, coarse.Scale(), want)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	for range 20_000 {
		check(math.Exp2(-70 + 140*r.Float64()))
	}
	for j := range 1 << 8 {
		for _, e := range []int{-64, -20, -1, 0, 1, 33, 62} {
			b := math.Exp2(float64(j)/(1<<8) + float64(e))
			check(math.Nextafter(b, 0))
			check(b)
			check(math.Nextafter(b, math.Inf(1)))
		}
	}
}

// TestSeconds checks the conversion to seconds, and that the zero rate
// converts every span to 0.
func TestSeconds(t *testing.T) {
	r, err := counter.NewTickRate(2_500_000_000)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		d    counter.Tickdelta
		want float64
	}{{0, 0}, {1, 4e-10}, {2_500_000_000, 1}, {-5, -2e-9}, {math.MaxInt64, float64(math.MaxInt64) / 2.5e9}} {
		if got := export.Seconds(tc.d, r); got != tc.want {
			t.Errorf("Seconds(%d) = %v, want %v", tc.d, got, tc.want)
		}
		if got := export.Seconds(tc.d, counter.TickRate{}); got != 0 {
			t.Errorf("Seconds(%d) at the zero rate = %v", tc.d, got)
		}
	}
	h := counter.NewHistogram()
	h.Record(math.MaxInt64 / 2)
	h.Record(math.MaxInt64 / 2)
	h.Record(math.MaxInt64 / 2)
	var s counter.Snapshot
	h.Interval(&s)
	// The sum is past MaxInt64: SumSeconds takes it from the mean.
	if got, want := export.SumSeconds(&s, r), 3*float64(math.MaxInt64/2)/2.5e9; math.Abs(got-want) > want*1e-15 {
		t.Errorf("SumSeconds of a sum past 2⁶³: %v, want %v", got, want)
	}
	if got := export.SumSeconds(&s, counter.TickRate{}); got != 0 {
		t.Errorf("SumSeconds at the zero rate: %v", got)
	}
}

// searched is Index at a positive scale by a binary search of the bounds,
// as Prometheus's client finds a native bucket.
func searched(v float64, scale int32) int32 {
	n := 1 << scale
	bounds := make([]float64, n)
	for j := range bounds {
		bounds[j] = math.Exp2(float64(j)/float64(n) - 1)
	}
	frac, exp := math.Frexp(v)
	return int32(sort.SearchFloat64s(bounds, frac) + (exp-1)*n - 1)
}

func BenchmarkIndex(b *testing.B) {
	e, err := export.NewExponential(7)
	if err != nil {
		b.Fatal(err)
	}
	var vs [1024]float64
	r := rand.New(rand.NewPCG(1, 2))
	for i := range vs {
		vs[i] = math.Exp2(-30 + 20*r.Float64())
	}
	var sum int32
	i := 0
	for b.Loop() {
		sum += e.Index(vs[i&1023])
		i++
	}
	sink = sum
}

var sink int32
