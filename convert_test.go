package counter

import (
	"math"
	"math/big"
	"runtime"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// exactQuotient returns c·n/d as an exact rational.
func exactQuotient(c int64, n, d uint64) *big.Rat {
	num := new(big.Int).Mul(big.NewInt(c), new(big.Int).SetUint64(n))
	return new(big.Rat).SetFrac(num, new(big.Int).SetUint64(d))
}

var (
	bigMinInt64 = new(big.Rat).SetInt64(math.MinInt64)
	bigMaxInt64 = new(big.Rat).SetInt64(math.MaxInt64)
)

// checkConversion checks one conversion's result against the exact quotient
// c·n/d: saturated exactly where the quotient leaves the int64 range, exact
// where the quotient is an integer, and otherwise its floor or its ceiling.
func checkConversion(t rapid.TB, what string, c int64, n, d uint64, got int64) {
	t.Helper()
	q := exactQuotient(c, n, d)
	switch {
	case q.Cmp(bigMaxInt64) > 0:
		if got != math.MaxInt64 {
			t.Fatalf("%s(%d) at %d/%d: got %d; want saturation to MaxInt64 (exact %s)", what, c, n, d, got, q.FloatString(3))
		}
		return
	case q.Cmp(bigMinInt64) < 0:
		if got != math.MinInt64 {
			t.Fatalf("%s(%d) at %d/%d: got %d; want saturation to MinInt64 (exact %s)", what, c, n, d, got, q.FloatString(3))
		}
		return
	}
	// Within range: got must be ⌊q⌋ or ⌈q⌉, and q itself when q is whole.
	diff := new(big.Rat).Sub(new(big.Rat).SetInt64(got), q)
	if q.IsInt() && diff.Sign() != 0 {
		t.Fatalf("%s(%d) at %d/%d: got %d; want exactly %s", what, c, n, d, got, q.RatString())
	}
	if diff.Cmp(big.NewRat(-1, 1)) <= 0 || diff.Cmp(big.NewRat(1, 1)) >= 0 {
		t.Fatalf("%s(%d) at %d/%d: got %d; want within one unit of %s", what, c, n, d, got, q.FloatString(3))
	}
}

// checkNearest checks the sharper claim of the comment on scale: where the
// exact quotient q = c·n/d is in range, the result lies within ½ + |c|/2⁶⁴
// of it, so it is the integer nearest q unless q is that close to halfway.
func checkNearest(t rapid.TB, what string, c int64, n, d uint64, got int64) {
	t.Helper()
	q := exactQuotient(c, n, d)
	if q.Cmp(bigMaxInt64) > 0 || q.Cmp(bigMinInt64) < 0 {
		return // checked by checkConversion
	}
	dist := new(big.Rat).Sub(new(big.Rat).SetInt64(got), q)
	dist.Abs(dist)
	bound := new(big.Rat).SetFrac(new(big.Int).Abs(big.NewInt(c)), new(big.Int).Lsh(big.NewInt(1), 64))
	bound.Add(bound, big.NewRat(1, 2))
	if dist.Cmp(bound) >= 0 {
		t.Fatalf("%s(%d) at %d/%d: got %d, %s from the exact %s; want under ½ + |c|/2⁶⁴ = %s", what, c, n, d, got, dist.FloatString(6), q.FloatString(6), bound.FloatString(6))
	}
}

// Rates and counts the generators are forced to try, besides the full range.
var (
	edgeRates  = []uint64{1, 2, 3, 24_000_000, 62_500_000, 1e9, 3e9, 2_299_999_917, 1e10, math.MaxUint64 - 1, math.MaxUint64}
	edgeCounts = []int64{0, 1, -1, 2, -2, 999_999_999, 1e9, -1e9, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
)

func rateGen() *rapid.Generator[uint64] {
	return rapid.OneOf(rapid.SampledFrom(edgeRates), rapid.Uint64Range(1, math.MaxUint64), rapid.Uint64Range(1e6, 1e10))
}

func countGen() *rapid.Generator[int64] {
	return rapid.OneOf(rapid.SampledFrom(edgeCounts), rapid.Int64(), rapid.Int64Range(-1e12, 1e12))
}

// TestConversionAgainstBig checks both directions against math/big on counts
// from every int64 and rates from every uint64 above zero. .ci/run raises
// the number of checks with -rapid.checks.
func TestConversionAgainstBig(t *testing.T) {
	rapid.Check(t, checkBothDirections)
}

func checkBothDirections(t *rapid.T) {
	hz := rateGen().Draw(t, "hz")
	c := countGen().Draw(t, "count")
	r, err := NewTickRate(hz)
	if err != nil {
		t.Fatalf("NewTickRate(%d): %v", hz, err)
	}
	dur, ticks := int64(Tickdelta(c).Duration(r)), int64(r.Ticks(time.Duration(c)))
	checkConversion(t, "Duration", c, 1e9, hz, dur)
	checkConversion(t, "Ticks", c, hz, 1e9, ticks)
	checkNearest(t, "Duration", c, 1e9, hz, dur)
	checkNearest(t, "Ticks", c, hz, 1e9, ticks)
}

// TestConversionExactOnMultiples draws counts that are exact multiples of the
// ratio, which must convert with no rounding at all.
func TestConversionExactOnMultiples(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		hz := rateGen().Draw(t, "hz")
		r, _ := NewTickRate(hz)
		// k·hz/g ticks are exactly k·10⁹/g nanoseconds, g = gcd(hz, 10⁹).
		g := new(big.Int).GCD(nil, nil, new(big.Int).SetUint64(hz), big.NewInt(1e9)).Uint64()
		ticksUnit, nanosUnit := hz/g, uint64(1e9)/g
		bound := int64(math.MaxInt64 / max(ticksUnit, nanosUnit)) // 0 where only k = 0 fits
		k := rapid.OneOf(rapid.Int64Range(-bound, bound), rapid.SampledFrom([]int64{-bound, bound})).Draw(t, "k")
		ticks, nanos := k*int64(ticksUnit), k*int64(nanosUnit)
		if got := Tickdelta(ticks).Duration(r); int64(got) != nanos {
			t.Fatalf("Tickdelta(%d).Duration(%d Hz) = %d; want exactly %d", ticks, hz, got, nanos)
		}
		if got := r.Ticks(time.Duration(nanos)); int64(got) != ticks {
			t.Fatalf("Ticks(%d ns) at %d Hz = %d; want exactly %d", nanos, hz, got, ticks)
		}
	})
}

// TestConversionMonotone checks that a larger count never converts to a
// smaller result, in both directions.
func TestConversionMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r, _ := NewTickRate(rateGen().Draw(t, "hz"))
		a, b := countGen().Draw(t, "a"), countGen().Draw(t, "b")
		if a > b {
			a, b = b, a
		}
		if da, db := Tickdelta(a).Duration(r), Tickdelta(b).Duration(r); da > db {
			t.Fatalf("Duration not monotone: %d → %d but %d → %d", a, da, b, db)
		}
		if ta, tb := r.Ticks(time.Duration(a)), r.Ticks(time.Duration(b)); ta > tb {
			t.Fatalf("Ticks not monotone: %d → %d but %d → %d", a, ta, b, tb)
		}
	})
}

// TestScaleMatchesItsDefinition checks each part of a scale against its
// definition in math/big: a = ⌊n/d⌋, b the odd integer nearest
// (n mod d)·2⁶⁴/d (the upper one on a tie), j = b>>1, and
// the range of counts whose R = c·a + ⌊(c·b + 2⁶³)/2⁶⁴⌋ fits an int64,
// with the counts just outside it. It then converts the counts on both
// sides of each end of that range, where saturation begins.
func TestScaleMatchesItsDefinition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		hz := rateGen().Draw(t, "hz")
		r, _ := NewTickRate(hz)
		for _, k := range []struct {
			what string
			n, d uint64
			s    scale
		}{
			{"Duration", 1e9, hz, r.t.toNanos},
			{"Ticks", hz, 1e9, r.t.toTicks},
		} {
			n, d := new(big.Int).SetUint64(k.n), new(big.Int).SetUint64(k.d)
			a, rem := new(big.Int).DivMod(n, d, new(big.Int))
			b := bigNearestOdd(new(big.Int).Lsh(rem, 64), d)
			if !a.IsUint64() || a.Uint64() != k.s.a || !b.IsUint64() || b.Uint64() != k.s.b || k.s.j != k.s.b>>1 {
				t.Fatalf("scale for %d/%d has a = %d, b = %d, j = %d; want %s, %s, b>>1", k.n, k.d, k.s.a, k.s.b, k.s.j, a, b)
			}
			least := int64(k.s.low ^ 1<<63)
			greatest := int64(k.s.low + k.s.span ^ 1<<63)
			fits := func(c int64) bool {
				v := bigR(a, b, c)
				return v.IsInt64()
			}
			if least > 0 || greatest < 0 || !fits(least) || !fits(greatest) {
				t.Fatalf("scale for %d/%d: R(%d) = %s or R(%d) = %s is past the int64 range", k.n, k.d, least, bigR(a, b, least), greatest, bigR(a, b, greatest))
			}
			if least > math.MinInt64 && fits(least-1) || greatest < math.MaxInt64 && fits(greatest+1) {
				t.Fatalf("scale for %d/%d: [%d, %d] is not the whole range of counts that fit", k.n, k.d, least, greatest)
			}
			if k.s.a == 0 && (least != math.MinInt64 || greatest != math.MaxInt64) {
				t.Fatalf("scale for %d/%d: a = 0 and yet counts in [%d, %d] only fit", k.n, k.d, least, greatest)
			}
			convert := func(c int64) int64 {
				if k.what == "Duration" {
					return int64(Tickdelta(c).Duration(r))
				}
				return int64(r.Ticks(time.Duration(c)))
			}
			for _, edge := range []int64{least, greatest} {
				for delta := int64(-2); delta <= 2; delta++ {
					c := edge + delta
					if (delta < 0) != (c < edge) { // wrapped past an end of int64
						continue
					}
					checkConversion(t, k.what, c, k.n, k.d, convert(c))
				}
			}
		}
	})
}

// bigR returns c·a + ⌊(c·b + 2⁶³)/2⁶⁴⌋ exactly.
func bigR(a, b *big.Int, c int64) *big.Int {
	bc := big.NewInt(c)
	v := new(big.Int).Mul(bc, b)
	v.Add(v, new(big.Int).Lsh(big.NewInt(1), 63))
	v.Rsh(v, 64) // a floor, for negative v too
	return v.Add(v, new(big.Int).Mul(bc, a))
}

// bigNearestOdd returns the odd integer nearest x/y, the upper one where
// two are equally near, for x ≥ 0 and y > 0, by trying the odd integers
// around ⌊x/y⌋.
func bigNearestOdd(x, y *big.Int) *big.Int {
	exact := new(big.Rat).SetFrac(x, y)
	floor := new(big.Int).Quo(x, y)
	var best *big.Int
	var bestDist *big.Rat
	for delta := int64(-1); delta <= 2; delta++ {
		c := new(big.Int).Add(floor, big.NewInt(delta))
		if c.Bit(0) == 0 || c.Sign() < 0 {
			continue
		}
		dist := new(big.Rat).Sub(new(big.Rat).SetInt(c), exact)
		dist.Abs(dist)
		if best == nil || dist.Cmp(bestDist) <= 0 { // ascending: ties go up
			best, bestDist = c, dist
		}
	}
	return best
}

func TestGigahertzTable(t *testing.T) {
	if want := newRateTable(1e9); gigahertzTable != *want {
		t.Fatalf("the written-out 1 GHz table is %+v; want %+v", gigahertzTable, *want)
	}
	if r, _ := NewTickRate(1e9); r != gigahertz() {
		t.Fatalf("NewTickRate(1e9) = %+v; want Gigahertz", r)
	}
}

// TestTickRateEquality checks that == on TickRate means equal rates, also
// after the collector ran and while goroutines race to make the same rate.
func TestTickRateEquality(t *testing.T) {
	a, _ := NewTickRate(24_000_000)
	runtime.GC()
	b, _ := ParseTickRate("24 MHz")
	if a != b {
		t.Fatalf("two 24 MHz rates are not ==")
	}
	if c, _ := NewTickRate(24_000_001); a == c {
		t.Fatalf("24 MHz == 24.000001 MHz")
	}
	for round := range 50 {
		hz := uint64(1_000_000 + round) // a rate no earlier round held
		var wg sync.WaitGroup
		got := make([]TickRate, 8)
		for i := range got {
			wg.Go(func() { got[i], _ = NewTickRate(hz) })
		}
		wg.Wait()
		for i := range got {
			if got[i] != got[0] || got[i].Hertz() != hz {
				t.Fatalf("round %d: goroutine %d made %v, goroutine 0 %v", round, i, got[i], got[0])
			}
		}
		runtime.GC() // let the tables of earlier rounds go
	}
}

// TestTickRateTablesAreCollected checks that making many rates does not keep
// their tables: a parser fed untrusted input must not leak.
func TestTickRateTablesAreCollected(t *testing.T) {
	count := func() (n int) {
		interned.Range(func(any, any) bool { n++; return true })
		return n
	}
	for hz := range uint64(10_000) {
		NewTickRate(hz + 5_000_000_000)
	}
	deadline := time.Now().Add(10 * time.Second)
	for count() > 1000 {
		if time.Now().After(deadline) {
			t.Fatalf("%d rate tables still interned after the collector ran", count())
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

func TestZeroTickRate(t *testing.T) {
	var r TickRate
	for _, c := range edgeCounts {
		if got := Tickdelta(c).Duration(r); got != 0 {
			t.Errorf("Tickdelta(%d).Duration(zero rate) = %v; want 0", c, got)
		}
		if got := r.Ticks(time.Duration(c)); got != 0 {
			t.Errorf("zero rate .Ticks(%d) = %v; want 0", c, got)
		}
	}
	if got, want := r.String(), "0 Hz"; got != want {
		t.Errorf("zero rate String() = %q; want %q", got, want)
	}
	if r.Hertz() != 0 {
		t.Errorf("zero rate Hertz() = %d; want 0", r.Hertz())
	}
}

// The seed's four examples.

func TestSeedAppleSilicon(t *testing.T) {
	r, err := NewTickRate(24_000_000)
	if err != nil {
		t.Fatal(err)
	}
	start, end := Tickstamp(1_000_000), Tickstamp(1_000_024)
	ticks := end.Sub(start)
	if ticks != 24 {
		t.Fatalf("end.Sub(start) = %v; want 24 ticks", ticks)
	}
	if got := ticks.Duration(r); got != time.Microsecond {
		t.Errorf("24 ticks at 24 MHz = %v; want 1µs", got)
	}
	if got := r.Ticks(time.Second); got != 24_000_000 {
		t.Errorf("1s at 24 MHz = %v; want 24000000 ticks", got)
	}
}

func TestSeedThreeGigahertz(t *testing.T) {
	r, err := NewTickRate(3_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if got := Tickdelta(3000).Duration(r); got != time.Microsecond {
		t.Errorf("3000 ticks at 3 GHz = %v; want exactly 1µs", got)
	}
	if got := Tickdelta(1000).Duration(r); got != 333 && got != 334 {
		t.Errorf("1000 ticks at 3 GHz = %v; want 333ns or 334ns", got)
	}
}

func TestSeedOneHertzSaturates(t *testing.T) {
	r, err := NewTickRate(1)
	if err != nil {
		t.Fatal(err)
	}
	if got := maxTickdelta.Duration(r); got != math.MaxInt64 {
		t.Errorf("maxTickdelta at 1 Hz = %v; want the largest duration", got)
	}
	if got := minTickdelta.Duration(r); got != math.MinInt64 {
		t.Errorf("minTickdelta at 1 Hz = %v; want the smallest duration", got)
	}
}

func TestSeedZeroRateRefused(t *testing.T) {
	r, err := NewTickRate(0)
	if err != errZeroRate {
		t.Fatalf("NewTickRate(0) error = %v; want errZeroRate", err)
	}
	if r != (TickRate{}) {
		t.Fatalf("NewTickRate(0) = %+v; want the zero TickRate", r)
	}
	if got, want := err.Error(), "counter: a rate of 0 Hz is no rate"; got != want {
		t.Errorf("message %q; want %q", got, want)
	}
}

func TestTickstampSubWraps(t *testing.T) {
	tests := []struct {
		t, u Tickstamp
		want Tickdelta
	}{
		{10, 3, 7},
		{3, 10, -7},
		{0, math.MaxUint64, 1}, // across the counter's wrap
		{math.MaxUint64, 0, -1},
		{1 << 63, 0, minTickdelta},
		{1<<63 - 1, 0, maxTickdelta},
	}
	for _, tt := range tests {
		if got := tt.t.Sub(tt.u); got != tt.want {
			t.Errorf("Tickstamp(%d).Sub(%d) = %d; want %d", tt.t, tt.u, got, tt.want)
		}
		if got := tt.u.add(tt.want); got != tt.t {
			t.Errorf("Tickstamp(%d).Add(%d) = %d; want %d", tt.u, tt.want, got, tt.t)
		}
	}
}

func TestConversionAllocs(t *testing.T) {
	r, _ := NewTickRate(2_300_000_000)
	var sink int64
	if n := testing.AllocsPerRun(100, func() {
		sink += int64(Tickdelta(sink).Duration(r)) + int64(r.Ticks(time.Duration(sink)))
	}); n != 0 {
		t.Errorf("conversion allocates %v times; want 0", n)
	}
}

// TestFractionalAgainstReference checks Seconds and Nanoseconds against
// math/big: the exact quotient rounded once to the nearest float64, for
// any span and any rate, the ends of both ranges included.
func TestFractionalAgainstReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		hz := rapid.OneOf(rapid.Uint64Range(1, math.MaxUint64), rapid.Uint64Range(1e6, 1e10),
			rapid.SampledFrom([]uint64{1, 3, 1e6, 1e9, 2_599_998_131, 24_000_000, 1e10, math.MaxUint64})).Draw(t, "hz")
		d := Tickdelta(rapid.OneOf(rapid.Int64(), rapid.Int64Range(-1e6, 1e6),
			rapid.SampledFrom([]int64{0, 1, -1, math.MaxInt64, math.MinInt64, 1 << 53, 1<<53 + 1, -(1<<53 + 1)})).Draw(t, "d"))
		r := TickRate{newRateTable(hz)}
		for _, tc := range []struct {
			name string
			got  float64
			m    int64
		}{{"Seconds", d.Seconds(r), 1}, {"Nanoseconds", d.Nanoseconds(r), 1e9}} {
			num := new(big.Int).Mul(big.NewInt(int64(d)), big.NewInt(tc.m))
			want, _ := new(big.Rat).SetFrac(num, new(big.Int).SetUint64(hz)).Float64()
			if tc.got != want {
				t.Fatalf("Tickdelta(%d).%s at %d Hz = %v; want %v", d, tc.name, hz, tc.got, want)
			}
		}
	})
}

// TestFractionalAtZeroRate: the zero TickRate converts every span to 0.
func TestFractionalAtZeroRate(t *testing.T) {
	if s, ns := Tickdelta(5).Seconds(TickRate{}), Tickdelta(5).Nanoseconds(TickRate{}); s != 0 || ns != 0 {
		t.Fatalf("at the zero rate: %v s, %v ns; want 0", s, ns)
	}
}

// TestFractionalAllocatesNothing: Seconds and Nanoseconds allocate nothing.
func TestFractionalAllocatesNothing(t *testing.T) {
	r, _ := NewTickRate(2_300_000_000)
	if n := testing.AllocsPerRun(100, func() { sinkFloat = Tickdelta(12345).Seconds(r) + Tickdelta(-1<<62).Nanoseconds(r) }); n != 0 {
		t.Fatalf("%v allocations; want 0", n)
	}
}
