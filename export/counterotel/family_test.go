package counterotel_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
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

// overflowAttr is the attribute of the SDK's overflow point.
var overflowAttr = attribute.Bool("otel.metric.overflow", true)

// newFamily returns a Family of the labels, with at most limit series.
func newFamily(t testing.TB, limit int, labels ...string) *counter.Family {
	t.Helper()
	f, err := counter.NewFamily(labels, limit)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// samePoint reports how a, of a family's series, differs from b, of a
// registration of the same spans, in what their spans make: count, sum,
// extremes, scale and buckets.
func samePoint(a, b metricdata.ExponentialHistogramDataPoint[float64]) error {
	pa, pb := fromSDK(a), fromSDK(b)
	if pa.count != pb.count || pa.sum != pb.sum || pa.min != pb.min || pa.max != pb.max || pa.minOK != pb.minOK || pa.maxOK != pb.maxOK ||
		pa.zeroCount != pb.zeroCount || pa.zeroThreshold != pb.zeroThreshold || pa.scale != pb.scale ||
		pa.offset != pb.offset || !slices.Equal(pa.counts, pb.counts) || pa.negative != pb.negative {
		return fmt.Errorf("the series' point %+v, the registration's %+v", pa, pb)
	}
	return nil
}

// pointOf returns the point of the histogram name whose attributes are
// attrs.
func pointOf(t *testing.T, rm *metricdata.ResourceMetrics, name string, attrs attribute.Set) metricdata.ExponentialHistogramDataPoint[float64] {
	t.Helper()
	for _, dp := range histogram(t, rm, name).DataPoints {
		if dp.Attributes.Equals(&attrs) {
			return dp
		}
	}
	t.Fatalf("%s has no point {%s}", name, attrs.Encoded(attribute.DefaultEncoder()))
	return metricdata.ExponentialHistogramDataPoint[float64]{}
}

// TestFamily registers a Family of a small limit, whose series are made
// over several collections and past the limit, and beside it, on the same
// Producer as "ref", a Histogram for each of its points that records the
// same spans: at each collection, each point of the family has the
// attributes of its series, or the overflow point's, in the order of the
// series, and holds what the registration of the same spans holds (count,
// sum, extremes, scale and buckets), which checkPoint checks against the
// spans themselves; the sums beside it too; all the family's points have
// one time, and each starts at the collection before the first that saw
// it.
func TestFamily(t *testing.T) {
	for _, tm := range temporalities {
		t.Run(tm.name, func(t *testing.T) {
			hs := newHarness(t, tm.sel)
			f := newFamily(t, 4, "method", "route")
			service := attribute.String("service", "api")
			before := time.Now()
			if err := hs.p.RegisterFamily("http", f, rate, service); err != nil {
				t.Fatal(err)
			}
			after := time.Now()

			// The points, in the order of the family's: three series of
			// their own, then the overflow, which takes sets 3 and 4.
			sets := [][]string{{"GET", "/a"}, {"POST", "/a"}, {"GET", "/b"}, {"GET", "/c"}, {"PUT", "/d"}}
			type pt struct {
				attrs     attribute.Set
				ref       *counter.Histogram
				batch     []counter.Tickdelta   // this collection's
				all       [][]counter.Tickdelta // a batch a collection
				neg, negs int64                 // of the batch, of all
				seen      int                   // the collection that first saw it, -1 before
				start     time.Time
			}
			pts := make([]*pt, 4)
			for i := range pts {
				kvs := []attribute.KeyValue{service, overflowAttr}
				if i < 3 {
					kvs = []attribute.KeyValue{service, attribute.String("method", sets[i][0]), attribute.String("route", sets[i][1])}
				}
				pts[i] = &pt{attrs: attribute.NewSet(kvs...), seen: -1}
			}
			rounds := [][]int{{0, 1}, {0, 2, 3, 4}, {}, {1, 4, 2}}
			rnd := rand.New(rand.NewPCG(7, 7))
			prev := before // the previous collection's time; RegisterFamily's, bounded
			made := 0      // the points the family has
			for c, round := range rounds {
				for _, p := range pts {
					p.batch, p.neg = nil, 0
				}
				for _, s := range round {
					p := pts[min(s, 3)]
					if p.ref == nil {
						p.ref = counter.NewHistogram()
						if err := hs.p.Register("ref", p.ref, rate, p.attrs.ToSlice()...); err != nil {
							t.Fatal(err)
						}
						made++
					}
					spans := randomSpans(rnd, 1+rnd.IntN(2000))
					h := f.With(sets[s]...)
					spantest.Record(h, spans)
					spantest.Record(p.ref, spans)
					h.Record(-3)
					p.ref.Record(-3)
					p.batch = append(p.batch, spans...)
					p.neg++
					p.negs++
				}
				for _, p := range pts {
					p.all = append(p.all, p.batch)
				}

				rm := hs.collect(t)
				hist := histogram(t, rm, "http")
				neg := sumPoints(t, rm, "http.negative")
				if hist.Temporality != tm.want || len(hist.DataPoints) != made {
					t.Fatalf("collection %d: %v, %d points; want %v, %d", c, hist.Temporality, len(hist.DataPoints), tm.want, made)
				}
				negs := 0 // the points of negative spans, in the order of the histogram's
				now := hist.DataPoints[0].Time
				for i, dp := range hist.DataPoints {
					p := pts[i] // the overflow is made after the third series
					if !dp.Attributes.Equals(&p.attrs) {
						t.Fatalf("collection %d: point %d has {%s}, want {%s}", c, i, dp.Attributes.Encoded(attribute.DefaultEncoder()), p.attrs.Encoded(attribute.DefaultEncoder()))
					}
					if err := samePoint(dp, pointOf(t, rm, "ref", p.attrs)); err != nil {
						t.Errorf("collection %d, {%s}: %v", c, p.attrs.Encoded(attribute.DefaultEncoder()), err)
					}
					want, wantNeg := p.all, p.negs
					if tm.want == metricdata.DeltaTemporality {
						want, wantNeg = p.all[c:], p.neg
					}
					checkPoint(t, fromSDK(dp), want, defaults)
					if wantNeg > 0 {
						if negs == len(neg) {
							t.Fatalf("collection %d: %d points of negative spans, want one for {%s}", c, len(neg), p.attrs.Encoded(attribute.DefaultEncoder()))
						}
						if n := neg[negs]; !n.Attributes.Equals(&p.attrs) || n.Value != wantNeg || !n.StartTime.Equal(dp.StartTime) || !n.Time.Equal(dp.Time) {
							t.Errorf("collection %d: negative spans %+v; want %d, with the histogram point's attributes and times", c, n, wantNeg)
						}
						negs++
					}

					// One time for the family; the start of a series is
					// the collection before the first that saw it.
					if !dp.Time.Equal(now) || !dp.Time.After(prev) {
						t.Errorf("collection %d: point %d at %v, the first at %v, the previous collection at %v", c, i, dp.Time, now, prev)
					}
					if p.seen < 0 {
						p.seen, p.start = c, prev
					}
					wantStart := p.start
					if tm.want == metricdata.DeltaTemporality {
						wantStart = prev
					}
					if c == 0 || p.seen == 0 && tm.want == metricdata.CumulativeTemporality {
						if dp.StartTime.Before(before) || dp.StartTime.After(after) {
							t.Errorf("collection %d: point %d starts at %v, not at RegisterFamily, between %v and %v", c, i, dp.StartTime, before, after)
						}
					} else if !dp.StartTime.Equal(wantStart) {
						t.Errorf("collection %d: point %d (first seen by collection %d) starts at %v, want %v", c, i, p.seen, dp.StartTime, wantStart)
					}
				}
				if negs != len(neg) {
					t.Errorf("collection %d: %d points of negative spans, want %d", c, len(neg), negs)
				}
				prev = now
			}
		})
	}
}

// TestFamilyOrder checks the order of a family's points: the series in the
// order the Family made them, the overflow last.
func TestFamilyOrder(t *testing.T) {
	hs := newHarness(t, nil)
	f := newFamily(t, 3, "k")
	if err := hs.p.RegisterFamily("o", f, rate); err != nil {
		t.Fatal(err)
	}
	f.With("a").Record(10)
	f.With("b").Record(30)
	f.With("c").Record(40) // past the limit: the overflow series
	f.With("d").Record(20) // past the limit
	want := []attribute.Set{
		attribute.NewSet(attribute.String("k", "a")),
		attribute.NewSet(attribute.String("k", "b")),
		attribute.NewSet(overflowAttr),
	}
	for c := range 2 {
		dps := histogram(t, hs.collect(t), "o").DataPoints
		if len(dps) != len(want) {
			t.Fatalf("%d points, want %d", len(dps), len(want))
		}
		for i, dp := range dps {
			if !dp.Attributes.Equals(&want[i]) {
				t.Errorf("collection %d: point %d has {%s}, want {%s}", c, i, dp.Attributes.Encoded(attribute.DefaultEncoder()), want[i].Encoded(attribute.DefaultEncoder()))
			}
		}
		if dps[2].Count != 2 || math.Abs(dps[2].Sum-60.0/hz) > 1e-12*60/hz {
			t.Errorf("the overflow point holds %d spans, %g s; want 2, %g s", dps[2].Count, dps[2].Sum, 60.0/hz)
		}
	}
}

// TestFamilyErrors checks each refusal of RegisterFamily, and of Register
// beside a family: each wraps its sentinel, the attribute ones in a
// *FamilyError that names the key; a refused registration exports nothing.
func TestFamilyErrors(t *testing.T) {
	p := counterotel.NewProducer()
	route := newFamily(t, 0, "route")
	h := counter.NewHistogram()
	svc := func(v string) attribute.KeyValue { return attribute.String("service", v) }
	if err := p.RegisterFamily("d", route, rate, svc("a")); err != nil {
		t.Fatal(err)
	}
	if err := p.Register("e", h, rate, attribute.String("route", "/x")); err != nil {
		t.Fatal(err)
	}
	var nilFamily *counter.Family
	type call struct {
		name   string
		family bool                // RegisterFamily of f, or Register of a new Histogram
		f      export.FamilySource //
		attrs  []attribute.KeyValue
	}
	fam := func(name string, f export.FamilySource, attrs ...attribute.KeyValue) call {
		return call{name, true, f, attrs}
	}
	reg := func(name string, attrs ...attribute.KeyValue) call { return call{name, false, nil, attrs} }
	register := func(c call) error {
		if c.family {
			return p.RegisterFamily(c.name, c.f, rate, c.attrs...)
		}
		return p.Register(c.name, counter.NewHistogram(), rate, c.attrs...)
	}
	for _, c := range []struct {
		call
		want error
		key  string // the FamilyError's Key; "-" where the error is no FamilyError
	}{
		{fam("", route), counterotel.ErrInvalidName, "-"},
		{fam("1x", route), counterotel.ErrInvalidName, "-"},
		{fam("x", nilFamily), counterotel.ErrNilSource, "-"},
		{fam("x", new(counter.Family)), counterotel.ErrNilSource, "-"},
		{fam("x", route, attribute.KeyValue{Key: "", Value: attribute.StringValue("v")}), counterotel.ErrInvalidAttribute, ""},
		{fam("x", route, attribute.String("route", "/x")), counterotel.ErrInvalidAttribute, "route"},
		{fam("x", route, svc("a"), attribute.String("route", "/x")), counterotel.ErrInvalidAttribute, "route"},
		{fam("x", route, overflowAttr), counterotel.ErrInvalidAttribute, "otel.metric.overflow"},
		{fam("x", newFamily(t, 0, "a", "otel.metric.overflow")), counterotel.ErrInvalidAttribute, "otel.metric.overflow"},
		// The sums' names.
		{fam("d.negative", newFamily(t, 0, "k")), counterotel.ErrDuplicate, "-"},
		{fam("e.migrated", newFamily(t, 0, "k")), counterotel.ErrDuplicate, "-"},
		// Beside the family of d: a set of attributes one of its series
		// or its overflow point could have.
		{reg("d", svc("a"), attribute.String("route", "/x")), counterotel.ErrDuplicate, ""},
		{reg("d", attribute.String("route", ""), svc("a")), counterotel.ErrDuplicate, ""},
		{reg("d", svc("a"), overflowAttr), counterotel.ErrDuplicate, ""},
		{fam("d", newFamily(t, 0, "route"), svc("a")), counterotel.ErrDuplicate, ""},
		{fam("d", newFamily(t, 0, "method"), svc("a")), counterotel.ErrDuplicate, ""}, // the overflow points
		{fam("d", newFamily(t, 0, "service", "route")), counterotel.ErrDuplicate, ""},
		{fam("d", newFamily(t, 0, "route", "service")), counterotel.ErrDuplicate, ""},
		// A family beside the registration of e.
		{fam("e", route), counterotel.ErrDuplicate, ""},
		{fam("e", newFamily(t, 0, "route")), counterotel.ErrDuplicate, ""},
	} {
		err := register(c.call)
		var fe *counterotel.FamilyError
		switch {
		case !errors.Is(err, c.want):
			t.Errorf("%s %v: %v, want %v", c.name, c.attrs, err, c.want)
		case c.key == "-" && errors.As(err, &fe):
			t.Errorf("%s %v: %v is a FamilyError", c.name, c.attrs, err)
		case c.key != "-" && (!errors.As(err, &fe) || fe.Key != c.key || fe.Name != c.name || fe.Err != c.want):
			t.Errorf("%s %v: %#v, want a FamilyError of key %q", c.name, c.attrs, err, c.key)
		default:
			t.Log(err)
		}
	}
	for name, f := range spantest.UnreadableFamilySources() {
		if err := p.RegisterFamily("x", f, rate); !errors.Is(err, counterotel.ErrNilSource) {
			t.Errorf("%s: %v, want ErrNilSource", name, err)
		}
	}
	if err := p.RegisterFamily("x", route, counter.TickRate{}); !errors.Is(err, export.ErrZeroRate) {
		t.Errorf("the zero rate: %v", err)
	}
	if err := counterotel.NewProducer(counterotel.WithMaxSize(1)).RegisterFamily("x", route, rate); !errors.Is(err, counterotel.ErrInvalidOption) {
		t.Errorf("a wrong option: %v", err)
	}

	// What is taken beside the family of d: sets none of its points can
	// have.
	for _, c := range []call{
		reg("d", svc("a")),
		reg("d", svc("a"), attribute.Int("route", 42)),
		reg("d", svc("z"), attribute.String("route", "/x")),
		reg("d", svc("a"), attribute.String("route", "/x"), attribute.String("zone", "y")),
		reg("d", svc("a"), attribute.Bool("otel.metric.overflow", false)),
		fam("d", newFamily(t, 0, "route"), svc("b")),
		fam("d", newFamily(t, 0, "method"), svc("c")),
		fam("d", newFamily(t, 0, "service"), attribute.Int("route", 43)),
		fam("d", newFamily(t, 0, "route"), svc("a"), attribute.String("zone", "z")),
		fam("e", newFamily(t, 0, "route"), attribute.String("zone", "z")),
		fam("e", newFamily(t, 0, "method")),
	} {
		if err := register(c); err != nil {
			t.Errorf("%s %v: %v", c.name, c.attrs, err)
		}
	}
	route.With("/x").Record(5)
	sms, err := p.Produce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// d: the family's series, five registrations, three families' none
	// yet; e: the registration.
	for name, want := range map[string]int{"d": 6, "e": 1, "x": 0} {
		n := 0
		for _, m := range sms[0].Metrics {
			if m.Name == name {
				n = len(m.Data.(metricdata.ExponentialHistogram[float64]).DataPoints)
			}
		}
		if n != want {
			t.Errorf("%s has %d points, want %d", name, n, want)
		}
	}
}

// TestFamilyConcurrent records into a family's series, and past its limit,
// from several goroutines while others call Produce, with delta
// temporality, and register another family meanwhile: with one last
// Produce once the writers are done, each series' points hold each span
// recorded into it exactly once, and follow one another in time without
// a gap or an overlap.
func TestFamilyConcurrent(t *testing.T) {
	const writers, producers, spansEach, produces, sets = 4, 3, 20_000, 30, 12
	p := counterotel.NewProducer(counterotel.WithTemporalitySelector(metric.DeltaTemporalitySelector))
	f := newFamily(t, 8, "set") // 7 of their own, the 5 others in the overflow
	if err := p.RegisterFamily("busy", f, rate, attribute.String("service", "api")); err != nil {
		t.Fatal(err)
	}
	type key = string // a set of attributes, encoded
	keyOf := func(s attribute.Set) key { return s.Encoded(attribute.DefaultEncoder()) }
	var (
		mu     sync.Mutex
		points = map[key][]metricdata.ExponentialHistogramDataPoint[float64]{}
		neg    = map[key]int64{}
	)
	take := func(sms []metricdata.ScopeMetrics) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range sms[0].Metrics {
			switch d := m.Data.(type) {
			case metricdata.ExponentialHistogram[float64]:
				if m.Name == "busy" {
					for _, dp := range d.DataPoints {
						points[keyOf(dp.Attributes)] = append(points[keyOf(dp.Attributes)], dp)
					}
				}
			case metricdata.Sum[int64]:
				if m.Name == "busy.negative" {
					for _, dp := range d.DataPoints {
						neg[keyOf(dp.Attributes)] += dp.Value
					}
				}
			}
		}
	}
	// span is the i-th span of writer w into set s.
	span := func(w, s, i int) counter.Tickdelta {
		d := counter.Tickdelta(1 + (w*spansEach+i*7+s)%100_000)
		if i%1000 == 0 {
			d = -d
		}
		return d
	}
	var writing, producing sync.WaitGroup
	for w := range writers {
		writing.Go(func() {
			recs := map[int]*counter.Recorder{}
			defer func() {
				for _, r := range recs {
					r.Close()
				}
			}()
			for i := range spansEach {
				s := (w + i) % sets
				h := f.With(strconv.Itoa(s))
				if i%2 == 0 {
					h.Record(span(w, s, i))
					continue
				}
				r := recs[s]
				if r == nil {
					r = h.Recorder()
					recs[s] = r
				}
				r.Record(span(w, s, i))
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
					if err := p.RegisterFamily("late", newFamily(t, 0, "k"), rate, attribute.Int("by", i)); err != nil {
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

	// What each point should hold: the series of its own in the order the
	// writers made them, which is not known; so by attributes.
	type want struct {
		count    uint64
		sum, neg int64
	}
	wants := map[key]*want{}
	made := map[string]bool{}
	f.Interval(func(values []string, _ *counter.Snapshot) {
		if values != nil {
			made[values[0]] = true
		}
	})
	if len(made) != 7 {
		t.Fatalf("the family has %d series of their own, want 7", len(made))
	}
	for w := range writers {
		for i := range spansEach {
			s := (w + i) % sets
			attrs := attribute.NewSet(attribute.String("service", "api"), overflowAttr)
			if made[strconv.Itoa(s)] {
				attrs = attribute.NewSet(attribute.String("service", "api"), attribute.String("set", strconv.Itoa(s)))
			}
			wt := wants[keyOf(attrs)]
			if wt == nil {
				wt = new(want)
				wants[keyOf(attrs)] = wt
			}
			if d := span(w, s, i); d < 0 {
				wt.neg++
			} else {
				wt.count++
				wt.sum += int64(d)
			}
		}
	}
	if len(points) != len(wants) {
		t.Errorf("%d points' sets of attributes, want %d", len(points), len(wants))
	}
	for k, wt := range wants {
		dps := points[k]
		// Produce calls take turns, so their points' times order them.
		slices.SortFunc(dps, func(a, b metricdata.ExponentialHistogramDataPoint[float64]) int { return a.Time.Compare(b.Time) })
		var count uint64
		var total float64
		for i, dp := range dps {
			count += dp.Count
			total += dp.Sum
			if i > 0 && !dp.StartTime.Equal(dps[i-1].Time) {
				t.Errorf("{%s}: point %d starts at %v, the one before ended at %v", k, i, dp.StartTime, dps[i-1].Time)
			}
		}
		name := k
		if count != wt.count || neg[k] != wt.neg {
			t.Errorf("{%s}: the points hold %d spans and %d negative, want %d and %d", name, count, neg[k], wt.count, wt.neg)
		}
		if w := float64(wt.sum) / hz; total < w*(1-1e-12) || total > w*(1+1e-12) {
			t.Errorf("{%s}: the points' sums add up to %g s, want %g s", name, total, w)
		}
	}
}

// TestFamilyForget collects, through a ManualReader, a Family that forgets
// a series idle for one Interval, over five collections, in each
// temporality. A series that records nothing in a Produce's Interval has
// a point in that Produce and in none after, its sums with it; a new set
// takes the place under the limit that it freed, not the overflow
// series'. Where its values come back, their point is a new one: its
// counts from zero and its StartTime the collection before, which no
// point of it had reached. A series that records before each collection
// keeps its start, RegisterFamily's time, and its counts.
func TestFamilyForget(t *testing.T) {
	for _, tm := range temporalities {
		t.Run(tm.name, func(t *testing.T) {
			hs := newHarness(t, tm.sel)
			f := newFamily(t, 3, "route") // two series and the overflow
			if err := f.ForgetIdle(1); err != nil {
				t.Fatal(err)
			}
			before := time.Now()
			if err := hs.p.RegisterFamily("r", f, rate); err != nil {
				t.Fatal(err)
			}
			after := time.Now()
			record := func(route string, n int) {
				for i := range n {
					f.With(route).Record(counter.Tickdelta(1000 * (i + 1)))
				}
			}
			// A want is a point's cumulative count, its Interval's, its
			// negative spans of all time, and the collection whose time
			// it starts at for cumulative temporality (-1: RegisterFamily).
			type want struct {
				count, delta uint64
				negative     int64
				since        int
			}
			var times []time.Time // each collection's
			check := func(c int, wants map[string]want) {
				t.Helper()
				rm := hs.collect(t)
				dps := histogram(t, rm, "r").DataPoints
				neg := map[string]int64{}
				for _, dp := range sumPoints(t, rm, "r.negative") {
					v, _ := dp.Attributes.Value("route")
					neg[v.AsString()] = dp.Value
				}
				got := map[string]bool{}
				for _, dp := range dps {
					v, ok := dp.Attributes.Value("route")
					if !ok {
						t.Errorf("collection %d: a point of {%s}", c, dp.Attributes.Encoded(attribute.DefaultEncoder()))
						continue
					}
					route := v.AsString()
					got[route] = true
					w, ok := wants[route]
					if !ok {
						t.Errorf("collection %d: a point of %s; want none", c, route)
						continue
					}
					// The start: RegisterFamily's, between before and
					// after, or a collection's.
					count, negative, since := w.count, w.negative, w.since
					if tm.want == metricdata.DeltaTemporality {
						count, since = w.delta, c-1
						if c > 0 {
							negative = 0 // a delta sum counts its Produce's
						}
					}
					if dp.Count != count {
						t.Errorf("collection %d: %s holds %d spans; want %d", c, route, dp.Count, count)
					}
					if since < 0 && (dp.StartTime.Before(before) || dp.StartTime.After(after)) ||
						since >= 0 && !dp.StartTime.Equal(times[since]) {
						t.Errorf("collection %d: %s starts at %v; want the start of collection %d (-1: RegisterFamily's)", c, route, dp.StartTime, since)
					}
					if neg[route] != negative {
						t.Errorf("collection %d: %s has %d negative spans; want %d", c, route, neg[route], negative)
					}
				}
				for route := range wants {
					if !got[route] {
						t.Errorf("collection %d: no point of %s", c, route)
					}
				}
				times = append(times, dps[0].Time)
			}

			record("/a", 2)
			record("/b", 3)
			f.With("/b").Record(-1)
			check(0, map[string]want{"/a": {2, 2, 0, -1}, "/b": {3, 3, 1, -1}})
			record("/a", 1)
			check(1, map[string]want{"/a": {3, 1, 0, -1}, "/b": {3, 0, 1, -1}}) // /b idle: forgotten after
			record("/a", 1)
			record("/c", 1) // /b's place
			check(2, map[string]want{"/a": {4, 1, 0, -1}, "/c": {1, 1, 0, 1}})
			record("/a", 1)
			check(3, map[string]want{"/a": {5, 1, 0, -1}, "/c": {1, 0, 0, 1}}) // /c idle: forgotten after
			record("/a", 1)
			record("/b", 1) // /b back, in /c's place: a new point
			check(4, map[string]want{"/a": {6, 1, 0, -1}, "/b": {1, 1, 0, 3}})
		})
	}
}
