package bench_test

// Collecting one busy histogram for export, each system against its own:
// counter's exporters (counterprom's Collector, counterotel's Producer)
// against Prometheus's native Histogram gathered by a Registry and
// OpenTelemetry's exponential histogram collected by a ManualReader, every
// one holding spans spread over about 2,000 buckets of scale 7 (the
// OpenTelemetry ones twice: with the SDK's 160 buckets, which takes them to
// scale 3, and with room for all of them). Between two
// collections, with the timer stopped, 128 new spans of the same spread are recorded, so
// that each collection has new spans to take; record-ns/op is the time of
// those records, timed apart, which with ns/op is the whole cost of a span
// recorded and collected. Prometheus's bare Collector (bare) does part of
// an exporter's work and returns output like its (the same, or within a few
// buckets of it), so that the benchmarks say what the rest costs. BenchmarkExportPrometheusFamily
// collects 200 such histograms at once, counterprom's FamilyCollector
// against Prometheus's HistogramVec. Run with the others, or alone:
//
//	go test -run '^$' -bench Export -count 10 -benchmem

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/export/counterprom"
	"go.opentelemetry.io/otel/attribute"
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

func runExport(b *testing.B, c exportCase) { runCase(b, c, false) }

// runExportRunning runs c as runExport does, but with the timer left
// running through the records, which it times apart with the collections:
// record-ns/op and collect-ns/op add up to ns/op, less the reads of the
// clock.
func runExportRunning(b *testing.B, c exportCase) { runCase(b, c, true) }

// runCase runs c, stopping the timer for the records between two
// collections unless running.
func runCase(b *testing.B, c exportCase, running bool) {
	b.Run(c.name, func(b *testing.B) {
		for range wideFill {
			for _, d := range wideSpans {
				c.record(d)
			}
		}
		c.collect(b)
		b.ReportAllocs()
		b.ResetTimer()
		var recording, collecting time.Duration // timed apart
		for i := 0; b.Loop(); i++ {
			if !running {
				b.StopTimer()
			}
			t0 := time.Now()
			for _, d := range wideSpans[i%128*128:][:128] {
				c.record(d)
			}
			t1 := time.Now()
			recording += t1.Sub(t0)
			if !running {
				b.StartTimer()
			}
			c.collect(b)
			if running {
				collecting += time.Since(t1)
			}
		}
		b.ReportMetric(float64(recording.Nanoseconds())/float64(b.N), "record-ns/op")
		if running {
			b.ReportMetric(float64(collecting.Nanoseconds())/float64(b.N), "collect-ns/op")
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
// 160 (suffix "max160"), which both meet at schema 3; with the bound, also
// a bare Collector that takes an Interval and sends fixed metrics
// (promBare).
func BenchmarkExportPrometheus(b *testing.B) {
	for _, most := range []uint32{0, 160} {
		suffix := ""
		if most > 0 {
			suffix = fmt.Sprintf("_max%d", most)
		}
		opts := counterprom.Opts{
			Name: "span_seconds", Help: "Spans.", NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: most,
		}
		// counterprom's Collector, with spans through a Recorder and
		// through Histogram.Record (runCollector).
		for _, locked := range []bool{false, true} {
			runCollector(b, "counterprom"+suffix, locked, func(h *counter.Histogram) prometheus.Collector {
				return counterprom.New(h, gigahertz, opts)
			})
		}
		// The bare Collector, with the bound: an Interval of the spans, as
		// counterprom's takes, then the metrics counterprom's Collector
		// made of the same spans, made once and sent again, so that the
		// Registry gathers what it gathers from counterprom. What
		// counterprom pays above it is walking the Interval's values and
		// making its metrics.
		if most > 0 {
			for _, locked := range []bool{false, true} {
				runCollector(b, "bare"+suffix, locked, func(h *counter.Histogram) prometheus.Collector {
					return newPromBare(b, h, opts)
				})
			}
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

// runCollector runs the export case name of the Collector that mk makes of
// a Histogram, gathered by a Registry of its own: spans recorded through a
// Recorder, whose Interval passes the barrier, or through
// Histogram.Record, whose locks let Interval take the tally without one,
// where locked (suffix "_locked").
func runCollector(b *testing.B, name string, locked bool, mk func(*counter.Histogram) prometheus.Collector) {
	h := counter.NewHistogram()
	r := h.Recorder()
	defer r.Close()
	record := r.Record
	if locked {
		record, name = h.Record, name+"_locked"
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(mk(h))
	runExport(b, exportCase{
		name:    name,
		record:  record,
		collect: func(b *testing.B) { gatherOne(b, reg) },
		buckets: func(b *testing.B) int { return gatherOne(b, reg) },
	})
}

// A promBare is the least a Collector of counterprom's metrics of a
// Histogram can do: at each collection it takes the Histogram's spans with
// an Interval into a Snapshot of its own, reused, reads the Snapshot's
// buckets, adding up their counts, and sends the metrics that counterprom's
// Collector sent at its first collection of wideSpans, made once. It is
// right only for that collection: the benchmarks time it beside
// counterprom's as the cost of the Interval and of the Registry's
// gathering of the same metrics.
type promBare struct {
	model   *counterprom.Collector // for Describe
	metrics []prometheus.Metric    // the model's first collection
	src     *counter.Histogram
	snap    counter.Snapshot
	spans   uint64 // the counts of the buckets read, so that the reads are not left out
}

// errNoSpan is the bare Collector's refusal of a first Interval that took no span:
// the benchmark would time nothing.
var errNoSpan = errors.New("the bare Collector's Intervals took no span")

func newPromBare(b *testing.B, h *counter.Histogram, opts counterprom.Opts) *promBare {
	m := counter.NewHistogram()
	for range wideFill {
		for _, d := range wideSpans {
			m.Record(d)
		}
	}
	f := &promBare{model: counterprom.New(m, gigahertz, opts), src: h}
	ch := make(chan prometheus.Metric, 8)
	f.model.Collect(ch)
	close(ch)
	for pm := range ch {
		f.metrics = append(f.metrics, pm)
	}
	if len(f.metrics) == 0 {
		b.Fatal("the model sent no metric")
	}
	return f
}

func (f *promBare) Describe(ch chan<- *prometheus.Desc) { f.model.Describe(ch) }

func (f *promBare) Collect(ch chan<- prometheus.Metric) {
	f.src.Interval(&f.snap)
	for bk := range f.snap.Buckets() {
		f.spans += bk.Count
	}
	if f.spans == 0 {
		ch <- prometheus.NewInvalidMetric(f.metrics[0].Desc(), errNoSpan)
		return
	}
	for _, pm := range f.metrics {
		ch <- pm
	}
}

// otelLimits are the most buckets and the finest scale of an exponential
// histogram, set alike on counterotel's Producer and on the SDK's own, so
// that both export the same buckets: the SDK's defaults (160 buckets, from
// scale 20; counterotel starts from 7, which is as fine as its spans are),
// and room for the whole spread at scale 7. Both histograms reach scale 3
// with the first, 126 buckets, and stay at 7 with the second, 1,998.
type otelLimit struct {
	name              string
	maxSize           int32
	maxScale, sdkFrom int32
	scale             int32 // the scale both export
}

var otelLimits = []otelLimit{
	{"160", counterotel.DefaultMaxSize, counterotel.DefaultMaxScale, 20, 3},
	{"2048", 2048, 7, 7, 7},
}

// otelHistogram returns the OpenTelemetry SDK's own Float64Histogram,
// aggregated as an exponential histogram of at most maxSize buckets, from
// scale maxScale.
func otelHistogram(b *testing.B, reader metric.Reader, maxSize, maxScale int32) otelmetric.Float64Histogram {
	mp := metric.NewMeterProvider(metric.WithReader(reader), metric.WithView(metric.NewView(
		metric.Instrument{Name: "span"},
		metric.Stream{Aggregation: metric.AggregationBase2ExponentialHistogram{MaxSize: maxSize, MaxScale: maxScale}},
	)))
	b.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	h, err := mp.Meter("bench").Float64Histogram("span", otelmetric.WithUnit("s"))
	if err != nil {
		b.Fatal(err)
	}
	return h
}

// collectOTel collects reader into rm and returns the positive buckets of
// the histogram "span", which must be at the given scale.
func collectOTel(b *testing.B, reader metric.Reader, rm *metricdata.ResourceMetrics, scale int32) int {
	if err := reader.Collect(context.Background(), rm); err != nil {
		b.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if eh, ok := m.Data.(metricdata.ExponentialHistogram[float64]); ok && m.Name == "span" {
				dp := eh.DataPoints[0]
				if dp.Scale != scale {
					b.Fatalf("scale %d, want %d", dp.Scale, scale)
				}
				return len(dp.PositiveBucket.Counts)
			}
		}
	}
	b.Fatal("no histogram collected")
	return 0
}

func BenchmarkExportOTel(b *testing.B) { exportOTel(b, runExport) }

// BenchmarkExportOTelRunning runs BenchmarkExportOTel's cases with the
// benchmark's timer left running through the records between two
// collections (runExportRunning), and reports each collection's own time
// as collect-ns/op: no stop of the world before each collection, as
// testing.B's StopTimer and StartTimer make to read the heap's figures,
// which empties the caches of small objects that the collection's
// allocations then refill.
func BenchmarkExportOTelRunning(b *testing.B) { exportOTel(b, runExportRunning) }

// exportOTel runs the cases of BenchmarkExportOTel, each through run.
func exportOTel(b *testing.B, run func(*testing.B, exportCase)) {
	// counterotel's Producer, with spans through a Recorder and through
	// Histogram.Record (runProducer).
	for _, locked := range []bool{false, true} {
		for _, lim := range otelLimits {
			runProducer(b, run, "counterotel", lim, locked, func(h *counter.Histogram) metric.Producer {
				p := counterotel.NewProducer(counterotel.WithMaxSize(lim.maxSize), counterotel.WithMaxScale(lim.maxScale))
				if err := p.Register("span", h, gigahertz); err != nil {
					b.Fatal(err)
				}
				return p
			})
		}
	}
	for _, lim := range otelLimits {
		reader := metric.NewManualReader()
		h := otelHistogram(b, reader, lim.maxSize, lim.sdkFrom)
		ctx := context.Background()
		var rm metricdata.ResourceMetrics
		run(b, exportCase{
			name:    "otel/" + lim.name,
			record:  func(d counter.Tickdelta) { h.Record(ctx, export.Seconds(d, gigahertz)) },
			collect: func(b *testing.B) { collectOTel(b, reader, &rm, lim.scale) },
			buckets: func(b *testing.B) int { return collectOTel(b, reader, &rm, lim.scale) },
		})
	}
}

// runProducer runs the export case name/lim.name of the Producer that mk
// makes of a Histogram, collected by a ManualReader at lim's scale: spans
// recorded through a Recorder, or through Histogram.Record, whose locks
// let Interval take the tally without a barrier, where locked (suffix
// "_locked").
func runProducer(b *testing.B, run func(*testing.B, exportCase), name string, lim otelLimit, locked bool, mk func(*counter.Histogram) metric.Producer) {
	h := counter.NewHistogram()
	r := h.Recorder()
	defer r.Close()
	record, suffix := r.Record, ""
	if locked {
		record, suffix = h.Record, "_locked"
	}
	reader := metric.NewManualReader(metric.WithProducer(mk(h)))
	mp := metric.NewMeterProvider(metric.WithReader(reader))
	defer func() { _ = mp.Shutdown(context.Background()) }()
	var rm metricdata.ResourceMetrics
	run(b, exportCase{
		name:    name + "/" + lim.name + suffix,
		record:  record,
		collect: func(b *testing.B) { collectOTel(b, reader, &rm, lim.scale) },
		buckets: func(b *testing.B) int { return collectOTel(b, reader, &rm, lim.scale) },
	})
}

// liveHeap returns the bytes of the heap's live objects after a collection.
func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkMemorySeries measures what a series of each system holds once
// it has recorded the 1,024 spans (over 30 to 10⁶ ticks, 15 doublings) and
// been collected once: 100 series an iteration, and the heap's growth over
// them as bytes-a-series (B/op and allocs/op are the making's). Ours: a
// Family of 100 series, each recorded into through a Recorder of its own
// (past its first 64 spans, so that it holds a tally), and each through
// Histogram.Record; HdrHistogram at 3 figures; Prometheus's native
// HistogramVec; the OpenTelemetry SDK's exponential histogram of 160
// buckets, a series an attribute set. Where the others hold what their
// exporters need, so do ours=counterprom (the Family through
// Histogram.Record, scraped once by counterprom's FamilyCollector in a
// Registry, as Prometheus's is) and ours=counterotel (collected once by a
// ManualReader through counterotel's Producer, at 160 buckets as the
// SDK's).
func BenchmarkMemorySeries(b *testing.B) {
	const series = 100
	values := make([]string, series)
	for i := range values {
		values[i] = "route" + strconv.Itoa(i)
	}
	measure := func(b *testing.B, make func() any) {
		var grown uint64
		b.ReportAllocs()
		for b.Loop() {
			before := liveHeap()
			kept := make()
			grown = liveHeap() - before
			runtime.KeepAlive(kept)
		}
		b.ReportMetric(float64(grown)/series, "bytes-a-series")
	}
	b.Run("ours=Recorder", func(b *testing.B) {
		measure(b, func() any {
			f, _ := counter.NewFamily([]string{"route"}, 0)
			var rs []*counter.Recorder
			for _, v := range values {
				r := f.With(v).Recorder()
				for _, d := range spans {
					r.Record(d)
				}
				rs = append(rs, r)
			}
			f.Interval(func([]string, *counter.Snapshot) {})
			return []any{f, rs}
		})
	})
	filled := func() *counter.Family {
		f, _ := counter.NewFamily([]string{"route"}, 0)
		for _, v := range values {
			h := f.With(v)
			for _, d := range spans {
				h.Record(d)
			}
		}
		return f
	}
	b.Run("ours=Histogram", func(b *testing.B) {
		measure(b, func() any {
			f := filled()
			f.Interval(func([]string, *counter.Snapshot) {})
			return f
		})
	})
	b.Run("ours=counterprom", func(b *testing.B) {
		measure(b, func() any {
			f := filled()
			reg := prometheus.NewRegistry()
			reg.MustRegister(counterprom.NewFamily(f, gigahertz, counterprom.Opts{Name: "span_seconds", Help: "Spans.", NativeHistogramBucketFactor: 1.01}))
			if _, err := reg.Gather(); err != nil {
				b.Fatal(err)
			}
			return reg
		})
	})
	b.Run("ours=counterotel", func(b *testing.B) {
		measure(b, func() any {
			f := filled()
			p := counterotel.NewProducer()
			if err := p.RegisterFamily("span", f, gigahertz); err != nil {
				b.Fatal(err)
			}
			reader := metric.NewManualReader(metric.WithProducer(p))
			mp := metric.NewMeterProvider(metric.WithReader(reader))
			var rm metricdata.ResourceMetrics
			if err := reader.Collect(context.Background(), &rm); err != nil {
				b.Fatal(err)
			}
			return []any{mp, reader}
		})
	})
	b.Run("hdr=3figures", func(b *testing.B) {
		measure(b, func() any {
			hs := make([]*hdrhistogram.Histogram, series)
			for i := range hs {
				hs[i] = hdrhistogram.New(1, hdrTop, 3)
				for _, d := range spans {
					_ = hs[i].RecordValue(int64(d))
				}
			}
			return hs
		})
	})
	b.Run("prometheus=native", func(b *testing.B) {
		measure(b, func() any {
			v := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "span_seconds", Help: "Spans.", NativeHistogramBucketFactor: 1.01}, []string{"route"})
			for _, l := range values {
				o := v.WithLabelValues(l)
				for _, d := range spans {
					o.Observe(float64(d) / 1e9)
				}
			}
			reg := prometheus.NewRegistry()
			reg.MustRegister(v)
			if _, err := reg.Gather(); err != nil {
				b.Fatal(err)
			}
			return v
		})
	})
	b.Run("otel=exponential160", func(b *testing.B) {
		measure(b, func() any {
			reader := metric.NewManualReader()
			h := otelHistogram(b, reader, 160, 20)
			ctx := context.Background()
			for _, l := range values {
				opt := otelmetric.WithAttributes(attribute.String("route", l))
				for _, d := range spans {
					h.Record(ctx, float64(d)/1e9, opt)
				}
			}
			var rm metricdata.ResourceMetrics
			if err := reader.Collect(ctx, &rm); err != nil {
				b.Fatal(err)
			}
			return []any{reader, h}
		})
	})
}

// familySets is how many sets of label values BenchmarkExportOTelFamily
// records into, each a series of its own on both sides.
const familySets = 200

// BenchmarkExportOTelFamily collects a metric of familySets series, each
// holding the spans of wideSpans' spread and taking 128 new ones between
// two collections (recorded with the timer stopped): counterotel's Producer
// with one RegisterFamily of a counter.Family, against the OpenTelemetry
// SDK's own exponential histogram recorded with familySets attribute sets,
// both of at most 160 buckets a point, cumulative. Each op is one collect
// of every series.
//
//	go test -run '^$' -bench ExportOTelFamily -count 10 -benchmem
func BenchmarkExportOTelFamily(b *testing.B) {
	values := make([]string, familySets)
	for k := range values {
		values[k] = fmt.Sprintf("/route/%d", k)
	}
	// run fills each series with 1,024 spans, then collects once an op,
	// after record has taken 128 new spans into each.
	run := func(b *testing.B, record func(k int, d counter.Tickdelta), collect func(b *testing.B) int) {
		for k := range familySets {
			for _, d := range wideSpans[k%16*1024:][:1024] {
				record(k, d)
			}
		}
		collect(b)
		b.ReportAllocs()
		b.ResetTimer()
		var recording time.Duration // the record phases', timed apart
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			t0 := time.Now()
			for k := range familySets {
				for _, d := range wideSpans[(i+k)%128*128:][:128] {
					record(k, d)
				}
			}
			recording += time.Since(t0)
			b.StartTimer()
			collect(b)
		}
		b.ReportMetric(float64(recording.Nanoseconds())/float64(b.N), "record-ns/op")
		b.ReportMetric(float64(collect(b)), "buckets")
	}
	// family returns a Family of a series for each of values, and the series.
	family := func() (*counter.Family, []*counter.Histogram) {
		f, err := counter.NewFamily([]string{"route"}, 0)
		if err != nil {
			b.Fatal(err)
		}
		series := make([]*counter.Histogram, familySets)
		for k, v := range values {
			series[k] = f.With(v)
		}
		return f, series
	}
	b.Run("counterotel", func(b *testing.B) {
		f, series := family()
		p := counterotel.NewProducer()
		if err := p.RegisterFamily("span", f, gigahertz); err != nil {
			b.Fatal(err)
		}
		reader := metric.NewManualReader(metric.WithProducer(p))
		mp := metric.NewMeterProvider(metric.WithReader(reader))
		defer func() { _ = mp.Shutdown(context.Background()) }()
		var rm metricdata.ResourceMetrics
		run(b, func(k int, d counter.Tickdelta) { series[k].Record(d) },
			func(b *testing.B) int { return collectFamily(b, reader, &rm) })
	})
	// bare: the Family's Interval and a walk of each series' Values that
	// places nothing, the part of counterotel's collection that any
	// exporter of a Family pays.
	b.Run("bare", func(b *testing.B) {
		f, series := family()
		var sum uint64
		walk := func(_ []string, s *counter.Snapshot) {
			for v, n := range export.Values(s) {
				sum += uint64(v) * n
			}
		}
		run(b, func(k int, d counter.Tickdelta) { series[k].Record(d) },
			func(b *testing.B) int { f.Interval(walk); return int(sum & 1) })
	})
	b.Run("otel", func(b *testing.B) {
		reader := metric.NewManualReader()
		h := otelHistogram(b, reader, counterotel.DefaultMaxSize, 20)
		opts := make([]otelmetric.RecordOption, familySets)
		for k, v := range values {
			opts[k] = otelmetric.WithAttributeSet(attribute.NewSet(attribute.String("route", v)))
		}
		ctx := context.Background()
		var rm metricdata.ResourceMetrics
		run(b, func(k int, d counter.Tickdelta) { h.Record(ctx, export.Seconds(d, gigahertz), opts[k]) },
			func(b *testing.B) int { return collectFamily(b, reader, &rm) })
	})
}

// collectFamily collects reader into rm and returns the positive buckets
// of all the points of the histogram "span", which must be familySets.
func collectFamily(b *testing.B, reader metric.Reader, rm *metricdata.ResourceMetrics) int {
	if err := reader.Collect(context.Background(), rm); err != nil {
		b.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if eh, ok := m.Data.(metricdata.ExponentialHistogram[float64]); ok && m.Name == "span" {
				if len(eh.DataPoints) != familySets {
					b.Fatalf("%d points, want %d", len(eh.DataPoints), familySets)
				}
				n := 0
				for _, dp := range eh.DataPoints {
					n += len(dp.PositiveBucket.Counts)
				}
				return n
			}
		}
	}
	b.Fatal("no histogram collected")
	return 0
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
