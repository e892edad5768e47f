package bench_test

import (
	"context"
	"encoding/hex"
	"math/bits"
	"slices"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	otelmetric "go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// The exemplars of BenchmarkExemplar: the one its set-ups record first,
// and the one every timed record carries.
var (
	setUpExemplar = counter.Exemplar{
		TraceID: [16]byte{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36},
		SpanID:  [8]byte{0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7},
		At:      1,
	}
	loopExemplar = counter.Exemplar{
		TraceID: [16]byte{0x0a, 0xf7, 0x65, 0x19, 0x16, 0xcd, 0x43, 0xdd, 0x84, 0x48, 0xeb, 0x21, 0x1c, 0x80, 0x31, 0x9c},
		SpanID:  [8]byte{0xb7, 0xad, 0x6b, 0x71, 0x69, 0x20, 0x33, 0x19},
		At:      2,
	}
)

// The kept cases record the rising spans: risingDoublings doublings in
// turn, of 2²⁸ to 2³⁶ ticks, each span of a doubling one tick longer than
// the one before it in that doubling. As each doubling has a slot of its
// own (8 are fewer than the 10 slots), each span is the slowest of its
// doubling yet, and each record with an exemplar is kept. A doubling of
// 2²⁸ ticks or more rises for risingCalls calls, with room to spare before
// a span would leave its doubling or the tally's 64-bit sum would carry (a
// slow path, with a fresh tally whose slots are empty).
const (
	risingLow       = 28
	risingDoublings = 8
	risingCalls     = 1 << 30
)

// risingBounds are a span below the rising spans and one above them, which
// the rising cases record first, without an exemplar, so that no record of
// the loop moves the tally's least or greatest span, nor its window, as
// none of BenchmarkRecord's spans does once each has been recorded.
var risingBounds = [2]counter.Tickdelta{1<<risingLow - 1, 1 << (risingLow + risingDoublings)}

// risingSpan returns the i-th rising span.
func risingSpan(i int) counter.Tickdelta {
	u := uint(i) // unsigned, so that % and / are a mask and a shift
	return 1<<(risingLow+u%risingDoublings) + counter.Tickdelta(u/risingDoublings)
}

// An exemplarSpan is an exemplar kept, with its span.
type exemplarSpan struct {
	d counter.Tickdelta
	e counter.Exemplar
}

// exemplarsOf takes h's Interval and returns the exemplars it keeps.
func exemplarsOf(h *counter.Histogram) []exemplarSpan {
	var s counter.Snapshot
	h.Interval(&s)
	var kept []exemplarSpan
	for d, e := range s.Exemplars() {
		kept = append(kept, exemplarSpan{d, e})
	}
	return kept
}

// setUpKept are the exemplars that a Histogram keeps once it has recorded
// each of the spans with setUpExemplar, as the not-kept cases do first: the
// slowest of each doubling, which none of the spans exceeds.
var setUpKept = func() []exemplarSpan {
	h := counter.NewHistogram()
	for _, d := range spans {
		h.RecordExemplar(d, setUpExemplar)
	}
	return exemplarsOf(h)
}()

// wantExemplars returns the exemplars that a Histogram keeps after n calls
// of our case how: none where the calls carry none; for "not-kept", the
// set-up's alone (setUpKept); for "kept", the last span of each rising
// doubling, with loopExemplar.
func wantExemplars(how string, n int) []exemplarSpan {
	switch how {
	case "not-kept":
		return setUpKept
	case "kept":
		var want []exemplarSpan
		for k := range min(n, risingDoublings) {
			last := (n-1-k)/risingDoublings*risingDoublings + k
			want = append(want, exemplarSpan{risingSpan(last), loopExemplar})
		}
		return want
	}
	return nil
}

// BenchmarkExemplar times a record that carries an exemplar beside one
// that does not, one goroutine recording. Ours, a Recorder's and a
// Histogram's: Record over BenchmarkRecord's spans (none), each recorded
// once first; RecordExemplar over them once each has been recorded with
// another exemplar (not-kept: the slowest of each doubling is already
// kept); Record over the rising spans (none-rising), and RecordExemplar
// over them (kept: each is the slowest of its doubling yet). Each checks
// after its loop that its Histogram keeps the exemplars that say so.
// Peers, over BenchmarkRecord's spans: client_golang's Observe and
// ObserveWithExemplar, with classic buckets and native ones (which keep up
// to 10 exemplars more, under a lock), the labels made once; and the
// OpenTelemetry SDK's Float64Histogram, with the classic buckets' bounds
// and the provider's default exemplar filter (trace-based), given the
// context of a span its tracer did not sample and of one it did. Run it as
//
//	cd bench && go test -run '^$' -bench 'BenchmarkExemplar' -count 10 -benchmem .
func BenchmarkExemplar(b *testing.B) {
	b.Run("ours=Recorder/none", func(b *testing.B) {
		h := counter.NewHistogram()
		r := ownTally(h)
		for _, d := range spans {
			r.Record(d)
		}
		b.ReportAllocs()
		i := 0
		for ; b.Loop(); i++ {
			r.Record(spans[i&1023])
		}
		mustKeep(b, h, "none", i)
	})
	b.Run("ours=Recorder/not-kept", func(b *testing.B) {
		h := counter.NewHistogram()
		r := ownTally(h)
		for _, d := range spans {
			r.RecordExemplar(d, setUpExemplar)
		}
		e := loopExemplar
		b.ReportAllocs()
		i := 0
		for ; b.Loop(); i++ {
			r.RecordExemplar(spans[i&1023], e)
		}
		mustKeep(b, h, "not-kept", i)
	})
	b.Run("ours=Recorder/none-rising", func(b *testing.B) {
		h := counter.NewHistogram()
		r := ownTally(h)
		for _, d := range risingBounds {
			r.Record(d)
		}
		b.ReportAllocs()
		i := 0
		for ; b.Loop(); i++ {
			r.Record(risingSpan(i))
		}
		mustKeep(b, h, "none-rising", i)
	})
	b.Run("ours=Recorder/kept", func(b *testing.B) {
		h := counter.NewHistogram()
		r := ownTally(h)
		for _, d := range risingBounds {
			r.Record(d)
		}
		e := loopExemplar
		b.ReportAllocs()
		i := 0
		for ; b.Loop(); i++ {
			r.RecordExemplar(risingSpan(i), e)
		}
		mustKeep(b, h, "kept", i)
	})
	// The Histogram's cases record from the benchmark's function itself,
	// set-up and loop alike: the shard a goroutine records into follows
	// the address of its stack.
	b.Run("ours=Histogram/none", func(b *testing.B) {
		h := counter.NewHistogram()
		for _, d := range spans {
			h.Record(d)
		}
		b.ReportAllocs()
		i := 0
		for ; b.Loop(); i++ {
			h.Record(spans[i&1023])
		}
		mustKeep(b, h, "none", i)
	})
	b.Run("ours=Histogram/not-kept", func(b *testing.B) {
		h := counter.NewHistogram()
		for _, d := range spans {
			h.RecordExemplar(d, setUpExemplar)
		}
		e := loopExemplar
		b.ReportAllocs()
		i := 0
		for ; b.Loop(); i++ {
			h.RecordExemplar(spans[i&1023], e)
		}
		mustKeep(b, h, "not-kept", i)
	})
	b.Run("ours=Histogram/none-rising", func(b *testing.B) {
		h := counter.NewHistogram()
		for _, d := range risingBounds {
			h.Record(d)
		}
		b.ReportAllocs()
		i := 0
		for ; b.Loop(); i++ {
			h.Record(risingSpan(i))
		}
		mustKeep(b, h, "none-rising", i)
	})
	b.Run("ours=Histogram/kept", func(b *testing.B) {
		h := counter.NewHistogram()
		for _, d := range risingBounds {
			h.Record(d)
		}
		e := loopExemplar
		b.ReportAllocs()
		i := 0
		for ; b.Loop(); i++ {
			h.RecordExemplar(risingSpan(i), e)
		}
		mustKeep(b, h, "kept", i)
	})
	labels := prometheusExemplar(loopExemplar)
	for _, p := range []struct {
		name string
		make func() prometheus.Histogram
	}{{"classic", newClassic}, {"native", newNative}} {
		b.Run("prometheus="+p.name+"/Observe", func(b *testing.B) {
			h := p.make()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				h.Observe(export.Seconds(spans[i&1023], gigahertz))
			}
		})
		b.Run("prometheus="+p.name+"/ObserveWithExemplar", func(b *testing.B) {
			h := p.make().(prometheus.ExemplarObserver)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				h.ObserveWithExemplar(export.Seconds(spans[i&1023], gigahertz), labels)
			}
		})
	}
	for _, sampled := range []bool{false, true} {
		name := map[bool]string{false: "otel=explicit/unsampled", true: "otel=explicit/sampled"}[sampled]
		b.Run(name, func(b *testing.B) {
			h := otelExemplarHistogram(b, metric.NewManualReader())
			ctx := spanContext(b, sampled)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				h.Record(ctx, export.Seconds(spans[i&1023], gigahertz))
			}
		})
	}
}

// mustKeep fails b unless h keeps, after the n calls of our case how, the
// exemplars that say its records were what the case's name says.
func mustKeep(b *testing.B, h *counter.Histogram, how string, n int) {
	if n >= risingCalls {
		b.Fatalf("%d calls: more than the rising spans' %d; run with a shorter -benchtime", n, risingCalls)
	}
	if got, want := exemplarsOf(h), wantExemplars(how, n); !slices.Equal(got, want) {
		b.Fatalf("%s, %d calls: kept %v; want %v", how, n, got, want)
	}
}

// prometheusExemplar returns e's ids as the labels of a Prometheus
// exemplar, in the hexadecimal of W3C Trace Context.
func prometheusExemplar(e counter.Exemplar) prometheus.Labels {
	return prometheus.Labels{"trace_id": hex.EncodeToString(e.TraceID[:]), "span_id": hex.EncodeToString(e.SpanID[:])}
}

// otelExemplarHistogram returns an OpenTelemetry SDK histogram collected
// by reader: explicit buckets, with the bounds of the Prometheus classic
// ones in BenchmarkExemplar, and the provider's default exemplar filter and
// reservoir.
func otelExemplarHistogram(tb testing.TB, reader metric.Reader) otelmetric.Float64Histogram {
	mp := metric.NewMeterProvider(metric.WithReader(reader))
	tb.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	h, err := mp.Meter("bench").Float64Histogram("span", otelmetric.WithUnit("s"), otelmetric.WithExplicitBucketBoundaries(classicBuckets...))
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

// spanContext returns a context holding a span that the OpenTelemetry
// SDK's tracer started, which samples it or not: the context of a request
// as instrumentation passes it to Record. The span ends with tb.
func spanContext(tb testing.TB, sampled bool) context.Context {
	sampler := sdktrace.NeverSample()
	if sampled {
		sampler = sdktrace.AlwaysSample()
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sampler))
	tb.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	ctx, span := tp.Tracer("bench").Start(context.Background(), "request")
	tb.Cleanup(func() { span.End() })
	if sc := trace.SpanContextFromContext(ctx); !sc.IsValid() || sc.IsSampled() != sampled {
		tb.Fatalf("span context %v: valid %v, sampled %v; want valid, sampled %v", sc, sc.IsValid(), sc.IsSampled(), sampled)
	}
	return ctx
}

// ourCases are the names of our cases in BenchmarkExemplar.
var ourCases = []string{"none", "not-kept", "none-rising", "kept"}

// ourExemplarCall returns the call of BenchmarkExemplar's case of ours
// writer/how, as a function of the call's index, which does the case's
// set-up first, from the same frame as the calls, as the benchmark does
// (the frame decides a Histogram's shard); and the Histogram it records
// into.
func ourExemplarCall(writer, how string) (*counter.Histogram, func(i int)) {
	h := counter.NewHistogram()
	var r *counter.Recorder
	if writer == "Recorder" {
		r = ownTally(h)
	}
	record := func(d counter.Tickdelta, e counter.Exemplar) {
		switch {
		case r != nil && e == counter.Exemplar{}:
			r.Record(d)
		case r != nil:
			r.RecordExemplar(d, e)
		case e == counter.Exemplar{}:
			h.Record(d)
		default:
			h.RecordExemplar(d, e)
		}
	}
	rising := how == "none-rising" || how == "kept"
	var setUp, e counter.Exemplar
	switch how {
	case "not-kept":
		setUp, e = setUpExemplar, loopExemplar
	case "kept":
		e = loopExemplar
	}
	return h, func(i int) {
		switch {
		case i == 0 && rising:
			for _, d := range risingBounds {
				record(d, counter.Exemplar{})
			}
		case i == 0:
			for _, d := range spans {
				record(d, setUp)
			}
		}
		if rising {
			record(risingSpan(i), e)
		} else {
			record(spans[i&1023], e)
		}
	}
}

// TestExemplarSetUps checks that BenchmarkExemplar's cases of ours keep
// what their names say, after from 1 to a few thousand calls: a kept case
// the last span of each rising doubling, with the loop's exemplar; a
// not-kept case the set-up's exemplars alone; the others none. It checks
// that risingCalls rising spans stay in their doublings and that their sum
// fits 64 bits, and that the peers' set-ups make exemplars: the SDK's for
// a sampled span and not for an unsampled one.
func TestExemplarSetUps(t *testing.T) {
	for k := range risingDoublings {
		last := risingCalls - risingDoublings + k
		if d, top := risingSpan(last), counter.Tickdelta(1)<<(risingLow+k+1); d >= top {
			t.Errorf("rising span %d is %d, past its doubling, which ends at %d", last, d, top)
		}
	}
	// The sum of the rising spans: each round of risingDoublings adds the
	// doublings' starts and risingDoublings times the round's number.
	rounds := uint64(risingCalls / risingDoublings)
	hi, sum := bits.Mul64(rounds, 1<<(risingLow+risingDoublings)-1<<risingLow)
	sum, carry := bits.Add64(sum, risingDoublings*rounds*(rounds-1)/2, 0)
	for _, d := range risingBounds {
		var c uint64
		sum, c = bits.Add64(sum, uint64(d), 0)
		carry += c
	}
	if hi != 0 || carry != 0 {
		t.Errorf("the sum of %d rising spans and their bounds does not fit 64 bits", risingCalls)
	}
	for _, writer := range []string{"Recorder", "Histogram"} {
		for _, how := range ourCases {
			t.Run(writer+"/"+how, func(t *testing.T) {
				for _, n := range []int{1, 7, 8, 9, 4099} {
					h, call := ourExemplarCall(writer, how)
					for i := range n {
						call(i)
					}
					if got, want := exemplarsOf(h), wantExemplars(how, n); !slices.Equal(got, want) {
						t.Errorf("%d calls: kept %v; want %v", n, got, want)
					}
				}
			})
		}
	}
	for _, sampled := range []bool{false, true} {
		t.Run(map[bool]string{false: "otel/unsampled", true: "otel/sampled"}[sampled], func(t *testing.T) {
			reader := metric.NewManualReader()
			h := otelExemplarHistogram(t, reader)
			h.Record(spanContext(t, sampled), export.Seconds(spans[0], gigahertz))
			var rm metricdata.ResourceMetrics
			if err := reader.Collect(context.Background(), &rm); err != nil {
				t.Fatal(err)
			}
			got := len(rm.ScopeMetrics[0].Metrics[0].Data.(metricdata.Histogram[float64]).DataPoints[0].Exemplars)
			if want := map[bool]int{false: 0, true: 1}[sampled]; got != want {
				t.Errorf("%d exemplars; want %d", got, want)
			}
		})
	}
	for _, p := range []struct {
		name string
		make func() prometheus.Histogram
	}{{"classic", newClassic}, {"native", newNative}} {
		t.Run("prometheus/"+p.name, func(t *testing.T) {
			h := p.make()
			h.(prometheus.ExemplarObserver).ObserveWithExemplar(export.Seconds(spans[0], gigahertz), prometheusExemplar(loopExemplar))
			var m dto.Metric
			if err := h.Write(&m); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, bk := range m.Histogram.Bucket {
				if bk.Exemplar != nil {
					n++
				}
			}
			if n+len(m.Histogram.Exemplars) == 0 {
				t.Error("no exemplar written")
			}
		})
	}
}

// TestExemplarAllocs checks that our exemplar calls, kept and not, of a
// Recorder and of a Histogram, allocate nothing, as Record does not.
func TestExemplarAllocs(t *testing.T) {
	for _, writer := range []string{"Recorder", "Histogram"} {
		for _, how := range []string{"not-kept", "kept"} {
			t.Run(writer+"/"+how, func(t *testing.T) {
				h, call := ourExemplarCall(writer, how)
				i := 0
				allocs := testing.AllocsPerRun(1000, func() { call(i); i++ })
				if allocs != 0 {
					t.Errorf("%v allocations a call; want 0", allocs)
				}
				if got, want := exemplarsOf(h), wantExemplars(how, i); !slices.Equal(got, want) {
					t.Errorf("%d calls: kept %v; want %v", i, got, want)
				}
			})
		}
	}
}

// ownTally returns a Recorder of h whose next span goes to a tally of its
// own: its first spans, which go to one of h's locks, recorded, and an
// Interval begun since it was made (see counter.Recorder), and taken.
func ownTally(h *counter.Histogram) *counter.Recorder {
	r := h.Recorder()
	var s counter.Snapshot
	h.Interval(&s)
	for range 64 {
		r.Record(1)
	}
	h.Interval(&s)
	return r
}
