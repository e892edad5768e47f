package counterprom_test

import (
	"errors"
	"io"
	"iter"
	"maps"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterprom"
	"github.com/tickstamp/counter/internal/spantest"
	"pgregory.net/rapid"
)

const hz = 2_000_000_000 // 2 GHz: a tick is 0.5 ns

func rate(t testing.TB) counter.TickRate {
	r, err := counter.NewTickRate(hz)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// spread returns n spans from 30 ticks to 10⁸, log-uniform, some of them 0:
// about 2,000 of a Snapshot's buckets.
func spread(seed uint64, n int) []counter.Tickdelta {
	r := rand.New(rand.NewPCG(seed, 1))
	s := make([]counter.Tickdelta, n)
	for i := range s {
		if r.IntN(100) == 0 {
			continue
		}
		s[i] = counter.Tickdelta(30 * math.Pow(1e8/30, r.Float64()))
	}
	return s
}

// fixture is a Histogram read through a Feed: one Tap for the Collector
// under test, one for the test's own Snapshots of the same spans. A test
// that syncs and then scrapes, recording nothing between, has in taken the
// Snapshot of each of the Collector's Intervals.
type fixture struct {
	h     *counter.Histogram
	mine  *export.Tap
	want  counter.Snapshot    // every span the test has taken from mine
	taken []*counter.Snapshot // each Interval of mine
	spans []counter.Tickdelta // every span recorded
}

func newFixture() (*fixture, *export.Tap) {
	h := counter.NewHistogram()
	f, err := export.NewFeed(h)
	if err != nil {
		panic(err) // a new Histogram has no reader
	}
	return &fixture{h: h, mine: f.Tap()}, f.Tap()
}

func (f *fixture) record(spans []counter.Tickdelta) {
	r := f.h.Recorder()
	defer r.Close()
	for _, d := range spans {
		r.Record(d)
	}
	f.spans = append(f.spans, spans...)
}

// sync brings want up to date with every span recorded, and takes one
// Interval more.
func (f *fixture) sync() {
	s := new(counter.Snapshot)
	f.mine.Interval(s)
	f.want.Merge(s)
	f.taken = append(f.taken, s)
}

// sorted returns every span recorded, in increasing order.
func (f *fixture) sorted() []counter.Tickdelta {
	return slices.Sorted(slices.Values(f.spans))
}

// values returns the values at which a Collector counts the spans of the
// Intervals taken: those of [export.Values] in each.
func values(taken []*counter.Snapshot) iter.Seq2[counter.Tickdelta, uint64] {
	return func(yield func(counter.Tickdelta, uint64) bool) {
		for _, s := range taken {
			for v, n := range export.Values(s) {
				if !yield(v, n) {
					return
				}
			}
		}
	}
}

func gather(t rapid.TB, g prometheus.Gatherer, name string) *dto.MetricFamily {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf
		}
	}
	t.Fatalf("no metric family %s among %d", name, len(mfs))
	return nil
}

var bounds = []float64{1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.05}

// checkClassic compares a classic histogram with the Intervals taken,
// bucket by bucket: the count and sum of want, which they merge into, and
// in each bucket the values of their Values up to its bound.
func checkClassic(t *testing.T, h *dto.Histogram, want *counter.Snapshot, taken []*counter.Snapshot) {
	t.Helper()
	if h.GetSampleCount() != want.Count() {
		t.Errorf("count %d, Snapshot %d", h.GetSampleCount(), want.Count())
	}
	if got, sum := h.GetSampleSum(), float64(want.Sum())/hz; math.Abs(got-sum) > 1e-12*sum {
		t.Errorf("sum %v s, Snapshot %v s", got, sum)
	}
	for i, b := range classicBuckets(t, h, want.Count()) {
		var n uint64
		for v, k := range values(taken) {
			if float64(v)/hz <= bounds[i] {
				n += k
			}
		}
		if b.GetUpperBound() != bounds[i] || b.GetCumulativeCount() != n {
			t.Errorf("bucket ≤%v: %d, want ≤%v: %d", b.GetUpperBound(), b.GetCumulativeCount(), bounds[i], n)
		}
	}
}

// checkClassicWithin checks a classic histogram against the promise, from
// the spans recorded, in increasing order: the count and the sum exact, and
// each bucket of bound b counts every span up to b/(1+QuantileError) and
// none past b/(1−QuantileError).
func checkClassicWithin(t *testing.T, h *dto.Histogram, spans []counter.Tickdelta) {
	t.Helper()
	var sum float64
	for _, d := range spans {
		sum += float64(d)
	}
	if h.GetSampleCount() != uint64(len(spans)) || math.Abs(h.GetSampleSum()-sum/hz) > 1e-9*sum/hz {
		t.Errorf("count %d, sum %v s; want %d, %v s", h.GetSampleCount(), h.GetSampleSum(), len(spans), sum/hz)
	}
	upTo := func(x float64) int { // the spans of at most x seconds
		return sort.Search(len(spans), func(i int) bool { return float64(spans[i])/hz > x })
	}
	for i, b := range classicBuckets(t, h, uint64(len(spans))) {
		lo, hi := upTo(bounds[i]/(1+counter.QuantileError)), upTo(bounds[i]/(1-counter.QuantileError))
		if n := int(b.GetCumulativeCount()); n < lo || n > hi {
			t.Errorf("bucket ≤%v: %d; want from %d to %d", b.GetUpperBound(), n, lo, hi)
		}
	}
}

// classicBuckets returns h's classic buckets but for the +Inf one, which
// the text format writes out and which must hold all n spans; it fails
// where there is not one a bound.
func classicBuckets(t *testing.T, h *dto.Histogram, n uint64) []*dto.Bucket {
	t.Helper()
	buckets := h.GetBucket()
	if k := len(buckets); k > 0 && math.IsInf(buckets[k-1].GetUpperBound(), 1) {
		if buckets[k-1].GetCumulativeCount() != n {
			t.Errorf("the +Inf bucket holds %d of %d", buckets[k-1].GetCumulativeCount(), n)
		}
		buckets = buckets[:k-1]
	}
	if len(buckets) != len(bounds) {
		t.Fatalf("%d buckets, want %d", len(buckets), len(bounds))
	}
	return buckets
}

// nativeCounts decodes a native histogram's positive buckets, by key.
func nativeCounts(t rapid.TB, h *dto.Histogram) map[int]int64 {
	t.Helper()
	out := map[int]int64{}
	key, count, d := 0, int64(0), 0
	for i, sp := range h.GetPositiveSpan() {
		if i == 0 {
			key = int(sp.GetOffset())
		} else {
			key += int(sp.GetOffset())
		}
		for range sp.GetLength() {
			count += h.GetPositiveDelta()[d]
			d++
			if count < 0 {
				t.Fatalf("bucket %d has count %d", key, count)
			}
			if count > 0 {
				out[key] = count
			}
			key++
		}
	}
	if d != len(h.GetPositiveDelta()) {
		t.Fatalf("%d deltas for spans of %d buckets", len(h.GetPositiveDelta()), d)
	}
	return out
}

// checkNative compares a native histogram of schema 7 with the Intervals
// taken: every value of their Values in the bucket whose bounds hold it.
func checkNative(t *testing.T, h *dto.Histogram, taken []*counter.Snapshot) {
	t.Helper()
	if h.GetSchema() != 7 {
		t.Fatalf("schema %d, want 7", h.GetSchema())
	}
	got := nativeCounts(t, h)
	want := map[int]int64{}
	var zero uint64
	for v, n := range values(taken) {
		if v == 0 {
			zero += n
			continue
		}
		// The reference: the key k with 2^((k−1)/128) < x ≤ 2^(k/128).
		x := float64(v) / hz
		k := int(math.Ceil(math.Log2(x) * 128))
		if lo := math.Exp2(float64(k-1) / 128); x <= lo && x > lo*(1-1e-14) {
			k-- // Log2 rounded up across the lower bound
		}
		want[k] += int64(n)
	}
	if h.GetZeroCount() != zero {
		t.Errorf("zero bucket %d, want %d", h.GetZeroCount(), zero)
	}
	if len(got) != len(want) {
		t.Errorf("%d native buckets hold spans, want %d", len(got), len(want))
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("native bucket %d: %d, want %d", k, got[k], n)
		}
	}
}

// checkQuantiles checks a native histogram against the promise, from the
// spans recorded, in increasing order, at the rate r: p50, p90, p99 and
// p99.9 read at either end of the bucket that holds them are within
// (1+QuantileError)·2^(2^−s)−1 of the exact order statistic, at the
// histogram's schema s, or in the zero bucket where it is 0.
func checkQuantiles(t rapid.TB, h *dto.Histogram, spans []counter.Tickdelta, r counter.TickRate) {
	t.Helper()
	if len(spans) == 0 {
		return
	}
	got := nativeCounts(t, h)
	keys := slices.Sorted(maps.Keys(got))
	width := math.Exp2(-float64(h.GetSchema())) // of a bucket, in doublings
	bound := (1+counter.QuantileError)*math.Exp2(width) - 1
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
		rank := uint64(math.Ceil(q * float64(len(spans))))
		exact := export.Seconds(spans[rank-1], r)
		seen := h.GetZeroCount()
		if exact == 0 || seen >= rank {
			if exact != 0 || seen < rank {
				t.Errorf("p%v: the zero bucket holds %d spans, and the %d-th is %v s", q*100, seen, rank, exact)
			}
			continue
		}
		var lo, hi float64 // the bounds of the bucket of that rank
		for _, k := range keys {
			if seen >= rank {
				break
			}
			seen += uint64(got[k])
			lo, hi = math.Exp2(float64(k-1)*width), math.Exp2(float64(k)*width)
		}
		for _, est := range []float64{lo, hi} {
			if math.Abs(est/exact-1) > bound*(1+1e-9) {
				t.Errorf("p%v: the native bucket (%v, %v] is %v past the exact %v s; want within %v", q*100, lo, hi, est/exact-1, exact, bound)
			}
		}
	}
}

// TestRegistry gathers a Collector through a Registry, three times, with
// spans recorded before each, and compares each histogram with every span
// recorded so far: the counts are cumulative, each Interval's spans at its
// Values, within the promise.
func TestRegistry(t *testing.T) {
	f, tap := newFixture()
	c := counterprom.New(tap, rate(t), counterprom.Opts{
		Namespace: "app", Name: "handle_seconds", Help: "How long a request takes.",
		ConstLabels: prometheus.Labels{"route": "/a"},
		Buckets:     bounds, NativeHistogramBucketFactor: 1.01,
	})
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(c); err != nil {
		t.Fatal(err)
	}
	for round := range 3 {
		f.record(spread(uint64(round), 50_000))
		f.sync()
		mf := gather(t, reg, "app_handle_seconds")
		if mf.GetType() != dto.MetricType_HISTOGRAM || len(mf.GetMetric()) != 1 {
			t.Fatalf("%v", mf)
		}
		m := mf.GetMetric()[0]
		if l := m.GetLabel(); len(l) != 1 || l[0].GetName() != "route" || l[0].GetValue() != "/a" {
			t.Errorf("labels %v", l)
		}
		spans := f.sorted()
		checkClassic(t, m.GetHistogram(), &f.want, f.taken)
		checkClassicWithin(t, m.GetHistogram(), spans)
		checkNative(t, m.GetHistogram(), f.taken)
		checkQuantiles(t, m.GetHistogram(), spans, rate(t))
		if m.GetHistogram().GetCreatedTimestamp() == nil {
			t.Error("no created timestamp")
		}
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

// TestApart checks that negative and migrated spans are counters of their
// own, cumulative, and in no bucket.
func TestApart(t *testing.T) {
	h := counter.NewHistogram()
	c := counterprom.New(h, rate(t), counterprom.Opts{Name: "op_seconds", Buckets: bounds})
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	r := h.Recorder()
	r.Record(-5)
	r.RecordCPU(100, 0, 1)
	r.RecordCPU(200, 2, 2)
	h.Record(-1)
	if n := testutil.CollectAndCount(c); n != 3 {
		t.Errorf("%d metrics, want 3", n)
	}
	r.RecordCPU(-7, 3, 1) // a migrated span, whatever its sign
	r.Close()
	want := `
# HELP op_seconds_migrated_spans_total Spans whose readings came from two CPUs, counted apart from op_seconds.
# TYPE op_seconds_migrated_spans_total counter
op_seconds_migrated_spans_total 2
# HELP op_seconds_negative_spans_total Spans whose readings crossed, counted apart from op_seconds.
# TYPE op_seconds_negative_spans_total counter
op_seconds_negative_spans_total 2
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"op_seconds_negative_spans_total", "op_seconds_migrated_spans_total"); err != nil {
		t.Error(err)
	}
	mf := gather(t, reg, "op_seconds")
	if hist := mf.GetMetric()[0].GetHistogram(); hist.GetSampleCount() != 1 || hist.GetSampleSum() != 200.0/hz {
		t.Errorf("count %d, sum %v: want the one span of 200 ticks", hist.GetSampleCount(), hist.GetSampleSum())
	}
}

// TestNothingRecorded scrapes a Collector of an empty Histogram.
func TestNothingRecorded(t *testing.T) {
	for _, factor := range []float64{0, 1.1} {
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(counterprom.New(counter.NewHistogram(), rate(t), counterprom.Opts{Name: "idle_seconds", Buckets: bounds, NativeHistogramBucketFactor: factor}))
		for range 2 {
			h := gather(t, reg, "idle_seconds").GetMetric()[0].GetHistogram()
			if h.GetSampleCount() != 0 || h.GetSampleSum() != 0 || len(h.GetBucket()) != len(bounds) {
				t.Errorf("factor %v: %v", factor, h)
			}
			for _, b := range h.GetBucket() {
				if b.GetCumulativeCount() != 0 {
					t.Errorf("factor %v: bucket %v", factor, b)
				}
			}
			if native := factor > 1; native != (h.Schema != nil) || native && len(h.GetPositiveSpan()) != 1 {
				t.Errorf("factor %v: schema %v, spans %v", factor, h.Schema, h.GetPositiveSpan())
			}
		}
	}
}

// TestDefaultBuckets: with no bounds and no native buckets, the classic
// buckets are Prometheus's defaults; with native ones, there are none.
func TestDefaultBuckets(t *testing.T) {
	for _, tc := range []struct {
		factor float64
		want   []float64
	}{{0, prometheus.DefBuckets}, {1.01, nil}} {
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(counterprom.New(counter.NewHistogram(), rate(t), counterprom.Opts{Name: "d_seconds", NativeHistogramBucketFactor: tc.factor}))
		h := gather(t, reg, "d_seconds").GetMetric()[0].GetHistogram()
		var got []float64
		for _, b := range h.GetBucket() {
			got = append(got, b.GetUpperBound())
		}
		if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
			t.Errorf("factor %v: bounds %v, want %v", tc.factor, got, tc.want)
		}
	}
}

// TestSchema checks the schema a bucket factor picks against its
// definition: the least s from −4 with 2^(2^−s) ≤ factor, at most 8.
func TestSchema(t *testing.T) {
	for _, factor := range []float64{1.0001, 1.001, 1.003, 1.005, 1.01, 1.02, 1.05, 1.1, 1.2, 1.5, 2, 3, 4, 16, 1e6, 1e300} {
		want := int32(8)
		for s := int32(-4); s <= 8; s++ {
			if math.Exp2(math.Exp2(-float64(s))) <= factor {
				want = s
				break
			}
		}
		h := counter.NewHistogram()
		h.Record(1000)
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(counterprom.New(h, rate(t), counterprom.Opts{Name: "s_seconds", NativeHistogramBucketFactor: factor}))
		if got := gather(t, reg, "s_seconds").GetMetric()[0].GetHistogram().GetSchema(); got != want {
			t.Errorf("factor %v: schema %d, want %d", factor, got, want)
		}
	}
}

// TestNativeGaps checks the encoding of native buckets with gaps of every
// size between them, and several values in one bucket.
func TestNativeGaps(t *testing.T) {
	h := counter.NewHistogram()
	f, err := export.NewFeed(h)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	r, err := counter.NewTickRate(1 << 31)
	if err != nil {
		t.Fatal(err)
	}
	reg.MustRegister(counterprom.New(f.Tap(), r, counterprom.Opts{Name: "g_seconds", NativeHistogramBucketFactor: 2}))
	// Keys at schema 0 are doublings: at 2³¹ Hz, 2^k ticks is 2^(k−31) s,
	// the top of key k−31. Spans below 256 ticks and the largest are
	// exported exactly.
	for _, d := range []counter.Tickdelta{1, 2, 3, 4, 16, 128, 128, 1 << 20} {
		h.Record(d)
	}
	h.Record(0)
	late := f.Tap()
	hist := gather(t, reg, "g_seconds").GetMetric()[0].GetHistogram()
	var s counter.Snapshot
	if late.Interval(&s); s.Count() != 0 {
		t.Fatalf("a Tap made after the spans holds %d", s.Count())
	}
	if hist.GetSchema() != 0 || hist.GetZeroCount() != 1 {
		t.Fatalf("schema %d, zero %d", hist.GetSchema(), hist.GetZeroCount())
	}
	want := map[int]int64{0 - 31: 1, 1 - 31: 1, 2 - 31: 2, 4 - 31: 1, 7 - 31: 2, 20 - 31: 1}
	got := nativeCounts(t, hist)
	if len(got) != len(want) {
		t.Errorf("buckets %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("buckets %v, want %v", got, want)
			break
		}
	}
}

// TestBadOptions checks that each wrong option is an error at Register.
func TestBadOptions(t *testing.T) {
	h := counter.NewHistogram()
	for _, tc := range []struct {
		name string
		src  export.Source
		rate counter.TickRate
		opts counterprom.Opts
		want error
	}{
		{"no name", h, rate(t), counterprom.Opts{}, counterprom.ErrNoName},
		{"nil source", nil, rate(t), counterprom.Opts{Name: "x"}, counterprom.ErrNilSource},
		{"zero rate", h, counter.TickRate{}, counterprom.Opts{Name: "x"}, export.ErrZeroRate},
		{"NaN bound", h, rate(t), counterprom.Opts{Name: "x", Buckets: []float64{1, math.NaN()}}, counterprom.ErrBadBounds},
		{"twice", h, rate(t), counterprom.Opts{Name: "x", Buckets: []float64{1, 2, 1}}, counterprom.ErrBadBounds},
		{"NaN factor", h, rate(t), counterprom.Opts{Name: "x", NativeHistogramBucketFactor: math.NaN()}, counterprom.ErrBadFactor},
		{"+Inf factor", h, rate(t), counterprom.Opts{Name: "x", NativeHistogramBucketFactor: math.Inf(1)}, counterprom.ErrBadFactor},
		{"-Inf factor", h, rate(t), counterprom.Opts{Name: "x", NativeHistogramBucketFactor: math.Inf(-1)}, counterprom.ErrBadFactor},
		{"NaN factor with a maximum", h, rate(t), counterprom.Opts{Name: "x", NativeHistogramBucketFactor: math.NaN(), NativeHistogramMaxBucketNumber: 10}, counterprom.ErrBadFactor},
		{"NaN bound with a maximum", h, rate(t), counterprom.Opts{Name: "x", Buckets: []float64{math.NaN()}, NativeHistogramBucketFactor: 1.1, NativeHistogramMaxBucketNumber: 10}, counterprom.ErrBadBounds},
		{"bad name", h, rate(t), counterprom.Opts{Name: "bad\xffname"}, nil},
	} {
		c := counterprom.New(tc.src, tc.rate, tc.opts)
		err := prometheus.NewRegistry().Register(c)
		if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: Register returned %v, want %v", tc.name, err, tc.want)
		}
		// Collect reports the error too, rather than panic.
		if _, err := prometheus.NewPedanticRegistry().Gather(); err != nil {
			t.Fatal(err)
		}
		ch := make(chan prometheus.Metric, 4)
		c.Collect(ch)
		close(ch)
		for m := range ch {
			if tc.want != nil && m.Write(&dto.Metric{}) == nil {
				t.Errorf("%s: a metric was collected", tc.name)
			}
		}
	}
	// An infinite bound is the implicit +Inf bucket, not an error.
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(counterprom.New(h, rate(t), counterprom.Opts{Name: "inf_seconds", Buckets: []float64{1, math.Inf(1)}})); err != nil {
		t.Error(err)
	}
	if b := gather(t, reg, "inf_seconds").GetMetric()[0].GetHistogram().GetBucket(); len(b) != 1 {
		t.Errorf("buckets %v", b)
	}
}

// TestOverlappingScrapes scrapes one Collector from two registries at
// once, over and over, while four writers record: the writers go on, a
// round of spans at a time, until each registry has scraped ten times, so
// the scrapes overlap the recording however slow the machine. Each
// registry's counts never fall, and once the writers stop a scrape holds
// every span, within the promise.
func TestOverlappingScrapes(t *testing.T) {
	h := counter.NewHistogram()
	c := counterprom.New(h, rate(t), counterprom.Opts{Name: "busy_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.1})
	regs := []*prometheus.Registry{prometheus.NewPedanticRegistry(), prometheus.NewPedanticRegistry()}
	for _, reg := range regs {
		reg.MustRegister(c)
	}
	const writers, round = 4, 2_000
	var scraped atomic.Int32 // the registries that have scraped ten times
	rounds := make([]int, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			r := h.Recorder()
			defer r.Close()
			for scraped.Load() < int32(len(regs)) {
				for _, d := range spread(uint64(w), round) {
					r.Record(d)
				}
				rounds[w]++
			}
		})
	}
	done := make(chan struct{})
	var scrapers sync.WaitGroup
	for _, reg := range regs {
		scrapers.Go(func() {
			var last uint64
			var lastSum float64
			for n := 1; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				hist := gather(t, reg, "busy_seconds").GetMetric()[0].GetHistogram()
				if hist.GetSampleCount() < last || hist.GetSampleSum() < lastSum {
					t.Errorf("count %d after %d, sum %v after %v", hist.GetSampleCount(), last, hist.GetSampleSum(), lastSum)
				}
				last, lastSum = hist.GetSampleCount(), hist.GetSampleSum()
				if n == 10 {
					scraped.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(done)
	scrapers.Wait()
	var spans []counter.Tickdelta
	for w := range writers {
		for range rounds[w] {
			spans = append(spans, spread(uint64(w), round)...)
		}
	}
	slices.Sort(spans)
	for _, reg := range regs {
		hist := gather(t, reg, "busy_seconds").GetMetric()[0].GetHistogram()
		checkClassicWithin(t, hist, spans)
		checkQuantiles(t, hist, spans, rate(t))
	}
}

// TestScrapeOverHTTP serves the Collector with promhttp on 127.0.0.1 and
// parses the scrape back, as text and as protobuf, against the spans.
func TestScrapeOverHTTP(t *testing.T) {
	f, tap := newFixture()
	reg := prometheus.NewRegistry()
	reg.MustRegister(counterprom.New(tap, rate(t), counterprom.Opts{Name: "req_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.01}))
	url := serve(t, reg)
	f.record(spread(7, 100_000))
	f.sync()

	for _, format := range []expfmt.Format{expfmt.NewFormat(expfmt.TypeTextPlain), expfmt.NewFormat(expfmt.TypeProtoDelim)} {
		families := scrape(t, url, format)
		mf := families["req_seconds"]
		if mf == nil {
			t.Fatalf("%s: no req_seconds in %d families", format, len(families))
		}
		hist := mf.GetMetric()[0].GetHistogram()
		checkClassic(t, hist, &f.want, f.taken)
		checkClassicWithin(t, hist, f.sorted())
		if format.FormatType() == expfmt.TypeProtoDelim { // the text format has no native buckets
			checkNative(t, hist, f.taken)
			checkQuantiles(t, hist, f.sorted(), rate(t))
		}
		if families["req_seconds_negative_spans_total"] == nil || families["req_seconds_migrated_spans_total"] == nil {
			t.Errorf("%s: the counters are missing", format)
		}
	}
}

// serve serves reg with promhttp on 127.0.0.1 until the test ends, and
// returns its URL.
func serve(t *testing.T, reg prometheus.Gatherer) string {
	t.Helper()
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the server is at %s", srv.URL)
	}
	return srv.URL
}

// scrape gets the metrics at url over HTTP, asking for the format, and
// decodes them by family name.
func scrape(t *testing.T, url string, format expfmt.Format) map[string]*dto.MetricFamily {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", string(format))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	got := expfmt.ResponseFormat(resp.Header)
	if got.FormatType() != format.FormatType() {
		t.Fatalf("asked for %s, got %s", format, got)
	}
	families := map[string]*dto.MetricFamily{}
	dec := expfmt.NewDecoder(strings.NewReader(string(body)), got)
	for {
		var mf dto.MetricFamily
		if err := dec.Decode(&mf); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		families[mf.GetName()] = &mf
	}
	return families
}

// TestBadSourceBesideAHealthyGauge registers each source that cannot be
// read beside a healthy gauge: Register refuses it with ErrNilSource, and a
// scrape over 127.0.0.1 still serves the gauge, where a source refused only
// at a scrape would make every scrape of the registry fail.
func TestBadSourceBesideAHealthyGauge(t *testing.T) {
	for name, src := range spantest.UnreadableSources() {
		reg := prometheus.NewRegistry()
		gauge := prometheus.NewGauge(prometheus.GaugeOpts{Name: "healthy", Help: "A gauge beside the bad source."})
		gauge.Set(42)
		reg.MustRegister(gauge)
		if err := reg.Register(counterprom.New(src, rate(t), counterprom.Opts{Name: "bad_seconds"})); !errors.Is(err, counterprom.ErrNilSource) {
			t.Errorf("%s: Register returned %v; want ErrNilSource", name, err)
		}
		srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		resp, err := http.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "healthy 42") {
			t.Errorf("%s: the scrape answered %s:\n%s\nwant 200 with the gauge", name, resp.Status, body)
		}
	}
}
