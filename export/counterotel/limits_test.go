package counterotel_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/internal/spantest"
)

// randomSpans returns n spans of a shape r picks: log-uniform over a
// spread of any width from 1 tick to 2⁶², with or without spans of 0; a
// narrow peak; one value; a few values far apart; or only spans of 0.
func randomSpans(r *rand.Rand, n int) []counter.Tickdelta {
	spans := make([]counter.Tickdelta, n)
	switch r.IntN(6) {
	case 0, 1:
		lo := math.Exp2(62 * r.Float64() * r.Float64())
		hi := lo * math.Exp2((62-math.Log2(lo))*r.Float64())
		copy(spans, spantest.LogUniform(r, n, lo, hi))
		if r.IntN(2) == 0 {
			for i := range spans {
				if r.IntN(5) == 0 {
					spans[i] = 0
				}
			}
		}
	case 2:
		c := math.Exp2(1 + 40*r.Float64())
		for i := range spans {
			spans[i] = counter.Tickdelta(max(0, c*(1+0.01*r.NormFloat64())))
		}
	case 3:
		v := counter.Tickdelta(r.Int64N(1 << 40))
		for i := range spans {
			spans[i] = v
		}
	case 4:
		vs := []counter.Tickdelta{1, 255, 256, 1 << 20, 1<<20 + 1, 1 << 40, math.MaxInt64 / 4}
		for i := range spans {
			spans[i] = vs[r.IntN(len(vs))]
		}
	case 5: // all 0
	}
	return spans
}

// randomLimits returns a maximum size and scale, from the least each takes
// to more than any point needs.
func randomLimits(r *rand.Rand) limits {
	sizes := []int32{2, 3, 4, 7, 16, 100, 160, 1000, math.MaxInt32}
	return limits{sizes[r.IntN(len(sizes))], int32(r.IntN(19)) - 10}
}

// TestLimits records batches of random spans into a Histogram registered
// on a Producer with random limits, on a real ManualReader, and checks
// each collection's point with checkPoint: at most the maximum size of
// buckets, at the finest scale up to the maximum at which they fit (so
// that one scale finer would not), every span in the bucket of its value
// of export.Values in its Interval's Snapshot, and count, sum, zero count,
// min and max exact. Later batches spread differently, so that a
// cumulative point's first and last buckets and its scale change. Half
// the cases register the Histogram through a Tap of a Feed, a Source
// other than a Histogram.
func TestLimits(t *testing.T) {
	for c := range 300 {
		r := rand.New(rand.NewPCG(uint64(c), 32))
		lim := randomLimits(r)
		tm := temporalities[r.IntN(len(temporalities))]
		t.Run(fmt.Sprintf("%d/%s/size%d/scale%d", c, tm.name, lim.size, lim.scale), func(t *testing.T) {
			hs := newHarness(t, tm.sel, lim.options()...)
			h := counter.NewHistogram()
			var src export.Source = h
			if c%2 == 1 {
				feed, err := export.NewFeed(h)
				if err != nil {
					t.Fatal(err)
				}
				src = feed.Tap()
			}
			if err := hs.p.Register("limited", src, rate); err != nil {
				t.Fatal(err)
			}
			var all [][]counter.Tickdelta // a batch an Interval
			for range 1 + r.IntN(4) {
				sizes := []int{0, 1, 2, 3, 50, 3000}
				batch := randomSpans(r, sizes[r.IntN(len(sizes))])
				spantest.Record(h, batch)
				all = append(all, batch)
				want := all
				if tm.want == metricdata.DeltaTemporality {
					want = all[len(all)-1:]
				}
				dp := onePoint(t, hs.collect(t), "limited", tm.want)
				checkPoint(t, fromSDK(dp), want, lim)
			}
		})
	}
}

// TestAgainstSDK feeds the SDK's own exponential histogram, with the same
// maximum size and scale and temporality, each value of export.Values of
// each Interval a Producer takes, as many times as it stands for spans,
// and checks that both points have the same scale, buckets, zero count,
// count, min and max, collection after collection.
func TestAgainstSDK(t *testing.T) {
	ctx := context.Background()
	for c := range 60 {
		r := rand.New(rand.NewPCG(uint64(c), 33))
		lim := randomLimits(r)
		tm := temporalities[c%len(temporalities)]
		t.Run(fmt.Sprintf("%d/%s/size%d/scale%d", c, tm.name, lim.size, lim.scale), func(t *testing.T) {
			p := counterotel.NewProducer(append(lim.options(), counterotel.WithTemporalitySelector(tm.sel))...)
			reader := metric.NewManualReader(metric.WithProducer(p), metric.WithTemporalitySelector(tm.sel))
			mp := metric.NewMeterProvider(metric.WithReader(reader), metric.WithView(metric.NewView(
				metric.Instrument{Name: "sdk"},
				metric.Stream{Aggregation: metric.AggregationBase2ExponentialHistogram{MaxSize: lim.size, MaxScale: lim.scale}},
			)))
			defer func() { _ = mp.Shutdown(ctx) }()
			sdk, err := mp.Meter("sdk").Float64Histogram("sdk")
			if err != nil {
				t.Fatal(err)
			}
			h := counter.NewHistogram()
			if err := p.Register("ours", h, rate); err != nil {
				t.Fatal(err)
			}
			for range 3 {
				batch := randomSpans(r, 1+r.IntN(3000))
				spantest.Record(h, batch)
				for v, n := range export.Values(spantest.SnapshotOf(batch)) {
					for range n {
						sdk.Record(ctx, export.Seconds(v, rate))
					}
				}
				rm := new(metricdata.ResourceMetrics)
				if err := reader.Collect(ctx, rm); err != nil {
					t.Fatal(err)
				}
				ours, theirs := fromSDK(onePoint(t, rm, "ours", tm.want)), fromSDK(sdkPoint(t, rm))
				if ours.scale != theirs.scale || ours.offset != theirs.offset || !slices.Equal(ours.counts, theirs.counts) {
					t.Errorf("%d spans: scale %d, buckets from %d: %v; the SDK's scale %d, from %d: %v",
						len(batch), ours.scale, ours.offset, ours.counts, theirs.scale, theirs.offset, theirs.counts)
				}
				if ours.count != theirs.count || ours.zeroCount != theirs.zeroCount || ours.min != theirs.min || ours.max != theirs.max {
					t.Errorf("count %d, zero count %d, min %g, max %g; the SDK's %d, %d, %g, %g",
						ours.count, ours.zeroCount, ours.min, ours.max, theirs.count, theirs.zeroCount, theirs.min, theirs.max)
				}
			}
		})
	}
}

// sdkPoint returns the point of the SDK's histogram "sdk" in rm.
func sdkPoint(t *testing.T, rm *metricdata.ResourceMetrics) metricdata.ExponentialHistogramDataPoint[float64] {
	t.Helper()
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if eh, ok := m.Data.(metricdata.ExponentialHistogram[float64]); ok && m.Name == "sdk" && len(eh.DataPoints) == 1 {
				return eh.DataPoints[0]
			}
		}
	}
	t.Fatal("no point of the SDK's histogram")
	return metricdata.ExponentialHistogramDataPoint[float64]{}
}

// TestDefaultLimits checks the defaults' promises in the package doc: 160
// buckets cover 1.25 doublings at scale 7 and 10 at scale 4, as from a
// microsecond to a millisecond; a narrow peak keeps scale 7; a point with
// no positive span has scale 7.
func TestDefaultLimits(t *testing.T) {
	if counterotel.DefaultMaxSize != 160 || counterotel.DefaultMaxScale != 7 {
		t.Errorf("defaults %d buckets from scale %d, want 160 from 7", counterotel.DefaultMaxSize, counterotel.DefaultMaxScale)
	}
	const x = 100_000 // ticks
	for _, c := range []struct {
		name  string
		spans []counter.Tickdelta
		want  int32
	}{
		{"1.2 doublings", []counter.Tickdelta{x, x + 1, counter.Tickdelta(x * math.Exp2(1.2))}, 7},
		{"1.3 doublings", []counter.Tickdelta{x, x + 1, counter.Tickdelta(x * math.Exp2(1.3))}, 6},
		{"narrow", spantest.Distributions[1].Spans(rand.New(rand.NewPCG(1, 1)), 10_000), 7},
		{"microsecond to millisecond", append(spantest.LogUniform(rand.New(rand.NewPCG(2, 2)), 10_000, hz/1e6, hz/1e3), hz/1e6, hz/1e3), 4},
		{"zeros", []counter.Tickdelta{0, 0, 0}, 7},
		{"none", nil, 7},
	} {
		t.Run(c.name, func(t *testing.T) {
			hs := newHarness(t, nil)
			h := counter.NewHistogram()
			if err := hs.p.Register("d", h, rate); err != nil {
				t.Fatal(err)
			}
			spantest.Record(h, c.spans)
			dp := onePoint(t, hs.collect(t), "d", metricdata.CumulativeTemporality)
			if dp.Scale != c.want {
				t.Errorf("scale %d, want %d", dp.Scale, c.want)
			}
			checkPoint(t, fromSDK(dp), [][]counter.Tickdelta{c.spans}, defaults)
		})
	}
}

// TestOptionErrors checks that a wrong option makes every Register and
// Produce of the Producer, and so the reader's Collect, fail with an error
// wrapping ErrInvalidOption that names the first wrong option; and that
// the ends of each option's range are taken.
func TestOptionErrors(t *testing.T) {
	for _, c := range []struct {
		opts []counterotel.Option
		want string // in the message; "" where the options are right
	}{
		{[]counterotel.Option{counterotel.WithMaxSize(1)}, "WithMaxSize(1)"},
		{[]counterotel.Option{counterotel.WithMaxSize(0)}, "WithMaxSize(0)"},
		{[]counterotel.Option{counterotel.WithMaxSize(-5)}, "WithMaxSize(-5)"},
		{[]counterotel.Option{counterotel.WithMaxSize(math.MinInt32)}, "WithMaxSize(-2147483648)"},
		{[]counterotel.Option{counterotel.WithMaxScale(-11)}, "WithMaxScale(-11)"},
		{[]counterotel.Option{counterotel.WithMaxScale(9)}, "WithMaxScale(9)"},
		{[]counterotel.Option{counterotel.WithMaxScale(20)}, "WithMaxScale(20)"},
		{[]counterotel.Option{counterotel.WithMaxScale(math.MaxInt32)}, "WithMaxScale(2147483647)"},
		{[]counterotel.Option{counterotel.WithMaxScale(9), counterotel.WithMaxSize(0), counterotel.WithMaxScale(3)}, "WithMaxScale(9)"},
		{[]counterotel.Option{counterotel.WithAnchor(new(counter.Anchor))}, "WithAnchor of the zero Anchor"},
		{[]counterotel.Option{counterotel.WithMaxSize(2), counterotel.WithMaxScale(-10)}, ""},
		{[]counterotel.Option{counterotel.WithAnchor(nil)}, ""},
		{[]counterotel.Option{counterotel.WithMaxSize(math.MaxInt32), counterotel.WithMaxScale(8)}, ""},
	} {
		p := counterotel.NewProducer(c.opts...)
		reader := metric.NewManualReader(metric.WithProducer(p))
		mp := metric.NewMeterProvider(metric.WithReader(reader))
		h := counter.NewHistogram()
		h.Record(1000)
		regErr := p.Register("x", h, rate)
		_, prodErr := p.Produce(context.Background())
		collErr := reader.Collect(context.Background(), new(metricdata.ResourceMetrics))
		_ = mp.Shutdown(context.Background())
		if c.want == "" {
			if regErr != nil || prodErr != nil || collErr != nil {
				t.Errorf("%s: Register %v, Produce %v, Collect %v; want no error", c.want, regErr, prodErr, collErr)
			}
			continue
		}
		for name, err := range map[string]error{"Register": regErr, "Produce": prodErr, "Collect": collErr} {
			if !errors.Is(err, counterotel.ErrInvalidOption) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %s returned %v; want ErrInvalidOption naming it", c.want, name, err)
			}
		}
		t.Log(regErr)
	}
}

// TestTemporalitySwitch checks points whose selector changes its answer
// between collections: a cumulative point after delta ones still holds
// every span since Register, though the delta ones took them.
func TestTemporalitySwitch(t *testing.T) {
	delta := false
	sel := func(metric.InstrumentKind) metricdata.Temporality {
		if delta {
			return metricdata.DeltaTemporality
		}
		return metricdata.CumulativeTemporality
	}
	lim := limits{20, 7}
	hs := newHarness(t, sel, lim.options()...)
	h := counter.NewHistogram()
	if err := hs.p.Register("switch", h, rate); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 4))
	var all [][]counter.Tickdelta // a batch an Interval
	for i, d := range []bool{false, true, true, false, false, true, false} {
		delta = d
		batch := randomSpans(r, 500)
		spantest.Record(h, batch)
		all = append(all, batch)
		want, tm := all, metricdata.CumulativeTemporality
		if d {
			want, tm = all[i:], metricdata.DeltaTemporality
		}
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			checkPoint(t, fromSDK(onePoint(t, hs.collect(t), "switch", tm)), want, lim)
		})
	}
}

// TestProduceKeepsNothing checks that what Produce returned is the
// caller's: a later Produce, of other spans and exemplars, changes none of
// it.
func TestProduceKeepsNothing(t *testing.T) {
	for _, tm := range temporalities {
		t.Run(tm.name, func(t *testing.T) {
			p := counterotel.NewProducer(counterotel.WithTemporalitySelector(tm.sel))
			h := counter.NewHistogram()
			if err := p.Register("kept", h, rate, attribute.Int("a", 1)); err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(5, 5))
			spantest.Record(h, randomSpans(r, 1000))
			h.Record(-1)
			h.RecordExemplar(5000, numbered(1))
			h.RecordExemplar(9, numbered(2))
			first, err := p.Produce(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			before := fmt.Sprintf("%+v", first)
			for range 3 {
				spantest.Record(h, spantest.LogUniform(r, 1000, 1, 1e9))
				h.Record(-1)
				h.RecordExemplar(5001, numbered(3))
				h.RecordExemplar(10, numbered(4))
				if _, err := p.Produce(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if after := fmt.Sprintf("%+v", first); after != before {
				t.Errorf("a later Produce changed the first's result:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// TestPrecisionTable checks the package doc's table of bounds against
// their formula, (1+QuantileError)·2^(2^−s)−1, rounded to four places, and
// its claim that scale 7 is the coarsest under one part in a hundred.
// checkPoint checks the bound itself, at each point's scale.
func TestPrecisionTable(t *testing.T) {
	f, err := os.Open("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := 0
	in := false
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "//"))
		if fields := strings.Fields(line); len(fields) == 2 && fields[0] == "scale" && fields[1] == "bound" {
			in = true
			continue
		}
		fields := strings.Fields(line)
		if !in || len(fields) != 2 {
			if in {
				break
			}
			continue
		}
		s, err1 := strconv.Atoi(fields[0])
		bound, err2 := strconv.ParseFloat(fields[1], 64)
		if err := errors.Join(err1, err2); err != nil {
			t.Fatalf("row %q: %v", line, err)
		}
		if want := math.Round(((1+counter.QuantileError)*base(int32(s))-1)*1e4) / 1e4; bound != want {
			t.Errorf("scale %d: bound %v, want %v", s, bound, want)
		}
		rows++
	}
	if rows < 6 {
		t.Errorf("read %d rows of the table", rows)
	}
	if (1+counter.QuantileError)*base(7)-1 >= 0.01 || (1+counter.QuantileError)*base(6)-1 < 0.01 {
		t.Error("scale 7 is not the coarsest whose bound is under 0.01")
	}
}
