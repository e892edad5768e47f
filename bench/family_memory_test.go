package bench_test

import (
	"context"
	"math"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/internal/race"
	"go.opentelemetry.io/otel/attribute"
	otelmetric "go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// The workload of TestFamily2000Memory: famMemWriters goroutines, at
// GOMAXPROCS famMemWriters, each visit every one of famMemSeries series
// famMemRounds times, recording famMemVisit spans at each visit, so that
// every series takes spans from every goroutine, famMemRounds times over.
const (
	famMemSeries  = 2000
	famMemWriters = 64
	famMemRounds  = 4
	famMemVisit   = 5
	famMemLimit   = 8 << 20 // ours, in all
	// famMemSpans is what each series holds: 1,280 spans.
	famMemSpans = famMemWriters * famMemRounds * famMemVisit
	// famMemStride, prime to len(famMemTable), orders the spans of a series.
	famMemStride = 379
)

// famMemSpan is the kth span that series i takes, k < famMemSpans:
// famMemStride apart in famMemTable from place i, so that consecutive
// spans are in no order of size, as a service's are, and every series
// takes the whole table and 280 of its spans again.
func famMemSpan(i, k int) counter.Tickdelta {
	return famMemTable[(i+k*famMemStride)%len(famMemTable)]
}

// famMemTable is 1,000 spans spread evenly in the logarithm over three
// decades, 10³ to 10⁶ ticks of a 1 GHz counter (1 µs to 1 ms, 10
// doublings), so that a series that holds them all holds 1,277 of ours
// and of Prometheus's native buckets at factor 1.01 (128 a doubling).
var famMemTable = func() (s [1000]counter.Tickdelta) {
	for k := range s {
		s[k] = counter.Tickdelta(1e3 * math.Pow(1e3, float64(k)/float64(len(s)-1)))
	}
	return s
}()

// A famMemSystem is one system of TestFamily2000Memory holding its
// series: record adds a span in ticks to series i, from any goroutine;
// collect collects every series once and returns the spans the collection
// holds; stop, where set, releases what the system holds outside the heap
// (an OpenTelemetry MeterProvider's shutdown).
type famMemSystem struct {
	record  func(i int, d counter.Tickdelta)
	collect func(t *testing.T) uint64
	stop    func()
}

// famMemCases are the systems of TestFamily2000Memory, each making one of
// len(values) series, a series a value of the one label "route". Each
// records through handles made once for each series, as a careful user
// does: a Family's *counter.Histogram, a HistogramVec's Observer, an
// attribute set's record options.
var famMemCases = []struct {
	name string
	make func(t *testing.T, values []string) famMemSystem
}{
	// Ours: a Family, recorded through Histogram.Record, read by one
	// Interval. Its limit counts its overflow series: one more than the
	// series, so that each value has a series of its own.
	{"ours", func(t *testing.T, values []string) famMemSystem {
		f, err := counter.NewFamily([]string{"route"}, len(values)+1)
		if err != nil {
			t.Fatal(err)
		}
		series := make([]*counter.Histogram, len(values))
		for i, v := range values {
			series[i] = f.With(v)
		}
		return famMemSystem{
			record: func(i int, d counter.Tickdelta) { series[i].Record(d) },
			collect: func(t *testing.T) uint64 {
				var n uint64
				f.Interval(func(_ []string, s *counter.Snapshot) { n += s.Count() })
				if f.Len() != len(values) {
					t.Fatalf("the Family holds %d series; want %d", f.Len(), len(values))
				}
				return n
			},
		}
	}},
	// client_golang's HistogramVec with native buckets only, at the
	// factor of BenchmarkMemorySeries, 1.01 (schema 7, unbounded), and
	// with its classic buckets only, classicBuckets' 16 (30 ns to 1 ms),
	// each gathered once by a Registry of its own.
	{"prometheus=native", func(t *testing.T, values []string) famMemSystem {
		return famMemPrometheus(t, values, prometheus.HistogramOpts{Name: "span_seconds", Help: "Spans.", NativeHistogramBucketFactor: 1.01})
	}},
	{"prometheus=classic", func(t *testing.T, values []string) famMemSystem {
		return famMemPrometheus(t, values, prometheus.HistogramOpts{Name: "span_seconds", Help: "Spans.", Buckets: classicBuckets})
	}},
	// The OpenTelemetry SDK's Float64Histogram, aggregated as an
	// exponential histogram of 160 buckets from scale 20 as in
	// BenchmarkMemorySeries, cumulative (a ManualReader's default), a
	// series an attribute set, collected once by the ManualReader. The
	// MeterProvider's cardinality limit counts its overflow set, as our
	// Family's does: one more than the series.
	{"otel=exponential160", func(t *testing.T, values []string) famMemSystem {
		reader := metric.NewManualReader()
		mp := metric.NewMeterProvider(metric.WithReader(reader), metric.WithCardinalityLimit(len(values)+1), metric.WithView(metric.NewView(
			metric.Instrument{Name: "span"},
			metric.Stream{Aggregation: metric.AggregationBase2ExponentialHistogram{MaxSize: 160, MaxScale: 20}},
		)))
		h, err := mp.Meter("bench").Float64Histogram("span", otelmetric.WithUnit("s"))
		if err != nil {
			t.Fatal(err)
		}
		opts := make([]otelmetric.RecordOption, len(values))
		for i, v := range values {
			opts[i] = otelmetric.WithAttributeSet(attribute.NewSet(attribute.String("route", v)))
		}
		ctx := context.Background()
		return famMemSystem{
			record: func(i int, d counter.Tickdelta) { h.Record(ctx, export.Seconds(d, gigahertz), opts[i]) },
			collect: func(t *testing.T) uint64 {
				var rm metricdata.ResourceMetrics
				if err := reader.Collect(ctx, &rm); err != nil {
					t.Fatal(err)
				}
				var n uint64
				for _, sm := range rm.ScopeMetrics {
					for _, m := range sm.Metrics {
						if eh, ok := m.Data.(metricdata.ExponentialHistogram[float64]); ok && m.Name == "span" {
							if len(eh.DataPoints) != len(values) {
								t.Fatalf("%d points; want %d", len(eh.DataPoints), len(values))
							}
							for _, dp := range eh.DataPoints {
								n += dp.Count
							}
						}
					}
				}
				return n
			},
			stop: func() { _ = mp.Shutdown(context.Background()) },
		}
	}},
}

// famMemPrometheus returns the famMemSystem of a HistogramVec of opts
// labelled "route", gathered by a Registry.
func famMemPrometheus(t *testing.T, values []string, opts prometheus.HistogramOpts) famMemSystem {
	vec := prometheus.NewHistogramVec(opts, []string{"route"})
	reg := prometheus.NewRegistry()
	reg.MustRegister(vec)
	series := make([]prometheus.Observer, len(values))
	for i, v := range values {
		series[i] = vec.WithLabelValues(v)
	}
	return famMemSystem{
		record: func(i int, d counter.Tickdelta) { series[i].Observe(export.Seconds(d, gigahertz)) },
		collect: func(t *testing.T) uint64 {
			mfs, err := reg.Gather()
			if err != nil {
				t.Fatal(err)
			}
			var n uint64
			for _, mf := range mfs {
				if len(mf.GetMetric()) != len(values) {
					t.Fatalf("%d series gathered; want %d", len(mf.GetMetric()), len(values))
				}
				for _, m := range mf.GetMetric() {
					n += m.GetHistogram().GetSampleCount()
				}
			}
			return n
		},
	}
}

// famMemRecord has famMemWriters goroutines, started at once, record the
// workload into sys's first series series: in each round each goroutine
// visits every series, all of them in the same order (the likeliest to
// meet another writer on a series, which is what adds locks to ours), and
// records famMemVisit spans there, goroutine g's in round r being
// famMemSpan's from (r·famMemWriters + g)·famMemVisit on. It returns the
// time the goroutines took.
func famMemRecord(sys famMemSystem, series int) time.Duration {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range famMemWriters {
		wg.Go(func() {
			<-start
			for r := range famMemRounds {
				k0 := (r*famMemWriters + g) * famMemVisit
				for i := range series {
					for j := range famMemVisit {
						sys.record(i, famMemSpan(i, k0+j))
					}
				}
			}
		})
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	return time.Since(t0)
}

// famMemWarm makes a throwaway system of the first famMemWriters values,
// records into it as famMemRecord does, collects it, stops it and reads
// the live heap (whose collections start the garbage collector's workers,
// one a P), again until a pass makes no thread of the runtime's, at most 8
// times. It returns the passes and the threads they made.
func famMemWarm(t *testing.T, mk func(*testing.T, []string) famMemSystem, values []string, threads *pprof.Profile) (passes, made int) {
	for passes < 8 {
		m0 := threads.Count()
		sys := mk(t, values[:famMemWriters])
		famMemRecord(sys, famMemWriters)
		sys.collect(t)
		if sys.stop != nil {
			sys.stop()
		}
		liveHeap()
		passes++
		n := threads.Count() - m0
		made += n
		if n == 0 {
			break
		}
	}
	return passes, made
}

// TestFamily2000Memory measures, side by side in one run, the memory of
// 2,000 series written by 64 goroutines at GOMAXPROCS 64: ours, a Family
// recorded through Histogram.Record and read by one Interval, against
// client_golang's HistogramVec (native buckets at factor 1.01, and classic
// buckets) gathered by a Registry, and the OpenTelemetry SDK's exponential
// histogram collected by a ManualReader (famMemCases). Each series takes
// 1,280 spans over three decades from every goroutine (famMemRecord); the
// peers get them in seconds of a 1 GHz counter.
//
// For each system, at GOMAXPROCS 64 (on the CPUs the machine has), the
// live heap is read (after two collections) before the system is made and
// after it has recorded every span and been collected once, with
// everything the system holds kept alive, not the collection's output:
// what a running service holds between two collections. First, 64
// goroutines record into a throwaway of the same system of 64 series and
// collect it, until a pass makes no thread (famMemWarm): the runtime's
// threads (runtime.allocm's), goroutines and per-P structures, and the
// library's own lazily made state, then exist already, and do not count
// in the growth. The threads the runtime made during the measurement are
// logged.
//
// It logs each system's bytes, in all and a series, and the ratio of each
// peer's to ours, and fails only if ours holds more than 8 MB.
func TestFamily2000Memory(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's allocations are not the program's")
	}
	if testing.Short() {
		t.Skip("records 2.56 million spans into each of four systems")
	}
	values := make([]string, famMemSeries)
	for i := range values {
		values[i] = "/route/" + strconv.Itoa(i)
	}
	threads := pprof.Lookup("threadcreate")
	held := make([]int, len(famMemCases))
	for c, tc := range famMemCases {
		t.Run(tc.name, func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(famMemWriters))
			passes, warmed := famMemWarm(t, tc.make, values, threads)
			m0 := threads.Count()
			before := liveHeap()
			sys := tc.make(t, values)
			took := famMemRecord(sys, famMemSeries)
			n := sys.collect(t)
			held[c] = int(liveHeap()) - int(before)
			made := threads.Count() - m0
			runtime.KeepAlive(sys)
			if sys.stop != nil {
				sys.stop()
			}

			if want := uint64(famMemSeries * famMemSpans); n != want {
				t.Errorf("the collection holds %d spans; want %d", n, want)
			}
			t.Logf("%d series, %d spans each from %d goroutines in %v: %d bytes (%.2f MB), %d a series; threads made: %d meanwhile, %d by %d warming passes before",
				famMemSeries, famMemSpans, famMemWriters, took.Round(time.Millisecond), held[c], float64(held[c])/(1<<20), held[c]/famMemSeries, made, warmed, passes)
		})
	}
	ours := held[0]
	for c, tc := range famMemCases[1:] {
		t.Logf("%s ÷ ours: %.2f (%d bytes a series against %d)", tc.name, float64(held[c+1])/float64(ours), held[c+1]/famMemSeries, ours/famMemSeries)
	}
	if ours > famMemLimit {
		t.Errorf("ours holds %d bytes (%.2f MB) for %d series; want at most %.0f MB", ours, float64(ours)/(1<<20), famMemSeries, float64(famMemLimit)/(1<<20))
	}
}
