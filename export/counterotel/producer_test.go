package counterotel_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/internal/spantest"
)

// A harness is a Producer registered on a ManualReader of a MeterProvider,
// both with one temporality.
type harness struct {
	p      *counterotel.Producer
	reader *metric.ManualReader
}

var temporalities = []struct {
	name string
	sel  metric.TemporalitySelector
	want metricdata.Temporality
}{
	{"cumulative", metric.CumulativeTemporalitySelector, metricdata.CumulativeTemporality},
	{"delta", metric.DeltaTemporalitySelector, metricdata.DeltaTemporality},
}

func newHarness(t testing.TB, sel metric.TemporalitySelector, opts ...counterotel.Option) *harness {
	p := counterotel.NewProducer(append([]counterotel.Option{counterotel.WithTemporalitySelector(sel)}, opts...)...)
	reader := metric.NewManualReader(metric.WithProducer(p), metric.WithTemporalitySelector(sel))
	mp := metric.NewMeterProvider(metric.WithReader(reader))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	return &harness{p, reader}
}

func (h *harness) collect(t testing.TB) *metricdata.ResourceMetrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := h.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	return &rm
}

// lookup returns the metric named name of the Producer's scope, and
// whether there is one.
func lookup(rm *metricdata.ResourceMetrics, name string) (metricdata.Metrics, bool) {
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != counterotel.ScopeName {
			continue
		}
		for _, m := range sm.Metrics {
			if m.Name == name {
				return m, true
			}
		}
	}
	return metricdata.Metrics{}, false
}

// find returns the metric named name of the Producer's scope.
func find(t testing.TB, rm *metricdata.ResourceMetrics, name string) metricdata.Metrics {
	t.Helper()
	m, ok := lookup(rm, name)
	if !ok {
		t.Fatalf("no metric %q", name)
	}
	return m
}

func histogram(t testing.TB, rm *metricdata.ResourceMetrics, name string) metricdata.ExponentialHistogram[float64] {
	t.Helper()
	m := find(t, rm, name)
	if m.Unit != "s" {
		t.Errorf("%s: unit %q, want s", name, m.Unit)
	}
	h, ok := m.Data.(metricdata.ExponentialHistogram[float64])
	if !ok {
		t.Fatalf("%s is a %T", name, m.Data)
	}
	return h
}

func sum(t testing.TB, rm *metricdata.ResourceMetrics, name string) metricdata.Sum[int64] {
	t.Helper()
	m := find(t, rm, name)
	if m.Unit != "{span}" {
		t.Errorf("%s: unit %q, want {span}", name, m.Unit)
	}
	s, ok := m.Data.(metricdata.Sum[int64])
	if !ok {
		t.Fatalf("%s is a %T", name, m.Data)
	}
	if !s.IsMonotonic {
		t.Errorf("%s is not monotonic", name)
	}
	return s
}

// sumPoints returns the points of the sum name, none where rm has no such
// metric. It checks what the package doc promises of a sum's points: the
// metric is there only with a point, and no point is 0.
func sumPoints(t testing.TB, rm *metricdata.ResourceMetrics, name string) []metricdata.DataPoint[int64] {
	t.Helper()
	if _, ok := lookup(rm, name); !ok {
		return nil
	}
	s := sum(t, rm, name)
	if len(s.DataPoints) == 0 {
		t.Errorf("%s is exported without a point", name)
	}
	for _, p := range s.DataPoints {
		if p.Value == 0 {
			t.Errorf("%s has a point of 0: %+v", name, p)
		}
	}
	return s.DataPoints
}

// onePoint returns the only data point of the histogram name.
func onePoint(t testing.TB, rm *metricdata.ResourceMetrics, name string, want metricdata.Temporality) metricdata.ExponentialHistogramDataPoint[float64] {
	t.Helper()
	h := histogram(t, rm, name)
	if h.Temporality != want {
		t.Errorf("%s: temporality %v, want %v", name, h.Temporality, want)
	}
	if len(h.DataPoints) != 1 {
		t.Fatalf("%s: %d data points, want 1", name, len(h.DataPoints))
	}
	return h.DataPoints[0]
}

// TestTemporality records batches of spans, collecting after each and once
// after none, and checks each point, bucket by bucket, against a Snapshot
// of the spans it should hold: those since the previous collection for
// delta, every one for cumulative; and its start and time.
func TestTemporality(t *testing.T) {
	const n = 50_000
	for _, tm := range temporalities {
		for di, dist := range spantest.Distributions {
			t.Run(tm.name+"/"+dist.Name, func(t *testing.T) {
				hs := newHarness(t, tm.sel)
				h := counter.NewHistogram()
				before := time.Now()
				if err := hs.p.Register("request.duration", h, rate, attribute.String("route", "/a")); err != nil {
					t.Fatal(err)
				}
				after := time.Now()
				rnd := rand.New(rand.NewPCG(uint64(di), 1))
				var all [][]counter.Tickdelta // a batch an Interval
				var prev time.Time            // the previous point's time
				for c := range 4 {
					var batch []counter.Tickdelta
					if c != 2 { // the third collection follows no span
						// Each batch reaches further than the one before, so
						// that the interval's extremes are not all time's.
						batch = dist.Spans(rnd, n)
						for i := range batch {
							batch[i] *= counter.Tickdelta(1 + c)
						}
						if c == 1 {
							batch = batch[:n/2] // and the second is smaller
						}
						spantest.Record(h, batch)
					}
					all = append(all, batch)
					dp := onePoint(t, hs.collect(t), "request.duration", tm.want)
					if set := attribute.NewSet(attribute.String("route", "/a")); !dp.Attributes.Equals(&set) {
						t.Errorf("attributes %v", dp.Attributes)
					}
					want := all
					if tm.want == metricdata.DeltaTemporality {
						want = all[c:]
					}
					checkPoint(t, fromSDK(dp), want, defaults)

					// The start: Register's time for cumulative and for
					// the first delta, then the previous point's time.
					if tm.want == metricdata.DeltaTemporality && c > 0 {
						if !dp.StartTime.Equal(prev) {
							t.Errorf("collection %d: start %v, want the previous time %v", c, dp.StartTime, prev)
						}
					} else if dp.StartTime.Before(before) || dp.StartTime.After(after) {
						t.Errorf("collection %d: start %v, not the registration's time, between %v and %v", c, dp.StartTime, before, after)
					}
					if !dp.Time.After(dp.StartTime) || !dp.Time.After(prev) {
						t.Errorf("collection %d: time %v, start %v, previous time %v", c, dp.Time, dp.StartTime, prev)
					}
					prev = dp.Time
				}
			})
		}
	}
}

// TestHuge checks spans whose sum is past a Tickdelta, where the sum is
// the mean times the count, and buckets far from 1 s.
func TestHuge(t *testing.T) {
	hs := newHarness(t, nil)
	h := counter.NewHistogram()
	if err := hs.p.Register("huge", h, rate); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(3, 3))
	spans := make([]counter.Tickdelta, 200)
	for i := range spans {
		spans[i] = counter.Tickdelta(float64(1<<61) * (1 + rnd.Float64()))
	}
	spans = append(spans, 1, 2, 3) // and a few of a tick
	spantest.Record(h, spans)
	dp := onePoint(t, hs.collect(t), "huge", metricdata.CumulativeTemporality)
	checkPoint(t, fromSDK(dp), [][]counter.Tickdelta{spans}, defaults)
}

// TestNothingRecorded checks the points of a registration that holds no
// span: reported, with count 0, no extremes and no bucket; and no sum
// beside it, as a sum is exported once it counts a span.
func TestNothingRecorded(t *testing.T) {
	for _, tm := range temporalities {
		t.Run(tm.name, func(t *testing.T) {
			hs := newHarness(t, tm.sel)
			if err := hs.p.Register("idle", counter.NewHistogram(), rate); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				rm := hs.collect(t)
				dp := onePoint(t, rm, "idle", tm.want)
				checkPoint(t, fromSDK(dp), nil, defaults)
				if dp.PositiveBucket.Offset != 0 || dp.PositiveBucket.Counts != nil || dp.Scale != counterotel.DefaultMaxScale {
					t.Errorf("positive buckets %+v at scale %d, want none at the maximum scale", dp.PositiveBucket, dp.Scale)
				}
				for _, name := range []string{"idle.negative", "idle.migrated"} {
					if m, ok := lookup(rm, name); ok {
						t.Errorf("%s: %+v, want no metric", name, m)
					}
				}
			}
		})
	}
}

// TestNegativeAndMigrated checks that the spans a Snapshot counts apart are
// in the sums beside the histogram and not in it, and that a sum that
// counts none is not exported: a delta sum in a collection with none, a
// cumulative sum before the first.
func TestNegativeAndMigrated(t *testing.T) {
	for _, tm := range temporalities {
		t.Run(tm.name, func(t *testing.T) {
			hs := newHarness(t, tm.sel)
			h := counter.NewHistogram()
			attrs := []attribute.KeyValue{attribute.String("route", "/b"), attribute.Int("shard", 2)}
			if err := hs.p.Register("op", h, rate, attrs...); err != nil {
				t.Fatal(err)
			}
			var totalNeg, totalMig int64
			for c, batch := range []struct{ ok, neg, mig int }{{20, 0, 0}, {100, 3, 5}, {0, 0, 0}, {10, 7, 1}, {5, 0, 2}} {
				r := h.Recorder()
				for i := range batch.ok {
					r.RecordCPU(counter.Tickdelta(1000+i), 4, 4)
				}
				for i := range batch.neg {
					h.Record(counter.Tickdelta(-1 - i))
				}
				for i := range batch.mig {
					r.RecordCPU(counter.Tickdelta(500-200*i), 1, 2) // of either sign
				}
				r.Close()
				totalNeg += int64(batch.neg)
				totalMig += int64(batch.mig)

				rm := hs.collect(t)
				dp := onePoint(t, rm, "op", tm.want)
				wantOK, wantNeg, wantMig := uint64(batch.ok), int64(batch.neg), int64(batch.mig)
				if tm.want == metricdata.CumulativeTemporality {
					wantNeg, wantMig = totalNeg, totalMig
					wantOK = 0
					for _, b := range []int{20, 100, 0, 10, 5}[:c+1] {
						wantOK += uint64(b)
					}
				}
				if dp.Count != wantOK {
					t.Errorf("collection %d: count %d, want %d", c, dp.Count, wantOK)
				}
				for name, want := range map[string]int64{"op.negative": wantNeg, "op.migrated": wantMig} {
					pts := sumPoints(t, rm, name)
					if want == 0 {
						if len(pts) != 0 {
							t.Errorf("collection %d: %s has %+v, want no point", c, name, pts)
						}
						continue
					}
					if s := sum(t, rm, name); s.Temporality != tm.want || len(pts) != 1 {
						t.Fatalf("%s: temporality %v, %d points", name, s.Temporality, len(pts))
					}
					sp := pts[0]
					if sp.Value != want {
						t.Errorf("collection %d: %s is %d, want %d", c, name, sp.Value, want)
					}
					if !sp.Attributes.Equals(&dp.Attributes) || !sp.StartTime.Equal(dp.StartTime) || !sp.Time.Equal(dp.Time) {
						t.Errorf("%s: attributes %v, start %v, time %v; the histogram's %v, %v, %v",
							name, sp.Attributes, sp.StartTime, sp.Time, dp.Attributes, dp.StartTime, dp.Time)
					}
				}
			}
		})
	}
}

// TestRegisterErrors checks each refusal of Register, and that a refused
// registration exports nothing.
func TestRegisterErrors(t *testing.T) {
	p := counterotel.NewProducer()
	h := counter.NewHistogram()
	if err := p.Register("taken", h, rate, attribute.String("a", "1"), attribute.String("b", "2")); err != nil {
		t.Fatal(err)
	}
	if err := p.Register("other.migrated", counter.NewHistogram(), rate); err != nil {
		t.Fatal(err)
	}
	var nilHistogram *counter.Histogram
	var nilTap *export.Tap
	for _, c := range []struct {
		name  string
		src   export.Source
		rate  counter.TickRate
		attrs []attribute.KeyValue
		want  error
	}{
		{"", h, rate, nil, counterotel.ErrInvalidName},
		{"1st", h, rate, nil, counterotel.ErrInvalidName},
		{"_x", h, rate, nil, counterotel.ErrInvalidName},
		{"has space", h, rate, nil, counterotel.ErrInvalidName},
		{"naïve", h, rate, nil, counterotel.ErrInvalidName},
		{"a" + strings.Repeat("b", 246), h, rate, nil, counterotel.ErrInvalidName},
		{"x", h, rate, []attribute.KeyValue{{Key: "", Value: attribute.StringValue("v")}}, counterotel.ErrInvalidAttribute},
		{"x", nil, rate, nil, counterotel.ErrNilSource},
		{"x", nilHistogram, rate, nil, counterotel.ErrNilSource},
		{"x", nilTap, rate, nil, counterotel.ErrNilSource},
		{"x", new(counter.Histogram), rate, nil, counterotel.ErrNilSource},
		{"x", new(export.Tap), rate, nil, counterotel.ErrNilSource},
		{"x", h, counter.TickRate{}, nil, export.ErrZeroRate},
		// The same attributes in another order, and the last of a key kept.
		{"taken", h, rate, []attribute.KeyValue{attribute.String("b", "2"), attribute.String("a", "0"), attribute.String("a", "1")}, counterotel.ErrDuplicate},
		{"taken.negative", h, rate, nil, counterotel.ErrDuplicate},
		{"taken.migrated", h, rate, nil, counterotel.ErrDuplicate},
		{"other", h, rate, nil, counterotel.ErrDuplicate},
		// h's second reader.
		{"fresh", h, rate, nil, export.ErrSecondReader},
	} {
		err := p.Register(c.name, c.src, c.rate, c.attrs...)
		if !errors.Is(err, c.want) {
			t.Errorf("Register(%.20q, %v, %v, %v) = %v, want %v", c.name, c.src, c.rate, c.attrs, err, c.want)
		} else {
			t.Logf("%v", err)
		}
	}
	// The longest name taken, and the names with attributes of their own.
	for _, c := range []struct {
		name  string
		attrs []attribute.KeyValue
	}{
		{"a" + strings.Repeat("b", 245), nil},
		{"A_1.b-c/d", nil},
		{"taken", nil},
		{"taken", []attribute.KeyValue{attribute.String("a", "1")}},
		{"taken", []attribute.KeyValue{attribute.String("a", "1"), attribute.String("b", "3")}},
	} {
		if err := p.Register(c.name, counter.NewHistogram(), rate, c.attrs...); err != nil {
			t.Errorf("Register(%.20q, %v): %v", c.name, c.attrs, err)
		}
	}
	sms, err := p.Produce(context.Background())
	if err != nil || len(sms) != 1 {
		t.Fatal(sms, err)
	}
	var names []string
	for _, m := range sms[0].Metrics {
		names = append(names, m.Name)
		if m.Name == "taken" {
			if n := len(m.Data.(metricdata.ExponentialHistogram[float64]).DataPoints); n != 4 {
				t.Errorf("taken has %d points, want 4", n)
			}
		}
	}
	// The four names registered, each a histogram alone: h holds no span
	// for a sum to count.
	if want := 4; len(names) != want {
		t.Errorf("metrics %q, want %d", names, want)
	}
}

// TestSeveralRegistrations checks the layout of several names and
// attribute sets: one metric of each kind for each name, in the order of
// Register, each sum only where it counts a span, with a point for each
// registration holding its own spans.
func TestSeveralRegistrations(t *testing.T) {
	hs := newHarness(t, metric.DeltaTemporalitySelector)
	type reg struct {
		name     string
		attrs    []attribute.KeyValue
		neg, mig int64
		h        *counter.Histogram
		spans    []counter.Tickdelta
	}
	regs := []reg{
		{name: "db.query", attrs: []attribute.KeyValue{attribute.String("table", "users")}},
		{name: "rpc", attrs: nil, neg: 1, mig: 2},
		{name: "db.query", attrs: []attribute.KeyValue{attribute.String("table", "orders")}, neg: 3, mig: 1},
	}
	for i := range regs {
		r := &regs[i]
		r.h = counter.NewHistogram()
		r.spans = spantest.Distributions[0].Spans(rand.New(rand.NewPCG(uint64(i), 9)), 1000*(i+1))
		spantest.Record(r.h, r.spans)
		for range r.neg {
			r.h.Record(-5)
		}
		rec := r.h.Recorder()
		for range r.mig {
			rec.RecordCPU(100, 1, 2)
		}
		rec.Close()
		if err := hs.p.Register(r.name, r.h, rate, r.attrs...); err != nil {
			t.Fatal(err)
		}
	}
	hs.p.Describe("db.query", "Time of one query.")
	rm := hs.collect(t)
	var names []string
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != counterotel.ScopeName {
			t.Errorf("scope %q", sm.Scope.Name)
		}
		for _, m := range sm.Metrics {
			names = append(names, m.Name)
		}
	}
	want := "db.query db.query.negative db.query.migrated rpc rpc.negative rpc.migrated"
	if strings.Join(names, " ") != want {
		t.Errorf("metrics %q, want %q", names, want)
	}
	// Each sum's points: the registrations of its name whose spans it
	// counts, in the order of Register.
	for _, c := range []struct {
		name string
		regs []int
		of   func(reg) int64
	}{
		{"db.query.negative", []int{2}, func(r reg) int64 { return r.neg }},
		{"db.query.migrated", []int{2}, func(r reg) int64 { return r.mig }},
		{"rpc.negative", []int{1}, func(r reg) int64 { return r.neg }},
		{"rpc.migrated", []int{1}, func(r reg) int64 { return r.mig }},
	} {
		pts := sumPoints(t, rm, c.name)
		if len(pts) != len(c.regs) {
			t.Fatalf("%s: %+v, want %d points", c.name, pts, len(c.regs))
		}
		for k, i := range c.regs {
			set := attribute.NewSet(regs[i].attrs...)
			if !pts[k].Attributes.Equals(&set) || pts[k].Value != c.of(regs[i]) {
				t.Errorf("%s: point %+v, want %d with %v", c.name, pts[k], c.of(regs[i]), set)
			}
		}
	}
	if d := find(t, rm, "db.query").Description; d != "Time of one query." {
		t.Errorf("description %q", d)
	}
	if d := find(t, rm, "db.query.negative").Description; !strings.Contains(d, "db.query") {
		t.Errorf("description %q", d)
	}
	db := histogram(t, rm, "db.query").DataPoints
	rpc := histogram(t, rm, "rpc").DataPoints
	if len(db) != 2 || len(rpc) != 1 {
		t.Fatalf("%d and %d points", len(db), len(rpc))
	}
	for i, dp := range []metricdata.ExponentialHistogramDataPoint[float64]{db[0], rpc[0], db[1]} {
		r := regs[i]
		set := attribute.NewSet(r.attrs...)
		if !dp.Attributes.Equals(&set) {
			t.Errorf("point %d: attributes %v, want %v", i, dp.Attributes, set)
		}
		checkPoint(t, fromSDK(dp), [][]counter.Tickdelta{r.spans}, defaults)
	}
}

// TestDefaultTemporality checks that a Producer with no selector, a nil
// one, or the zero Producer, reports cumulative points.
func TestDefaultTemporality(t *testing.T) {
	for _, p := range []*counterotel.Producer{
		counterotel.NewProducer(),
		counterotel.NewProducer(counterotel.WithTemporalitySelector(nil), nil),
		new(counterotel.Producer),
	} {
		h := counter.NewHistogram()
		if err := p.Register("d", h, rate); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			h.Record(7)
			sms, err := p.Produce(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			eh := sms[0].Metrics[0].Data.(metricdata.ExponentialHistogram[float64])
			if eh.Temporality != metricdata.CumulativeTemporality || eh.DataPoints[0].Count != uint64(i+1) {
				t.Errorf("temporality %v, count %d", eh.Temporality, eh.DataPoints[0].Count)
			}
		}
	}
}

// TestNothingRegistered checks that a Producer with no registration
// produces nothing.
func TestNothingRegistered(t *testing.T) {
	sms, err := counterotel.NewProducer().Produce(context.Background())
	if err != nil || sms != nil {
		t.Errorf("Produce = %v, %v; want nothing", sms, err)
	}
}

// TestCanceled checks that a Produce whose context is done takes no span:
// the next one reports them.
func TestCanceled(t *testing.T) {
	hs := newHarness(t, metric.DeltaTemporalitySelector)
	h := counter.NewHistogram()
	if err := hs.p.Register("c", h, rate); err != nil {
		t.Fatal(err)
	}
	h.Record(100)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if sms, err := hs.p.Produce(ctx); !errors.Is(err, context.Canceled) || sms != nil {
		t.Errorf("Produce = %v, %v; want context.Canceled", sms, err)
	}
	if dp := onePoint(t, hs.collect(t), "c", metricdata.DeltaTemporality); dp.Count != 1 {
		t.Errorf("count %d after a canceled Produce, want 1", dp.Count)
	}
}

// TestTwoProducersOfAFeed exports one Histogram to two delta readers, with
// a Producer each and a Tap each: both see every span.
func TestTwoProducersOfAFeed(t *testing.T) {
	h := counter.NewHistogram()
	feed, err := export.NewFeed(h)
	if err != nil {
		t.Fatal(err)
	}
	a, b := newHarness(t, metric.DeltaTemporalitySelector), newHarness(t, metric.DeltaTemporalitySelector)
	for _, hs := range []*harness{a, b} {
		if err := hs.p.Register("shared", feed.Tap(), rate); err != nil {
			t.Fatal(err)
		}
	}
	spans := spantest.Distributions[0].Spans(rand.New(rand.NewPCG(5, 5)), 10_000)
	spantest.Record(h, spans[:5000])
	first := onePoint(t, a.collect(t), "shared", metricdata.DeltaTemporality)
	checkPoint(t, fromSDK(first), [][]counter.Tickdelta{spans[:5000]}, defaults)
	spantest.Record(h, spans[5000:])
	checkPoint(t, fromSDK(onePoint(t, a.collect(t), "shared", metricdata.DeltaTemporality)), [][]counter.Tickdelta{spans[5000:]}, defaults)
	// b's Tap holds both batches, merged into one Interval.
	checkPoint(t, fromSDK(onePoint(t, b.collect(t), "shared", metricdata.DeltaTemporality)), [][]counter.Tickdelta{spans}, defaults)
}

// TestConcurrent records from several goroutines while others call Produce
// and Register: the delta points, with one last Produce once the writers
// are done, add up to every span recorded, and follow one another in time
// without a gap or an overlap.
func TestConcurrent(t *testing.T) {
	const writers, producers, spansEach, produces = 4, 3, 20_000, 30
	p := counterotel.NewProducer(counterotel.WithTemporalitySelector(metric.DeltaTemporalitySelector))
	h := counter.NewHistogram()
	if err := p.Register("busy", h, rate); err != nil {
		t.Fatal(err)
	}
	var (
		mu     sync.Mutex
		points []metricdata.ExponentialHistogramDataPoint[float64]
		neg    int64
	)
	take := func(sms []metricdata.ScopeMetrics) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range sms[0].Metrics {
			switch d := m.Data.(type) {
			case metricdata.ExponentialHistogram[float64]:
				if m.Name == "busy" {
					points = append(points, d.DataPoints[0])
				}
			case metricdata.Sum[int64]:
				if m.Name == "busy.negative" {
					neg += d.DataPoints[0].Value
				}
			}
		}
	}
	var writing, producing sync.WaitGroup
	for w := range writers {
		writing.Go(func() {
			r := h.Recorder()
			defer r.Close()
			for i := range spansEach {
				d := counter.Tickdelta(1 + (w*spansEach+i)%100_000)
				if i%1000 == 0 {
					d = -d
				}
				if w%2 == 0 {
					r.Record(d)
				} else {
					h.Record(d)
				}
			}
		})
	}
	for i := range producers {
		producing.Go(func() {
			for j := range produces {
				sms, err := p.Produce(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				take(sms)
				if j == produces/2 {
					// Register meanwhile, too.
					if err := p.Register("late", counter.NewHistogram(), rate, attribute.Int("by", i)); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	writing.Wait()
	producing.Wait()
	sms, err := p.Produce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	take(sms)

	var count uint64
	var total float64
	var wantSum int64
	for w := range writers {
		for i := range spansEach {
			if i%1000 != 0 {
				wantSum += int64(1 + (w*spansEach+i)%100_000)
			}
		}
	}
	wantNeg := int64(writers * spansEach / 1000)
	// Produce calls take turns, so their points' times order them.
	slices.SortFunc(points, func(a, b metricdata.ExponentialHistogramDataPoint[float64]) int { return a.Time.Compare(b.Time) })
	var prev time.Time
	for i, dp := range points {
		count += dp.Count
		total += dp.Sum
		if i > 0 && !dp.StartTime.Equal(prev) {
			t.Errorf("point %d starts at %v, the one before ended at %v", i, dp.StartTime, prev)
		}
		prev = dp.Time
	}
	if len(points) != producers*produces+1 {
		t.Errorf("%d points, want %d", len(points), producers*produces+1)
	}
	if want := uint64(writers*spansEach) - uint64(wantNeg); count != want || neg != wantNeg {
		t.Errorf("the points hold %d spans and %d negative, want %d and %d", count, neg, want, wantNeg)
	}
	if want := float64(wantSum) / hz; total < want*(1-1e-12) || total > want*(1+1e-12) {
		t.Errorf("the points' sums add up to %g s, want %g s", total, want)
	}
	if n := len(histogram(t, &metricdata.ResourceMetrics{ScopeMetrics: sms}, "late").DataPoints); n != producers {
		t.Errorf("late has %d points, want %d", n, producers)
	}
}

// TestBadSourceBesideAHealthyGauge registers each source that cannot be
// read on a Producer whose MeterProvider also has a healthy gauge:
// Register refuses it with ErrNilSource (the sentinel counterprom refuses
// with too), and a collection still holds the gauge.
func TestBadSourceBesideAHealthyGauge(t *testing.T) {
	if counterotel.ErrNilSource != export.ErrNilSource {
		t.Fatal("counterotel.ErrNilSource is not export.ErrNilSource")
	}
	for name, src := range spantest.UnreadableSources() {
		p := counterotel.NewProducer()
		reader := metric.NewManualReader(metric.WithProducer(p))
		mp := metric.NewMeterProvider(metric.WithReader(reader))
		gauge, err := mp.Meter("healthy").Int64Gauge("healthy")
		if err != nil {
			t.Fatal(err)
		}
		gauge.Record(context.Background(), 42)
		if err := p.Register("bad", src, rate); !errors.Is(err, counterotel.ErrNilSource) {
			t.Errorf("%s: Register returned %v; want ErrNilSource", name, err)
		}
		rm := new(metricdata.ResourceMetrics)
		if err := reader.Collect(context.Background(), rm); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		found := false
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				if g, ok := m.Data.(metricdata.Gauge[int64]); ok && m.Name == "healthy" && len(g.DataPoints) == 1 && g.DataPoints[0].Value == 42 {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: the collection has no healthy gauge of 42: %+v", name, rm.ScopeMetrics)
		}
		_ = mp.Shutdown(context.Background())
	}
}
