package counter

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
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

var (
	storedDurations [batch]time.Duration
	storedTicks     [batch]Tickdelta
)

// A convertLoop converts one batch. The adding loops make each result wait
// on the sum; the storing loops, as a service converting recorded spans,
// do not. Each is one function, not inlined, so that the benchmarks and
// TestConversionReport time the same code.
type convertLoop struct {
	name string
	run  func()
}

var (
	addingLoops = []convertLoop{
		{"Duration", addDurations},
		{"Ticks", addTicks},
		// The way most peers convert: a float64 multiply by nanoseconds
		// per tick, inexact past 2⁵³ and with no saturation.
		{"Float64", addFloat64},
		// Exact by a 128-bit division: |d|·10⁹ / hz, the sign put back.
		{"Div64", addDiv64},
	}
	storingLoops = []convertLoop{
		{"Duration", storeDurations},
		{"Ticks", storeTicks},
		{"Float64", storeFloat64},
		{"Div64", storeDiv64},
		{"Div64Ticks", storeDiv64Ticks},
	}
)

//go:noinline
func addDurations() {
	r := benchRate // a local, as in a service's loop, not a global re-read
	var acc time.Duration
	for _, d := range &benchSpans {
		acc += d.Duration(r)
	}
	sinkDuration = acc
}

//go:noinline
func addTicks() {
	r := benchRate
	var acc Tickdelta
	for _, d := range &benchDurations {
		acc += r.Ticks(d)
	}
	sinkTicks = acc
}

//go:noinline
func addFloat64() {
	nsPerTick := 1e9 / float64(benchRate.Hertz())
	var acc time.Duration
	for _, d := range &benchSpans {
		acc += time.Duration(float64(d) * nsPerTick)
	}
	sinkDuration = acc
}

//go:noinline
func addDiv64() {
	hz := benchRate.Hertz()
	var acc time.Duration
	for _, d := range &benchSpans {
		acc += time.Duration(div64(int64(d), 1e9, hz))
	}
	sinkDuration = acc
}

//go:noinline
func storeDurations() {
	r := benchRate
	for i, d := range &benchSpans {
		storedDurations[i] = d.Duration(r)
	}
}

//go:noinline
func storeTicks() {
	r := benchRate
	for i, d := range &benchDurations {
		storedTicks[i] = r.Ticks(d)
	}
}

//go:noinline
func storeFloat64() {
	nsPerTick := 1e9 / float64(benchRate.Hertz())
	for i, d := range &benchSpans {
		storedDurations[i] = time.Duration(float64(d) * nsPerTick)
	}
}

//go:noinline
func storeDiv64() {
	hz := benchRate.Hertz()
	for i, d := range &benchSpans {
		storedDurations[i] = time.Duration(div64(int64(d), 1e9, hz))
	}
}

//go:noinline
func storeDiv64Ticks() {
	hz := benchRate.Hertz()
	for i, d := range &benchDurations {
		storedTicks[i] = Tickdelta(div64(int64(d), hz, 1e9))
	}
}

// div64 returns ⌊|c|·n/d⌋ with c's sign. It panics where the quotient
// passes 2⁶⁴, which no benchmark span reaches.
func div64(c int64, n, d uint64) int64 {
	neg := c >> 63
	hi, lo := bits.Mul64(uint64((c^neg)-neg), n)
	q, _ := bits.Div64(hi, lo, d)
	return (int64(q) ^ neg) - neg
}

func runConvertLoops(b *testing.B, loops []convertLoop) {
	for _, l := range loops {
		b.Run(l.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				l.run()
			}
			reportPerConversion(b)
		})
	}
}

// BenchmarkConvert adds up the conversions of each batch.
func BenchmarkConvert(b *testing.B) {
	runConvertLoops(b, addingLoops)
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

// BenchmarkConvertStore stores each conversion of a batch to an array.
func BenchmarkConvertStore(b *testing.B) {
	runConvertLoops(b, storingLoops)
}

// TestConversionReport times the conversion loops on a loaded machine, where
// benchmarks spread by half their value: it runs every loop once a round,
// interleaved, for 20,000 rounds, and logs each loop's 10th percentile per
// conversion, which preemption rarely reaches, with the ratios BENCHMARKS.md
// quotes. It asserts nothing about speed. Run it with
//
//	COUNTER_CONVERT_REPORT=1 go test -run TestConversionReport -v .
func TestConversionReport(t *testing.T) {
	if os.Getenv("COUNTER_CONVERT_REPORT") != "1" {
		t.Skip("set COUNTER_CONVERT_REPORT=1 to time the conversions")
	}
	const rounds = 20_000
	p10 := func(loops []convertLoop) map[string]float64 {
		ns := make([][]float64, len(loops))
		for range rounds {
			for i, l := range loops {
				start := time.Now()
				l.run()
				ns[i] = append(ns[i], float64(time.Since(start).Nanoseconds())/batch)
			}
		}
		res := make(map[string]float64)
		for i, l := range loops {
			slices.Sort(ns[i])
			res[l.name] = ns[i][rounds/10]
			t.Logf("%-10s %6.3f ns/conv", l.name, res[l.name])
		}
		return res
	}
	t.Log("adding up:")
	add := p10(addingLoops)
	t.Log("storing:")
	store := p10(storingLoops)
	for _, dir := range []struct{ name, div string }{{"Duration", "Div64"}, {"Ticks", "Div64Ticks"}} {
		t.Logf("%-8s adding %.2f× float64; storing %.2f× float64, %.2f× faster than %s",
			dir.name, add[dir.name]/add["Float64"], store[dir.name]/store["Float64"], store[dir.div]/store[dir.name], dir.div)
	}
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

var sinkFloat float64

// BenchmarkSeconds converts a batch of spans to float64 seconds: Seconds,
// rounded once from the exact quotient, beside the naive float64(d)/hz,
// which rounds twice past 2⁵³ ticks.
func BenchmarkSeconds(b *testing.B) {
	hz := float64(benchRate.Hertz())
	for _, l := range []struct {
		name string
		f    func(Tickdelta) float64
	}{
		{"Seconds", func(d Tickdelta) float64 { return d.Seconds(benchRate) }},
		{"naive", func(d Tickdelta) float64 { return float64(d) / hz }},
	} {
		b.Run(l.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, d := range &benchSpans {
					sinkFloat += l.f(d)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/conv")
		})
	}
}
