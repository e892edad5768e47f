package counterotel_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/counterotel"
)

// numbered returns an exemplar told apart by i, 1 to 255.
func numbered(i int) counter.Exemplar {
	return counter.Exemplar{TraceID: [16]byte{0: 0xa0, 15: byte(i)}, SpanID: [8]byte{0: 0xb0, 7: byte(i)}}
}

// A wantExemplar is an exemplar a point should carry: of span d, at time
// at.
type wantExemplar struct {
	d  counter.Tickdelta
	e  counter.Exemplar
	at time.Time
}

// checkExemplars checks a point's exemplars against want, in order: the
// ids, the span in seconds, the time, and no attributes.
func checkExemplars(t *testing.T, got []metricdata.Exemplar[float64], want []wantExemplar) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d exemplars %v; want %d %v", len(got), got, len(want), want)
		return
	}
	for i, w := range want {
		g := got[i]
		if !bytes.Equal(g.TraceID, w.e.TraceID[:]) || !bytes.Equal(g.SpanID, w.e.SpanID[:]) ||
			g.Value != float64(w.d)/hz || !g.Time.Equal(w.at) || len(g.FilteredAttributes) != 0 {
			t.Errorf("exemplar %d: trace %x span %x, %g s at %v, attributes %v; want %x %x, %g s at %v",
				i, g.TraceID, g.SpanID, g.Value, g.Time, g.FilteredAttributes, w.e.TraceID, w.e.SpanID, float64(w.d)/hz, w.at)
		}
	}
}

// A rec is a span recorded with the exemplar numbered ex, or without one
// where ex is 0.
type rec struct {
	d  counter.Tickdelta
	ex int
}

func (r rec) record(h *counter.Histogram) {
	if r.ex == 0 {
		h.Record(r.d)
		return
	}
	h.RecordExemplar(r.d, numbered(r.ex))
}

// A took is an exemplar a point should carry: of span d, numbered ex,
// taken by the collection c.
type took struct {
	d     counter.Tickdelta
	ex, c int
}

// wants returns what the points of collections at times carry of ts.
func wants(ts []took, times []time.Time) []wantExemplar {
	w := make([]wantExemplar, len(ts))
	for i, x := range ts {
		w[i] = wantExemplar{x.d, numbered(x.ex), times[x.c]}
	}
	return w
}

// TestExemplarTemporality records spans with exemplars and without over
// four collections, and checks each point's exemplars: a delta point the
// Interval's (the slowest of each doubling, doublings 2¹⁰ apart sharing
// one), a cumulative point for each doubling the one of the latest
// collection that took one there, though it is faster, each at the time
// of the collection that took it; a point after delta ones, where the
// selector changes its answer, too. A negative span's exemplar is never
// kept.
func TestExemplarTemporality(t *testing.T) {
	intervals := [][]rec{
		{{200, 1}, {5000, 2}, {1_000_000, 3}, {7000, 0}, {2_000_000, 0}, {-5, 8}},
		{{300, 4}, {150, 5}, {140, 6}}, // 150 and 140 share the slot of 200, and 150 is slower
		{{9000, 0}},
		{{5000 << 10, 7}}, // the slot of 5000
	}
	delta := [][]took{
		{{200, 1, 0}, {5000, 2, 0}, {1_000_000, 3, 0}},
		{{150, 5, 1}, {300, 4, 1}},
		nil,
		{{5000 << 10, 7, 3}},
	}
	cumulative := [][]took{
		{{200, 1, 0}, {5000, 2, 0}, {1_000_000, 3, 0}},
		{{150, 5, 1}, {300, 4, 1}, {5000, 2, 0}, {1_000_000, 3, 0}},
		{{150, 5, 1}, {300, 4, 1}, {5000, 2, 0}, {1_000_000, 3, 0}},
		{{150, 5, 1}, {300, 4, 1}, {1_000_000, 3, 0}, {5000 << 10, 7, 3}},
	}
	for _, mode := range []struct {
		name  string
		delta []bool // each collection's
	}{
		{"cumulative", []bool{false, false, false, false}},
		{"delta", []bool{true, true, true, true}},
		{"switch", []bool{true, true, false, true}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			c := 0
			sel := func(metric.InstrumentKind) metricdata.Temporality {
				return temporality(mode.delta[c])
			}
			hs := newHarness(t, sel)
			h := counter.NewHistogram()
			if err := hs.p.Register("request.duration", h, rate); err != nil {
				t.Fatal(err)
			}
			var times []time.Time
			for ; c < len(intervals); c++ {
				for _, r := range intervals[c] {
					r.record(h)
				}
				dp := onePoint(t, hs.collect(t), "request.duration", temporality(mode.delta[c]))
				times = append(times, dp.Time)
				want := cumulative[c]
				if mode.delta[c] {
					want = delta[c]
				}
				t.Run(strconv.Itoa(c), func(t *testing.T) { checkExemplars(t, dp.Exemplars, wants(want, times)) })
			}
		})
	}
}

// temporality returns the temporality delta says.
func temporality(delta bool) metricdata.Temporality {
	if delta {
		return metricdata.DeltaTemporality
	}
	return metricdata.CumulativeTemporality
}

// TestExemplarFamily checks that each series of a Family keeps its own
// exemplars, the overflow series those of all the sets of values past the
// limit, and a series without one has none, in both temporalities.
func TestExemplarFamily(t *testing.T) {
	intervals := []map[string][]rec{
		{"/a": {{1000, 1}}, "/b": {{2000, 2}}, "/c": {{3000, 3}}, "/d": {{50, 0}}},
		{"/b": {{1900, 4}}, "/d": {{60, 0}}}, // 1900 in the slot of 2000, faster
	}
	// The exemplars of each point, cumulative and delta, at each
	// collection; /b and /c are past the limit.
	want := map[string][2][][]took{
		"/a":       {{{{1000, 1, 0}}, {{1000, 1, 0}}}, {{{1000, 1, 0}}, nil}},
		"/d":       {{nil, nil}, {nil, nil}},
		"overflow": {{{{2000, 2, 0}, {3000, 3, 0}}, {{1900, 4, 1}, {3000, 3, 0}}}, {{{2000, 2, 0}, {3000, 3, 0}}, {{1900, 4, 1}}}},
	}
	for ti, tm := range temporalities {
		t.Run(tm.name, func(t *testing.T) {
			hs := newHarness(t, tm.sel)
			f := newFamily(t, 3, "route") // /a and /d, and the overflow series
			if err := hs.p.RegisterFamily("request.duration", f, rate, attribute.String("service", "api")); err != nil {
				t.Fatal(err)
			}
			var times []time.Time
			for c, in := range intervals {
				for _, v := range []string{"/a", "/d", "/b", "/c"} {
					for _, r := range in[v] {
						r.record(f.With(v))
					}
				}
				rm := hs.collect(t)
				times = append(times, histogram(t, rm, "request.duration").DataPoints[0].Time) // the family's points have one
				for name, w := range want {
					attrs := attribute.NewSet(attribute.String("service", "api"), attribute.String("route", name))
					if name == "overflow" {
						attrs = attribute.NewSet(attribute.String("service", "api"), overflowAttr)
					}
					dp := pointOf(t, rm, "request.duration", attrs)
					t.Run(fmt.Sprintf("%d/%s", c, name), func(t *testing.T) { checkExemplars(t, dp.Exemplars, wants(w[ti][c], times)) })
				}
			}
		})
	}
}

// TestExemplarOfContext checks Exemplar against spans of the OpenTelemetry
// SDK's tracer: a sampled span's ids, and none for an unsampled span, for a
// context without a span or a nil one, and for a sampled span context
// without a span id; with no allocation. And a span recorded with the
// exemplar of a sampled span is exported with its trace and span ids, in
// both temporalities; one of an unsampled span is exported without one.
func TestExemplarOfContext(t *testing.T) {
	for _, c := range []struct {
		name    string
		sampler sdktrace.Sampler
		sampled bool
	}{
		{"sampled", sdktrace.AlwaysSample(), true},
		{"unsampled", sdktrace.NeverSample(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(c.sampler))
			t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
			ctx, span := tp.Tracer("test").Start(context.Background(), "request")
			defer span.End()
			sc := span.SpanContext()
			if !sc.IsValid() || sc.IsSampled() != c.sampled {
				t.Fatalf("the SDK's span context: valid %v, sampled %v", sc.IsValid(), sc.IsSampled())
			}
			e := counterotel.Exemplar(ctx)
			want := counter.Exemplar{}
			if c.sampled {
				want = counter.Exemplar{TraceID: sc.TraceID(), SpanID: sc.SpanID()}
			}
			if e != want {
				t.Errorf("Exemplar = %+v; want %+v", e, want)
			}
			if n := testing.AllocsPerRun(100, func() { e = counterotel.Exemplar(ctx) }); n != 0 {
				t.Errorf("Exemplar: %v allocations; want 0", n)
			}

			for _, tm := range temporalities {
				hs := newHarness(t, tm.sel)
				h := counter.NewHistogram()
				if err := hs.p.Register("request.duration", h, rate); err != nil {
					t.Fatal(err)
				}
				h.RecordExemplar(12_345, counterotel.Exemplar(ctx))
				dp := onePoint(t, hs.collect(t), "request.duration", tm.want)
				var w []wantExemplar
				if c.sampled {
					tid, sid := sc.TraceID(), sc.SpanID()
					if !bytes.Equal(dp.Exemplars[0].TraceID, tid[:]) || !bytes.Equal(dp.Exemplars[0].SpanID, sid[:]) {
						t.Errorf("%s: the exemplar's ids %x %x; the span's %v %v", tm.name, dp.Exemplars[0].TraceID, dp.Exemplars[0].SpanID, tid, sid)
					}
					w = []wantExemplar{{12_345, want, dp.Time}}
				}
				checkExemplars(t, dp.Exemplars, w)
			}
		})
	}

	noSpanID := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1}, TraceFlags: trace.FlagsSampled,
	}))
	for name, ctx := range map[string]context.Context{
		"no span":    context.Background(),
		"nil":        nil,
		"no span id": noSpanID,
	} {
		if e := counterotel.Exemplar(ctx); e != (counter.Exemplar{}) {
			t.Errorf("%s: Exemplar = %+v; want none", name, e)
		}
	}
}

// TestExemplarAnchor checks an exemplar's time: with WithAnchor, its At as
// the Anchor converts it, and the collection's time where At is 0;
// without an anchor, or with a nil one, the collection's time whatever At.
// A zero Anchor is refused; an Anchor that a Run re-anchors meanwhile is
// taken.
func TestExemplarAnchor(t *testing.T) {
	clk := counter.Monotonic()
	a, err := counter.NewAnchor(clk)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = a.Run(ctx, time.Millisecond) })
	withAnchor := counterotel.WithAnchor(a)
	// WithAnchor's check reads a while Run re-anchors it: under -race, a
	// check that read what Run writes would be reported.
	for deadline := time.Now().Add(20 * time.Millisecond); time.Now().Before(deadline); {
		if _, err := counterotel.NewProducer(withAnchor).Produce(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name     string
		opts     []counterotel.Option
		anchored bool
	}{
		{"anchor", []counterotel.Option{withAnchor}, true},
		{"none", nil, false},
		{"nil", []counterotel.Option{counterotel.WithAnchor(nil)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, tm := range temporalities {
				hs := newHarness(t, tm.sel, c.opts...)
				h := counter.NewHistogram()
				if err := hs.p.Register("request.duration", h, rate); err != nil {
					t.Fatal(err)
				}
				at := numbered(1)
				at.At = clk.Now()
				h.RecordExemplar(100_000, at)
				h.RecordExemplar(1_000, numbered(2)) // At 0
				dp := onePoint(t, hs.collect(t), "request.duration", tm.want)
				w := []wantExemplar{{1_000, numbered(2), dp.Time}, {100_000, at, dp.Time}}
				if c.anchored {
					w[1].at = a.Time(at.At)
				}
				checkExemplars(t, dp.Exemplars, w)
			}
		})
	}
	cancel()
	wg.Wait()

	p := counterotel.NewProducer(counterotel.WithAnchor(new(counter.Anchor)))
	regErr := p.Register("x", counter.NewHistogram(), rate)
	_, prodErr := p.Produce(context.Background())
	for name, err := range map[string]error{"Register": regErr, "Produce": prodErr} {
		if !errors.Is(err, counterotel.ErrInvalidOption) {
			t.Errorf("a zero Anchor: %s returned %v; want ErrInvalidOption", name, err)
		}
	}
}

// TestExemplarAllocations checks what exemplars cost a Produce of a
// registration and of a Family's three points, the overflow's among them:
// nothing where no Interval had one, nothing for a delta point whose
// Interval has none though earlier ones had, and two allocations a point
// that has some.
func TestExemplarAllocations(t *testing.T) {
	for _, tm := range temporalities {
		t.Run(tm.name, func(t *testing.T) {
			p := counterotel.NewProducer(counterotel.WithTemporalitySelector(tm.sel))
			h := counter.NewHistogram()
			f := newFamily(t, 2, "route")
			if err := p.Register("a", h, rate); err != nil {
				t.Fatal(err)
			}
			if err := p.RegisterFamily("b", f, rate); err != nil {
				t.Fatal(err)
			}
			hists := []*counter.Histogram{h, f.With("/x"), f.With("/y"), f.With("/z")} // /z past the limit
			exemplars := false
			record := func() {
				for _, hh := range hists {
					for i := range 100 {
						d := counter.Tickdelta(1000 + 997*i)
						if exemplars && i%10 == 0 {
							hh.RecordExemplar(d<<(i/10), numbered(i+1))
						} else {
							hh.Record(d)
						}
					}
				}
			}
			ctx := context.Background()
			produce := func() {
				record()
				if _, err := p.Produce(ctx); err != nil {
					t.Fatal(err)
				}
			}
			produce()
			none := testing.AllocsPerRun(20, produce)
			exemplars = true
			some := testing.AllocsPerRun(20, produce)
			exemplars = false
			after := testing.AllocsPerRun(20, produce)
			points := float64(len(hists) - 1) // /y and /z are one point
			t.Logf("allocations a Produce: %v without exemplars, %v with, %v after", none, some, after)
			if some != none+2*points {
				t.Errorf("exemplars in every point: %v allocations; want %v, two a point more than %v without", some, none+2*points, none)
			}
			want := none
			if tm.want == metricdata.CumulativeTemporality {
				want += 2 * points // they keep the earlier exemplars
			}
			if after != want {
				t.Errorf("no exemplar since: %v allocations; want %v", after, want)
			}
		})
	}
}

// TestExemplarWithoutSpanID checks that an exemplar whose span id is zero
// is exported with its trace id and no span id.
func TestExemplarWithoutSpanID(t *testing.T) {
	hs := newHarness(t, metric.DeltaTemporalitySelector)
	h := counter.NewHistogram()
	if err := hs.p.Register("request.duration", h, rate); err != nil {
		t.Fatal(err)
	}
	e := counter.Exemplar{TraceID: [16]byte{7}}
	h.RecordExemplar(500, e)
	dp := onePoint(t, hs.collect(t), "request.duration", metricdata.DeltaTemporality)
	if len(dp.Exemplars) != 1 || !bytes.Equal(dp.Exemplars[0].TraceID, e.TraceID[:]) || dp.Exemplars[0].SpanID != nil {
		t.Errorf("exemplars %+v; want one of trace %x and no span id", dp.Exemplars, e.TraceID)
	}
}
