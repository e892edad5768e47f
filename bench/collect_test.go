package bench_test

// Collecting one busy histogram for export, each system against its own:
// counter's exporters (counterprom's Collector, counterotel's Producer)
// against Prometheus's native Histogram gathered by a Registry and
// OpenTelemetry's exponential histogram collected by a ManualReader, every
// one holding spans spread over about 2,000 buckets. Between two
// collections, with the timer stopped, 128 new spans of the same spread are recorded, so
// that each collection has new spans to take. BenchmarkExportPrometheusFamily
// collects 200 such histograms at once, counterprom's FamilyCollector
// against Prometheus's HistogramVec. Run with the others, or alone:
//
//	go test -run '^$' -bench Export -count 10 -benchmem

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/export/counterprom"
	otelmetric "go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// wideSpans are 16,384 spans spread evenly in the logarithm over 2·10³ to
// 10⁸ ticks of a 1 GHz counter, 2 µs to 100 ms: 15.6 doublings, so 2,000
// of a Snapshot's buckets (128 a doubling) and 2,000 buckets of an
// exponential histogram of scale 7, nearly all of them holding spans.
var wideSpans = func() (s [1 << 14]counter.Tickdelta) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range s {
		s[i] = counter.Tickdelta(2e3 * math.Pow(1e8/2e3, r.Float64()))
	}
	return s
}()

// wideFill is how many times a benchmark records wideSpans before it
// collects.
const wideFill = 8

// exportCase is one system's histogram: record adds a span, collect
// exports everything.
type exportCase struct {
	name    string
	record  func(counter.Tickdelta)
	collect func(b *testing.B)
	buckets func(b *testing.B) int // the buckets the export holds
}

func runExport(b *testing.B, c exportCase) {
	b.Run(c.name, func(b *testing.B) {
		for range wideFill {
			for _, d := range wideSpans {
				c.record(d)
			}
		}
		c.collect(b)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			for _, d := range wideSpans[i%128*128:][:128] {
				c.record(d)
			}
			b.StartTimer()
			c.collect(b)
		}
		b.ReportMetric(float64(c.buckets(b)), "buckets")
	})
}

func gatherOne(b *testing.B, reg *prometheus.Registry) int {
	mfs, err := reg.Gather()
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, s := range m.GetHistogram().GetPositiveSpan() {
				n += int(s.GetLength())
			}
		}
	}
	return n
}

// BenchmarkExportPrometheus runs each side with its native buckets
// unbounded, about 2,000 at schema 7, and with NativeHistogramMaxBucketNumber
// 160 (suffix "max160"), which both meet at schema 3.
func BenchmarkExportPrometheus(b *testing.B) {
	for _, most := range []uint32{0, 160} {
		suffix := ""
		if most > 0 {
			suffix = fmt.Sprintf("_max%d", most)
		}
		{
			h := counter.NewHistogram()
			r := h.Recorder()
			defer r.Close()
			reg := prometheus.NewRegistry()
			reg.MustRegister(counterprom.New(h, gigahertz, counterprom.Opts{
				Name: "span_seconds", Help: "Spans.", NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: most,
			}))
			runExport(b, exportCase{
				name:    "counterprom" + suffix,
				record:  r.Record,
				collect: func(b *testing.B) { gatherOne(b, reg) },
				buckets: func(b *testing.B) int { return gatherOne(b, reg) },
			})
		}
		{
			h := prometheus.NewHistogram(prometheus.HistogramOpts{
				Name: "span_seconds", Help: "Spans.", NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: most,
			})
			reg := prometheus.NewRegistry()
			reg.MustRegister(h)
			runExport(b, exportCase{
				name:    "prometheus" + suffix,
				record:  func(d counter.Tickdelta) { h.Observe(export.Seconds(d, gigahertz)) },
				collect: func(b *testing.B) { gatherOne(b, reg) },
				buckets: func(b *testing.B) int { return gatherOne(b, reg) },
			})
		}
	}
}

// otelHistogram returns the OpenTelemetry SDK's own Float64Histogram,
// aggregated as an exponential histogram at scale 7, up to 2,048 buckets:
// as fine as counterotel exports, with room for the spread.
func otelHistogram(b *testing.B, reader metric.Reader) otelmetric.Float64Histogram {
	mp := metric.NewMeterProvider(metric.WithReader(reader), metric.WithView(metric.NewView(
		metric.Instrument{Name: "span"},
		metric.Stream{Aggregation: metric.AggregationBase2ExponentialHistogram{MaxSize: 2048, MaxScale: 7}},
	)))
	b.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	h, err := mp.Meter("bench").Float64Histogram("span", otelmetric.WithUnit("s"))
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// collectOTel collects reader into rm and returns the positive buckets of
// the histogram "span", at scale 7.
func collectOTel(b *testing.B, reader metric.Reader, rm *metricdata.ResourceMetrics) int {
	if err := reader.Collect(context.Background(), rm); err != nil {
		b.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if eh, ok := m.Data.(metricdata.ExponentialHistogram[float64]); ok && m.Name == "span" {
				dp := eh.DataPoints[0]
				if dp.Scale != counterotel.Scale {
					b.Fatalf("scale %d, want %d", dp.Scale, counterotel.Scale)
				}
				return len(dp.PositiveBucket.Counts)
			}
		}
	}
	b.Fatal("no histogram collected")
	return 0
}

func BenchmarkExportOTel(b *testing.B) {
	{
		h := counter.NewHistogram()
		r := h.Recorder()
		defer r.Close()
		p := counterotel.NewProducer()
		if err := p.Register("span", h, gigahertz); err != nil {
			b.Fatal(err)
		}
		reader := metric.NewManualReader(metric.WithProducer(p))
		mp := metric.NewMeterProvider(metric.WithReader(reader))
		defer func() { _ = mp.Shutdown(context.Background()) }()
		var rm metricdata.ResourceMetrics
		runExport(b, exportCase{
			name:    "counterotel",
			record:  r.Record,
			collect: func(b *testing.B) { collectOTel(b, reader, &rm) },
			buckets: func(b *testing.B) int { return collectOTel(b, reader, &rm) },
		})
	}
	{
		reader := metric.NewManualReader()
		h := otelHistogram(b, reader)
		ctx := context.Background()
		var rm metricdata.ResourceMetrics
		runExport(b, exportCase{
			name:    "otel",
			record:  func(d counter.Tickdelta) { h.Record(ctx, export.Seconds(d, gigahertz)) },
			collect: func(b *testing.B) { collectOTel(b, reader, &rm) },
			buckets: func(b *testing.B) int { return collectOTel(b, reader, &rm) },
		})
	}
}

// familySeries is the number of series of BenchmarkExportPrometheusFamily.
const familySeries = 200

// BenchmarkExportPrometheusFamily collects a family of 200 series through
// counterprom's FamilyCollector against client_golang's HistogramVec with
// native buckets, each gathered by a Registry. Each series holds wideSpans
// once, about 2,000 buckets at schema 7, from its own offset in them;
// between two collections, with the timer stopped, 128 new spans are
// recorded into each series. ns/series is a collection's time over the
// series it exports.
func BenchmarkExportPrometheusFamily(b *testing.B) {
	labels := []string{"method", "route"}
	values := make([][]string, familySeries)
	for i := range values {
		values[i] = []string{[]string{"GET", "POST"}[i%2], fmt.Sprintf("/route/%d", i)}
	}
	{
		f, err := counter.NewFamily(labels, 0)
		if err != nil {
			b.Fatal(err)
		}
		series := make([]*counter.Histogram, familySeries)
		for i := range series {
			series[i] = f.With(values[i]...)
		}
		reg := prometheus.NewRegistry()
		reg.MustRegister(counterprom.NewFamily(f, gigahertz, counterprom.Opts{
			Name: "span_seconds", Help: "Spans.", NativeHistogramBucketFactor: 1.01,
		}))
		runFamilyExport(b, "counterprom", func(i int, d counter.Tickdelta) { series[i].Record(d) }, reg)
	}
	{
		vec := prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "span_seconds", Help: "Spans.", NativeHistogramBucketFactor: 1.01,
		}, labels)
		series := make([]prometheus.Observer, familySeries)
		for i := range series {
			series[i] = vec.WithLabelValues(values[i]...)
		}
		reg := prometheus.NewRegistry()
		reg.MustRegister(vec)
		runFamilyExport(b, "prometheus", func(i int, d counter.Tickdelta) { series[i].Observe(export.Seconds(d, gigahertz)) }, reg)
	}
}

// runFamilyExport runs one side of BenchmarkExportPrometheusFamily: record
// adds a span to series i, and reg gathers them all.
func runFamilyExport(b *testing.B, name string, record func(i int, d counter.Tickdelta), reg *prometheus.Registry) {
	b.Run(name, func(b *testing.B) {
		for i := range familySeries {
			for _, d := range wideSpans[i*len(wideSpans)/familySeries:] {
				record(i, d)
			}
			for _, d := range wideSpans[:i*len(wideSpans)/familySeries] {
				record(i, d)
			}
		}
		gatherOne(b, reg)
		b.ReportAllocs()
		b.ResetTimer()
		for n := 0; b.Loop(); n++ {
			b.StopTimer()
			for i := range familySeries {
				for _, d := range wideSpans[(n+i)%128*128:][:128] {
					record(i, d)
				}
			}
			b.StartTimer()
			gatherOne(b, reg)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/familySeries, "ns/series")
		b.ReportMetric(float64(gatherOne(b, reg))/familySeries, "buckets/series")
	})
}
