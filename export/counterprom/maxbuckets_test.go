package counterprom_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterprom"
	"github.com/tickstamp/counter/internal/spantest"
	"pgregory.net/rapid"
)

// schemaOf returns the schema a bucket factor above 1 picks, by its
// definition: the least s from −4 with 2^(2^−s) ≤ factor, at most 8.
func schemaOf(factor float64) int32 {
	for s := int32(-4); s <= 8; s++ {
		if math.Exp2(math.Exp2(-float64(s))) <= factor {
			return s
		}
	}
	return 8
}

// factorOf returns a bucket factor that picks the schema s, in
// client_golang as in counterprom: a hair above 2^(2^−s), so that the
// logarithms that pick a schema do not round it to the next.
func factorOf(s int32) float64 { return math.Exp2(math.Exp2(-float64(s))) * (1 + 1e-9) }

// clientGolang returns client_golang's own native histogram of the values
// at which a Collector counts the spans of the Intervals taken (values) at
// the rate r, with the factor and the most buckets given, observed in the
// order shuffle leaves them, or in the order of the Intervals where it is
// nil.
func clientGolang(t rapid.TB, taken []*counter.Snapshot, r counter.TickRate, factor float64, most uint32, shuffle *rand.Rand) *dto.Histogram {
	t.Helper()
	h := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "reference_seconds", Help: "client_golang's own.",
		NativeHistogramBucketFactor: factor, NativeHistogramMaxBucketNumber: most,
	})
	var seconds []float64
	for v, n := range values(taken) {
		for range n {
			seconds = append(seconds, export.Seconds(v, r))
		}
	}
	if shuffle != nil {
		shuffle.Shuffle(len(seconds), func(i, j int) { seconds[i], seconds[j] = seconds[j], seconds[i] })
	}
	for _, x := range seconds {
		h.Observe(x)
	}
	var m dto.Metric
	if err := h.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetHistogram()
}

// largestThatFits returns the largest schema from `from` down to −4 at which
// client_golang's unbounded native histogram of the Intervals taken holds
// spans in at most `most` buckets, or −4 where none does, and that
// histogram; `from` where most is 0.
func largestThatFits(t rapid.TB, taken []*counter.Snapshot, r counter.TickRate, from int32, most uint32) (int32, *dto.Histogram) {
	t.Helper()
	for schema := from; ; schema-- {
		h := clientGolang(t, taken, r, factorOf(schema), 0, nil)
		if h.GetSchema() != schema {
			t.Fatalf("client_golang picked schema %d for the factor %v, not %d", h.GetSchema(), factorOf(schema), schema)
		}
		if most == 0 || len(nativeCounts(t, h)) <= int(most) || schema == -4 {
			return schema, h
		}
	}
}

// sameNative reports, as an error, where two native histograms differ:
// their schema, zero bucket, or any span or delta of their positive buckets.
func sameNative(got, want *dto.Histogram) error {
	if got.GetSchema() != want.GetSchema() || got.GetZeroCount() != want.GetZeroCount() {
		return fmt.Errorf("schema %d, zero bucket %d; want %d, %d", got.GetSchema(), got.GetZeroCount(), want.GetSchema(), want.GetZeroCount())
	}
	gs, ws := got.GetPositiveSpan(), want.GetPositiveSpan()
	if len(ws) == 0 && len(gs) == 1 && gs[0].GetLength() == 0 {
		gs = nil // a span of nothing, which marks a histogram native
	}
	if len(gs) != len(ws) {
		return fmt.Errorf("%d spans; want %d", len(gs), len(ws))
	}
	for i := range gs {
		if gs[i].GetOffset() != ws[i].GetOffset() || gs[i].GetLength() != ws[i].GetLength() {
			return fmt.Errorf("span %d: %d+%d; want %d+%d", i, gs[i].GetOffset(), gs[i].GetLength(), ws[i].GetOffset(), ws[i].GetLength())
		}
	}
	gd, wd := got.GetPositiveDelta(), want.GetPositiveDelta()
	if len(gd) != len(wd) {
		return fmt.Errorf("%d deltas; want %d", len(gd), len(wd))
	}
	for i := range gd {
		if gd[i] != wd[i] {
			return fmt.Errorf("delta %d: %d; want %d", i, gd[i], wd[i])
		}
	}
	return nil
}

// drawSpans draws spans from one of the everyday distributions, the huge
// spans, or a log-uniform spread of a drawn width anywhere in the range of
// a Tickdelta, maybe with the least and the largest spans beside.
func drawSpans(t *rapid.T, label string) []counter.Tickdelta {
	r := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, label+" seed"), 1))
	n := rapid.IntRange(0, 2000).Draw(t, label+" n")
	var spans []counter.Tickdelta
	switch d := rapid.IntRange(0, len(spantest.Distributions)+1).Draw(t, label+" distribution"); d {
	case len(spantest.Distributions):
		spans = spantest.Huge.Spans(r, spantest.Huge.Size(n))
	case len(spantest.Distributions) + 1:
		lo := rapid.Float64Range(0, 62).Draw(t, label+" log2 lo")
		width := rapid.Float64Range(0, 62-lo).Draw(t, label+" doublings")
		spans = spantest.LogUniform(r, n, math.Exp2(lo), math.Exp2(lo+width))
	default:
		spans = spantest.Distributions[d].Spans(r, n)
	}
	if rapid.Bool().Draw(t, label+" extremes") {
		spans = append(spans, 1, math.MaxInt64)
	}
	return spans
}

// TestMaxBucketNumber records random spans in a few rounds, gathering a
// Collector with a random factor and maximum through a Registry after each,
// and checks each histogram against client_golang's own, fed the values at
// which each Interval counts its spans: the native buckets are those of
// client_golang's unbounded histogram at the largest schema from the
// previous scrape's (the factor's, at first) down to −4 at which at most the
// maximum hold spans; more only at −4, and at most five there. The count,
// sum and zero bucket are the Snapshot's, and the quantiles within the
// promise of the spans'. Finally, client_golang's
// Histogram with the same factor and maximum, fed the same values in a
// random order, exports the same buckets wherever it met the maximum (it
// halves its resolution at most once an observation, so it can stop above
// the largest schema that fits, never below).
func TestMaxBucketNumber(t *testing.T) {
	var compared, agreed int
	rapid.Check(t, func(t *rapid.T) {
		hz := rapid.SampledFrom([]uint64{1, 1e6, 1e9, 1 << 31, 2_900_000_001, 1e10, math.MaxUint64}).Draw(t, "hz")
		r, err := counter.NewTickRate(hz)
		if err != nil {
			t.Fatal(err)
		}
		factor := rapid.OneOf(
			rapid.SampledFrom([]float64{1.0001, 1.003, 1.01, 1.05, 1.1, 1.5, 2, 16, 65536}),
			rapid.Float64Range(1.0001, 1e5),
		).Draw(t, "factor")
		most := rapid.OneOf(rapid.Uint32Range(0, 8), rapid.Uint32Range(1, 300), rapid.Uint32Range(1, 3000)).Draw(t, "max")

		f, tap := newFixture()
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(counterprom.New(tap, r, counterprom.Opts{
			Name: "m_seconds", NativeHistogramBucketFactor: factor, NativeHistogramMaxBucketNumber: most,
		}))
		from := schemaOf(factor)
		var zeros uint64
		var got *dto.Histogram
		for round := range rapid.IntRange(1, 3).Draw(t, "rounds") {
			spans := drawSpans(t, fmt.Sprint("round ", round))
			for _, d := range spans {
				if d == 0 {
					zeros++
				}
			}
			f.record(spans)
			f.sync()
			got = gather(t, reg, "m_seconds").GetMetric()[0].GetHistogram()

			if got.GetSampleCount() != f.want.Count() || got.GetZeroCount() != zeros {
				t.Fatalf("round %d: count %d, zero bucket %d; want %d, %d", round, got.GetSampleCount(), got.GetZeroCount(), f.want.Count(), zeros)
			}
			// A sum past the largest Tickdelta is the Mean's multiple,
			// which SumSeconds states; the exact one is checked elsewhere.
			if sum := f.want.Sum(); sum < math.MaxInt64 {
				if want := float64(sum) / float64(hz); math.Abs(got.GetSampleSum()-want) > 1e-12*want {
					t.Fatalf("round %d: sum %v s; want %v s", round, got.GetSampleSum(), want)
				}
			}
			schema, want := largestThatFits(t, f.taken, r, from, most)
			if err := sameNative(got, want); err != nil {
				t.Fatalf("round %d: %v, from schema %d at most %d buckets", round, err, from, most)
			}
			checkQuantiles(t, got, f.sorted(), r)
			if n := len(nativeCounts(t, got)); most > 0 && n > int(most) && (schema != -4 || n > 5) {
				t.Fatalf("round %d: %d buckets hold spans at schema %d; want at most %d", round, n, schema, most)
			}
			from = schema
		}

		shuffle := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "order"), 2))
		cg := clientGolang(t, f.taken, r, factor, most, shuffle)
		if cg.GetSchema() < got.GetSchema() {
			t.Fatalf("client_golang's schema %d is below ours, %d", cg.GetSchema(), got.GetSchema())
		}
		compared++
		if most == 0 || len(nativeCounts(t, cg)) <= int(most) || cg.GetSchema() == -4 {
			agreed++
			if err := sameNative(got, cg); err != nil {
				t.Fatalf("against client_golang's with the same options: %v", err)
			}
		}
	})
	// The comparison with client_golang's own bound means something only
	// where that one met its maximum.
	if agreed < compared/2 {
		t.Errorf("client_golang met its maximum in %d of %d cases; want half", agreed, compared)
	}
	t.Logf("the same buckets as client_golang's in %d of %d cases", agreed, compared)
}

// TestMaxBucketNumberOverHTTP serves a Collector and client_golang's own
// Histogram, with the same factor and maximum and fed the same values, from
// one Registry on 127.0.0.1, and compares their native buckets as a
// protobuf scrape brings them: spread's spans, over nearly 22 doublings,
// fill about 2,800 buckets at schema 7 and 174 at schema 3, the largest
// schema whose buckets number at most 200.
func TestMaxBucketNumberOverHTTP(t *testing.T) {
	const factor, most = 1.01, 200
	f, tap := newFixture()
	reg := prometheus.NewRegistry()
	reg.MustRegister(counterprom.New(tap, rate(t), counterprom.Opts{
		Name: "req_seconds", Buckets: bounds, NativeHistogramBucketFactor: factor, NativeHistogramMaxBucketNumber: most,
	}))
	theirs := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "theirs_seconds", Help: "client_golang's own.", NativeHistogramBucketFactor: factor, NativeHistogramMaxBucketNumber: most,
	})
	reg.MustRegister(theirs)
	url := serve(t, reg)
	spans := spread(7, 100_000)
	f.record(spans)
	f.sync()
	for v, n := range values(f.taken) {
		for range n {
			theirs.Observe(export.Seconds(v, rate(t)))
		}
	}

	families := scrape(t, url, expfmt.NewFormat(expfmt.TypeProtoDelim))
	ours, cg := families["req_seconds"], families["theirs_seconds"]
	if ours == nil || cg == nil {
		t.Fatalf("families %v", families)
	}
	got, want := ours.GetMetric()[0].GetHistogram(), cg.GetMetric()[0].GetHistogram()
	checkClassic(t, got, &f.want, f.taken)
	if got.GetSchema() != 3 {
		t.Errorf("schema %d; want 3", got.GetSchema())
	}
	if n := len(nativeCounts(t, got)); n > most {
		t.Errorf("%d buckets hold spans; want at most %d", n, most)
	}
	if err := sameNative(got, want); err != nil {
		t.Error(err)
	}
	if got.GetSampleCount() != want.GetSampleCount() {
		t.Errorf("count %d; client_golang's %d", got.GetSampleCount(), want.GetSampleCount())
	}
	// client_golang sums the values at which the spans are counted, each
	// within QuantileError of its span.
	if g, w := got.GetSampleSum(), want.GetSampleSum(); math.Abs(g-w) > counter.QuantileError*g {
		t.Errorf("sum %v s; client_golang's %v s", g, w)
	}
}

// TestMaxBucketNumberEdges checks the maximum where it cannot be met, where
// it is as large as can be, and where there are no native buckets for it to
// bound, and that none of these is an error.
func TestMaxBucketNumberEdges(t *testing.T) {
	one, err := counter.NewTickRate(1)
	if err != nil {
		t.Fatal(err)
	}
	// At 1 Hz, spans of 1 tick, 1.5·2ᵏ ticks for k from 1 to 62, and
	// 2⁶³−1 ticks are 64 buckets from schema 7 to 0, 9 at schema −3 and 5
	// at −4, whose buckets are 16 doublings wide: 1 s is the top of bucket
	// 0, 1.5·2ᵏ s is in bucket ⌈(k+0.58)/16⌉ and 2⁶³ s in bucket 4.
	wide := []counter.Tickdelta{1, math.MaxInt64}
	for k := 1; k <= 62; k++ {
		wide = append(wide, 3<<(k-1))
	}
	for _, tc := range []struct {
		name   string
		opts   counterprom.Opts
		schema int32 // want; math.MinInt32 for no native buckets
		n      int   // the buckets that hold spans
	}{
		{"unmet", counterprom.Opts{NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: 1}, -4, 5},
		{"met at -4", counterprom.Opts{NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: 5}, -4, 5},
		{"9 at -3", counterprom.Opts{NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: 8}, -4, 5},
		{"met at -3", counterprom.Opts{NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: 9}, -3, 9},
		{"met at the factor's", counterprom.Opts{NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: 64}, 7, 64},
		{"no bound", counterprom.Opts{NativeHistogramBucketFactor: 1.01}, 7, 64},
		{"largest", counterprom.Opts{NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: math.MaxUint32}, 7, 64},
		{"no native buckets", counterprom.Opts{NativeHistogramMaxBucketNumber: 1}, math.MinInt32, 0},
		{"factor 1", counterprom.Opts{NativeHistogramBucketFactor: 1, NativeHistogramMaxBucketNumber: 1}, math.MinInt32, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := counter.NewHistogram()
			for _, d := range wide {
				h.Record(d)
			}
			tc.opts.Name = "edge_seconds"
			reg := prometheus.NewPedanticRegistry()
			if err := reg.Register(counterprom.New(h, one, tc.opts)); err != nil {
				t.Fatal(err)
			}
			got := gather(t, reg, "edge_seconds").GetMetric()[0].GetHistogram()
			if tc.schema == math.MinInt32 {
				if got.Schema != nil || len(got.GetPositiveSpan()) > 0 || len(got.GetBucket()) != len(prometheus.DefBuckets) {
					t.Errorf("schema %v, %d spans, %d classic buckets; want classic buckets only", got.Schema, len(got.GetPositiveSpan()), len(got.GetBucket()))
				}
				return
			}
			if got.GetSchema() != tc.schema || len(nativeCounts(t, got)) != tc.n || got.GetSampleCount() != uint64(len(wide)) {
				t.Errorf("schema %d, %d buckets of %d spans; want %d, %d of %d", got.GetSchema(), len(nativeCounts(t, got)), got.GetSampleCount(), tc.schema, tc.n, len(wide))
			}
		})
	}
}
