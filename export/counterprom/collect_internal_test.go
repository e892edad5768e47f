package counterprom

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tickstamp/counter"
)

// BenchmarkCollect times a Collector's collect alone, without a Registry's
// Gather and its goroutines, so that callgrind can count its instructions
// (--toggle-collect='*counterprom*Collector*collect'): a Histogram of
// spans over 2 µs to 100 ms at 1 GHz, native buckets at a factor of 1.01
// and at most 160 of them, and 128 new spans through Histogram.Record
// before each collect, as the bench module's BenchmarkExportPrometheus
// records them.
func BenchmarkCollect(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	spans := make([]counter.Tickdelta, 1<<14)
	for i := range spans {
		spans[i] = counter.Tickdelta(2e3 * math.Pow(1e8/2e3, r.Float64()))
	}
	rate, err := counter.NewTickRate(1_000_000_000)
	if err != nil {
		b.Fatal(err)
	}
	h := counter.NewHistogram()
	c := New(h, rate, Opts{Name: "op_seconds", NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: 160})
	for range 8 {
		for _, d := range spans {
			h.Record(d)
		}
	}
	c.collect()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for _, d := range spans[i%128*128:][:128] {
			h.Record(d)
		}
		c.collect()
	}
}
