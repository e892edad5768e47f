package counter

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
	"time"
)

// The conversion benchmarks each convert one batch of 1,024 spans per
// operation and also report ns/conv, the time of one conversion. The spans
// are latencies a service records: 1 tick to about 4 seconds at 2.3 GHz,
// spread evenly in their logarithm, a few of them negative.
const batch = 1024

var (
	benchRate, _ = NewTickRate(2_300_000_000)
	benchSpans   = func() (s [batch]Tickdelta) {
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range s {
			s[i] = Tickdelta(1) << rng.IntN(33)
			s[i] += Tickdelta(rng.Int64N(int64(s[i])))
			if i%16 == 0 {
				s[i] = -s[i]
			}
		}
		return s
	}()
	benchDurations = func() (d [batch]time.Duration) {
		for i, s := range benchSpans {
			d[i] = s.Duration(benchRate)
		}
		return d
	}()
	sinkDuration time.Duration
	sinkTicks    Tickdelta
)

func reportPerConversion(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/batch, "ns/conv")
}

func BenchmarkConvert(b *testing.B) {
	b.Run("Duration", func(b *testing.B) {
		b.ReportAllocs()
		r := benchRate // a local, as in a service's loop, not a global re-read
		var acc time.Duration
		for b.Loop() {
			for _, d := range &benchSpans {
				acc += d.Duration(r)
			}
		}
		sinkDuration = acc
		reportPerConversion(b)
	})
	b.Run("Ticks", func(b *testing.B) {
		b.ReportAllocs()
		r := benchRate
		var acc Tickdelta
		for b.Loop() {
			for _, d := range &benchDurations {
				acc += r.Ticks(d)
			}
		}
		sinkTicks = acc
		reportPerConversion(b)
	})
	// The way most peers convert: a float64 multiply by nanoseconds per tick,
	// inexact past 2⁵³ and with no saturation.
	b.Run("Float64", func(b *testing.B) {
		b.ReportAllocs()
		nsPerTick := 1e9 / float64(benchRate.Hertz())
		var acc time.Duration
		for b.Loop() {
			for _, d := range &benchSpans {
				acc += time.Duration(float64(d) * nsPerTick)
			}
		}
		sinkDuration = acc
		reportPerConversion(b)
	})
	// Exact by a 128-bit division: |d|·10⁹ / hz, the sign put back.
	b.Run("Div64", func(b *testing.B) {
		b.ReportAllocs()
		hz := benchRate.Hertz()
		var acc time.Duration
		for b.Loop() {
			for _, d := range &benchSpans {
				mag := uint64(d)
				if d < 0 {
					mag = -mag
				}
				hi, lo := bits.Mul64(mag, 1e9)
				q, _ := bits.Div64(hi, lo, hz) // hi < hz for every span here
				if d < 0 {
					acc -= time.Duration(q)
				} else {
					acc += time.Duration(q)
				}
			}
		}
		sinkDuration = acc
		reportPerConversion(b)
	})
	b.Run("Big", func(b *testing.B) {
		b.ReportAllocs()
		hz := new(big.Int).SetUint64(benchRate.Hertz())
		giga := big.NewInt(1e9)
		var acc time.Duration
		for b.Loop() {
			for _, d := range &benchSpans {
				q := new(big.Int).Mul(big.NewInt(int64(d)), giga)
				acc += time.Duration(q.Quo(q, hz).Int64())
			}
		}
		sinkDuration = acc
		reportPerConversion(b)
	})
}

// BenchmarkConvertStore converts the same batches as [BenchmarkConvert] but
// stores each result to an array instead of adding it up, so conversions
// do not wait on one another through a sum: what a service does when it
// converts a batch of recorded spans.
func BenchmarkConvertStore(b *testing.B) {
	b.Run("Duration", func(b *testing.B) {
		b.ReportAllocs()
		r := benchRate
		out := new([batch]time.Duration)
		for b.Loop() {
			for i, d := range &benchSpans {
				out[i] = d.Duration(r)
			}
		}
		sinkDuration = out[batch-1]
		reportPerConversion(b)
	})
	b.Run("Ticks", func(b *testing.B) {
		b.ReportAllocs()
		r := benchRate
		out := new([batch]Tickdelta)
		for b.Loop() {
			for i, d := range &benchDurations {
				out[i] = r.Ticks(d)
			}
		}
		sinkTicks = out[batch-1]
		reportPerConversion(b)
	})
	b.Run("Float64", func(b *testing.B) {
		b.ReportAllocs()
		nsPerTick := 1e9 / float64(benchRate.Hertz())
		out := new([batch]time.Duration)
		for b.Loop() {
			for i, d := range &benchSpans {
				out[i] = time.Duration(float64(d) * nsPerTick)
			}
		}
		sinkDuration = out[batch-1]
		reportPerConversion(b)
	})
	// Exact by a 128-bit division, in each direction: |c|·n / d, the sign
	// put back.
	b.Run("Div64", func(b *testing.B) {
		b.ReportAllocs()
		hz := benchRate.Hertz()
		out := new([batch]time.Duration)
		for b.Loop() {
			for i, d := range &benchSpans {
				out[i] = time.Duration(div64(int64(d), 1e9, hz))
			}
		}
		sinkDuration = out[batch-1]
		reportPerConversion(b)
	})
	b.Run("Div64Ticks", func(b *testing.B) {
		b.ReportAllocs()
		hz := benchRate.Hertz()
		out := new([batch]Tickdelta)
		for b.Loop() {
			for i, d := range &benchDurations {
				out[i] = Tickdelta(div64(int64(d), hz, 1e9))
			}
		}
		sinkTicks = out[batch-1]
		reportPerConversion(b)
	})
}

// div64 returns ⌊|c|·n/d⌋ with c's sign. It panics where the quotient
// passes 2⁶⁴, which no benchmark span reaches.
func div64(c int64, n, d uint64) int64 {
	neg := c >> 63
	hi, lo := bits.Mul64(uint64((c^neg)-neg), n)
	q, _ := bits.Div64(hi, lo, d)
	return (int64(q) ^ neg) - neg
}

// TestBenchSpansAreExactForDiv64 keeps the Div64 baselines honest: every
// span they divide must give the same answer as the conversion within one
// unit, in both directions.
func TestBenchSpansAreExactForDiv64(t *testing.T) {
	hz := benchRate.Hertz()
	for i, d := range benchSpans {
		checkConversion(t, "Duration", int64(d), 1e9, hz, int64(d.Duration(benchRate)))
		checkConversion(t, "div64", int64(d), 1e9, hz, div64(int64(d), 1e9, hz))
		c := benchDurations[i]
		checkConversion(t, "Ticks", int64(c), hz, 1e9, int64(benchRate.Ticks(c)))
		checkConversion(t, "div64", int64(c), hz, 1e9, div64(int64(c), hz, 1e9))
	}
}
