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

// checkRoundsUpOnlyNear checks the sharper claim of the comment on scale:
// where the exact quotient q = c·n/d is in range and not whole, the result's
// magnitude is ⌈|q|⌉ only where ⌈|q|⌉ − |q| < |c|/2⁶⁴, and ⌊|q|⌋ elsewhere.
func checkRoundsUpOnlyNear(t rapid.TB, what string, c int64, n, d uint64, got int64) {
	t.Helper()
	q := exactQuotient(c, n, d)
	if q.IsInt() || q.Cmp(bigMaxInt64) > 0 || q.Cmp(bigMinInt64) < 0 {
		return // checked by checkConversion
	}
	absQ := new(big.Rat).Abs(q)
	floor := new(big.Int).Quo(absQ.Num(), absQ.Denom())
	absGot := new(big.Int).Abs(big.NewInt(got))
	if absGot.Cmp(floor) == 0 {
		return
	}
	// Rounded up: the gap to the integer above, times 2⁶⁴, must be below |c|.
	gap := new(big.Rat).Sub(new(big.Rat).SetInt(absGot), absQ)
	gap.Mul(gap, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 64)))
	absC := new(big.Int).Abs(big.NewInt(c))
	if gap.Cmp(new(big.Rat).SetInt(absC)) >= 0 {
		t.Fatalf("%s(%d) at %d/%d: got %d, rounded away from %s by a gap of %s/2⁶⁴; want the floor of the magnitude", what, c, n, d, got, q.FloatString(3), gap.FloatString(3))
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
	checkRoundsUpOnlyNear(t, "Duration", c, 1e9, hz, dur)
	checkRoundsUpOnlyNear(t, "Ticks", c, hz, 1e9, ticks)
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
// definition in math/big: a = ⌊n/d⌋, b = ⌈(n mod d)·2⁶⁴/d⌉, and lim the
// largest magnitude up to 2⁶³ whose R = m·a + ⌊m·b/2⁶⁴⌋ is below 2⁶³. It
// then converts the counts on both sides of lim, where saturation begins.
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
			b := bigCeilDiv(new(big.Int).Lsh(rem, 64), d)
			if !a.IsUint64() || a.Uint64() != k.s.a || !b.IsUint64() || b.Uint64() != k.s.b {
				t.Fatalf("scale for %d/%d has a = %d, b = %d; want %s, %s", k.n, k.d, k.s.a, k.s.b, a, b)
			}
			limit := new(big.Int).Lsh(big.NewInt(1), 63)
			if bigR(a, b, k.s.lim).Cmp(limit) >= 0 {
				t.Fatalf("scale for %d/%d: R(lim = %d) = %s is past the int64 range", k.n, k.d, k.s.lim, bigR(a, b, k.s.lim))
			}
			if k.s.lim > 1<<63 || k.s.lim < 1<<63 && bigR(a, b, k.s.lim+1).Cmp(limit) < 0 {
				t.Fatalf("scale for %d/%d: lim = %d is not the largest magnitude that fits", k.n, k.d, k.s.lim)
			}
			// Counts at the edge of saturation, both signs. A magnitude
			// of 2⁶³ is MinInt64 only.
			convert := func(c int64) int64 {
				if k.what == "Duration" {
					return int64(Tickdelta(c).Duration(r))
				}
				return int64(r.Ticks(time.Duration(c)))
			}
			for _, m := range []uint64{k.s.lim - 1, k.s.lim, k.s.lim + 1, k.s.lim + 2} {
				if m <= 1<<63-1 {
					checkConversion(t, k.what, int64(m), k.n, k.d, convert(int64(m)))
				}
				if m <= 1<<63 {
					checkConversion(t, k.what, -int64(m), k.n, k.d, convert(-int64(m)))
				}
			}
		}
	})
}

// bigR returns m·a + ⌊m·b/2⁶⁴⌋ exactly.
func bigR(a, b *big.Int, m uint64) *big.Int {
	bm := new(big.Int).SetUint64(m)
	frac := new(big.Int).Rsh(new(big.Int).Mul(bm, b), 64)
	return frac.Add(frac, new(big.Int).Mul(bm, a))
}

// bigCeilDiv returns ⌈x/y⌉ for x ≥ 0 and y > 0.
func bigCeilDiv(x, y *big.Int) *big.Int {
	q, m := new(big.Int).DivMod(x, y, new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func TestGigahertzTable(t *testing.T) {
	if want := newRateTable(1e9); gigahertz != *want {
		t.Fatalf("the written-out 1 GHz table is %+v; want %+v", gigahertz, *want)
	}
	if r, _ := NewTickRate(1e9); r != Gigahertz() {
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
	if got := MaxTickdelta.Duration(r); got != math.MaxInt64 {
		t.Errorf("MaxTickdelta at 1 Hz = %v; want the largest duration", got)
	}
	if got := MinTickdelta.Duration(r); got != math.MinInt64 {
		t.Errorf("MinTickdelta at 1 Hz = %v; want the smallest duration", got)
	}
}

func TestSeedZeroRateRefused(t *testing.T) {
	r, err := NewTickRate(0)
	if err != ErrZeroRate {
		t.Fatalf("NewTickRate(0) error = %v; want ErrZeroRate", err)
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
		{1 << 63, 0, MinTickdelta},
		{1<<63 - 1, 0, MaxTickdelta},
	}
	for _, tt := range tests {
		if got := tt.t.Sub(tt.u); got != tt.want {
			t.Errorf("Tickstamp(%d).Sub(%d) = %d; want %d", tt.t, tt.u, got, tt.want)
		}
		if got := tt.u.Add(tt.want); got != tt.t {
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
