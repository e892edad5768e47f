package bench_test

// Side-by-side benchmarks of recording one span: counter's Histogram and
// Recorder against HdrHistogram, Prometheus's classic and native
// histograms, DDSketch and VictoriaMetrics's Histogram, over the same 1024
// spans. The spans are ticks of a 1 GHz counter, so nanoseconds: the
// libraries that take seconds get the span divided by 10⁹ as a float64, the
// conversion included in the time.
//
// Run them with
//
//	go test -run '^$' -bench . -count 3 -benchmem

import (
	"context"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/DataDog/sketches-go/ddsketch"
	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/VictoriaMetrics/metrics"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/internal/spantest"
	"go.opentelemetry.io/otel/sdk/metric"
)

// spans are the 1024 spans of the side-by-side benchmarks, as in the root
// package's bench_histogram_test.go.
var spans = spantest.Bench()

// gigahertz is the rate of the spans, 1 GHz.
var gigahertz = func() counter.TickRate {
	r, err := counter.NewTickRate(1e9)
	if err != nil {
		panic(err)
	}
	return r
}()

// hdrTop is the highest value of the HdrHistograms: the whole Tickdelta
// range, as counter's Histogram covers.
const hdrTop = math.MaxInt64

// classicBuckets are the Prometheus classic buckets: 16 bounds growing by a
// factor of about 2 from 30 ns to 1 ms, the spread of the spans (DefBuckets,
// 5 ms to 10 s, would put every span in the first bucket).
var classicBuckets = prometheus.ExponentialBucketsRange(30e-9, 1e-3, 16)

// nativeFactor is the NativeHistogramBucketFactor client_golang's
// documentation recommends, schema 3.
const nativeFactor = 1.1

func newClassic() prometheus.Histogram {
	return prometheus.NewHistogram(prometheus.HistogramOpts{Name: "span_seconds", Help: "Spans.", Buckets: classicBuckets})
}

func newNative() prometheus.Histogram {
	return prometheus.NewHistogram(prometheus.HistogramOpts{Name: "span_seconds", Help: "Spans.", NativeHistogramBucketFactor: nativeFactor})
}

func BenchmarkRecord(b *testing.B) {
	b.Run("ours=Recorder", func(b *testing.B) {
		r := counter.NewHistogram().Recorder()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			r.Record(spans[i&1023])
		}
	})
	b.Run("ours=Histogram", func(b *testing.B) {
		h := counter.NewHistogram()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			h.Record(spans[i&1023])
		}
	})
	for _, sigfigs := range []int{3, 2} {
		name := map[int]string{2: "hdr=2figures", 3: "hdr=3figures"}[sigfigs]
		b.Run(name, func(b *testing.B) {
			h := hdrhistogram.New(1, hdrTop, sigfigs)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := h.RecordValue(int64(spans[i&1023])); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The bare cases: what any histogram of 128 buckets a doubling does for a
	// span through a call, in the same loop: find the bucket and count it
	// (bucket), and also keep the exact sum and bounds that a Snapshot
	// promises (exact). HdrHistogram's RecordValue does the first, with
	// a total; a Recorder does the second, and checks for a hand-over.
	b.Run("bare=bucket", func(b *testing.B) {
		var f bareTally
		for i := 0; b.Loop(); i++ {
			f.bucket(spans[i&1023])
		}
	})
	b.Run("bare=exact", func(b *testing.B) {
		f := bareTally{min: math.MaxInt64}
		for i := 0; b.Loop(); i++ {
			f.exact(spans[i&1023])
		}
	})
	b.Run("prometheus=classic", func(b *testing.B) {
		h := newClassic()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			h.Observe(export.Seconds(spans[i&1023], gigahertz))
		}
	})
	b.Run("prometheus=native", func(b *testing.B) {
		h := newNative()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			h.Observe(export.Seconds(spans[i&1023], gigahertz))
		}
	})
	b.Run("otel=exponential", func(b *testing.B) {
		// The OpenTelemetry SDK's own histogram, aggregated at scale 7 as
		// counterotel exports: a Record finds the bucket under a lock.
		h := otelHistogram(b, metric.NewManualReader(), 2048, 7)
		ctx := context.Background()
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			h.Record(ctx, export.Seconds(spans[i&1023], gigahertz))
		}
	})
	b.Run("ddsketch=1%", func(b *testing.B) {
		s, err := ddsketch.NewDefaultDDSketch(0.01)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if err := s.Add(float64(spans[i&1023])); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("victoriametrics", func(b *testing.B) {
		h := metrics.NewSet().NewHistogram("span_seconds")
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			h.Update(export.Seconds(spans[i&1023], gigahertz))
		}
	})
}

// BenchmarkRecordParallel records from GOMAXPROCS goroutines at once (two
// on the 2-vCPU machine these were written on) into one shared histogram.
func BenchmarkRecordParallel(b *testing.B) {
	b.Run("ours=Histogram", func(b *testing.B) {
		h := counter.NewHistogram()
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				h.Record(spans[i&1023])
			}
		})
	})
	b.Run("ours=RecorderEach", func(b *testing.B) {
		h := counter.NewHistogram()
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			r := h.Recorder()
			defer r.Close()
			for i := 0; pb.Next(); i++ {
				r.Record(spans[i&1023])
			}
		})
	})
	b.Run("hdr=mutex", func(b *testing.B) {
		var mu sync.Mutex
		h := hdrhistogram.New(1, hdrTop, 3)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				mu.Lock()
				err := h.RecordValue(int64(spans[i&1023]))
				mu.Unlock()
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("prometheus=classic", func(b *testing.B) {
		h := newClassic()
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				h.Observe(export.Seconds(spans[i&1023], gigahertz))
			}
		})
	})
	b.Run("prometheus=native", func(b *testing.B) {
		h := newNative()
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				h.Observe(export.Seconds(spans[i&1023], gigahertz))
			}
		})
	})
	b.Run("victoriametrics", func(b *testing.B) {
		h := metrics.NewSet().NewHistogram("span_seconds")
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				h.Update(export.Seconds(spans[i&1023], gigahertz))
			}
		})
	})
}

// BenchmarkSeriesEightWriters times eight goroutines recording flat out
// into one series through Histogram.Record, at GOMAXPROCS 8 whatever the
// CPUs (and whatever -cpu names the benchmark): the contention that adds
// locks to a Histogram, for A/B runs of two builds. ns/op is the time of
// a span, the eight goroutines' spans over the wall time.
//
//	go test -run '^$' -bench SeriesEightWriters -count 10 . > b.txt
func BenchmarkSeriesEightWriters(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	h := counter.NewHistogram()
	b.SetParallelism(1) // a goroutine a P: eight
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			h.Record(spans[i&1023])
		}
	})
}

// BenchmarkMemory makes one histogram an iteration, so that -benchmem's
// B/op is the memory one takes: for ours, a Histogram with one Recorder
// that has recorded nothing (its state and the Histogram's shards), and for
// HdrHistogram, one of 1 to MaxInt64 at 3 and at 2 figures. It also reports
// a Recorder's own bytes, and HdrHistogram's ByteSize, as metrics.
func BenchmarkMemory(b *testing.B) {
	b.Run("ours=Recorder", func(b *testing.B) {
		h := counter.NewHistogram()
		bytes := spantest.Allocated(func() { h.Recorder().Close() })
		b.ReportAllocs()
		for b.Loop() {
			counter.NewHistogram().Recorder()
		}
		// After the loop: b.Loop's start clears metrics reported before.
		b.ReportMetric(float64(bytes), "recorder-bytes")
	})
	for _, sigfigs := range []int{3, 2} {
		name := map[int]string{2: "hdr=2figures", 3: "hdr=3figures"}[sigfigs]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var h *hdrhistogram.Histogram
			for b.Loop() {
				h = hdrhistogram.New(1, hdrTop, sigfigs)
			}
			b.ReportMetric(float64(h.ByteSize()), "ByteSize")
		})
	}
}

// A bareTally is the least state of a log-linear histogram of 128 buckets
// a doubling over the whole int64 range, as counter's: the bare cases of
// BenchmarkRecord count into it.
type bareTally struct {
	counts   [57 * 128]uint32
	lo, hi   uint64
	min, max counter.Tickdelta
}

// bareBucket is the bucket of a span of 0 or more ticks: exact below 256,
// then 128 a doubling.
func bareBucket(v uint64) uint64 {
	shift := 56 - uint64(bits.LeadingZeros64(v|255))
	return shift<<7 + v>>shift
}

// bucket counts d in its bucket, and nothing else.
//
//go:noinline
func (f *bareTally) bucket(d counter.Tickdelta) {
	f.counts[bareBucket(uint64(d))%uint64(len(f.counts))]++
}

// exact counts d in its bucket and keeps the exact sum, minimum and
// maximum.
//
//go:noinline
func (f *bareTally) exact(d counter.Tickdelta) {
	f.counts[bareBucket(uint64(d))%uint64(len(f.counts))]++
	var carry uint64
	f.lo, carry = bits.Add64(f.lo, uint64(d), 0)
	f.hi += carry
	if d > f.max {
		f.max = d
	}
	if d < f.min {
		f.min = d
	}
}

// collectBuckets is the number of buckets of a counter.Snapshot, which
// Interval adds each taken tally into: Prometheus's histogram gets as many
// in BenchmarkCollectWhileRecording.
const collectBuckets = (64 - 7) * 128

// BenchmarkCollectWhileRecording collects a histogram while two goroutines
// record into it flat out: counter's Interval over 64 Recorders, 62 of
// them idle and two recording, against a Prometheus histogram of as many
// buckets whose Write runs while two goroutines Observe. Each reports the
// median and 99th percentile of a collection (p50-µs, p99-µs).
func BenchmarkCollectWhileRecording(b *testing.B) {
	b.Run("ours=Interval", func(b *testing.B) {
		h := counter.NewHistogram()
		for i := range 62 {
			r := h.Recorder()
			r.Record(spans[i])
			defer r.Close()
		}
		var s counter.Snapshot
		collectWhile(b, func(w int, stop <-chan struct{}) {
			r := h.Recorder()
			defer r.Close()
			recordUntil(stop, w, r.Record)
		}, func() { h.Interval(&s) })
	})
	b.Run("prometheus=Write", func(b *testing.B) {
		h := prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "span_seconds", Help: "Spans.",
			Buckets: prometheus.ExponentialBucketsRange(1e-9, 9.2e9, collectBuckets),
		})
		var m dto.Metric
		collectWhile(b, func(w int, stop <-chan struct{}) {
			recordUntil(stop, w, func(d counter.Tickdelta) { h.Observe(export.Seconds(d, gigahertz)) })
		}, func() {
			if err := h.Write(&m); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// collectWhile times collect while two goroutines run record until stopped.
func collectWhile(b *testing.B, record func(w int, stop <-chan struct{}), collect func()) {
	stop := make(chan struct{})
	var writers sync.WaitGroup
	for w := range 2 {
		writers.Go(func() { record(w, stop) })
	}
	took := make([]time.Duration, 0, 1<<16)
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		collect()
		if len(took) < cap(took) {
			took = append(took, time.Since(t0))
		}
	}
	close(stop)
	writers.Wait()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds())/1e3, "p99-µs")
}

// recordUntil records the spans through record, from the w-th, until stop
// is closed.
func recordUntil(stop <-chan struct{}, w int, record func(counter.Tickdelta)) {
	for i := w; ; i++ {
		if i&1023 == 0 {
			select {
			case <-stop:
				return
			default:
			}
		}
		record(spans[i&1023])
	}
}
