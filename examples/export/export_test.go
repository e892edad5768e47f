package export_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/examples/export"
)

// A distribution is a named way to draw n spans, and the most spans a test
// draws from it.
type distribution struct {
	name  string
	spans func(r *rand.Rand, n int) []counter.Tickdelta
	most  int
}

var distributions = []distribution{
	{"loguniform30to1e6", func(r *rand.Rand, n int) []counter.Tickdelta {
		s := make([]counter.Tickdelta, n)
		for i := range s {
			s[i] = counter.Tickdelta(30 * math.Pow(1e6/30, r.Float64()))
		}
		return s
	}, 0},
	{"narrow", func(r *rand.Rand, n int) []counter.Tickdelta {
		// A tight peak near 5000 ticks, a few buckets of ours wide.
		s := make([]counter.Tickdelta, n)
		for i := range s {
			s[i] = counter.Tickdelta(5000 + 40*r.NormFloat64())
		}
		return s
	}, 0},
	{"small", func(r *rand.Rand, n int) []counter.Tickdelta {
		// Spans below 256 ticks, which both histograms hold exactly.
		s := make([]counter.Tickdelta, n)
		for i := range s {
			s[i] = counter.Tickdelta(r.IntN(256))
		}
		return s
	}, 0},
	{"huge", func(r *rand.Rand, n int) []counter.Tickdelta {
		// Spans from 2⁶¹ to 2^62.5: their sum is past MaxTickdelta.
		s := make([]counter.Tickdelta, n)
		for i := range s {
			s[i] = counter.Tickdelta(math.Exp2(61 + 1.5*r.Float64()))
		}
		return s
	}, 4000}, // A tally's 64-bit sum holds about four such spans, and each
	// Recorder hands over a 29 KB tally when its sum is full: 100,000 of
	// them took 800 MB until Interval.
}

// size returns n, or the distribution's most where it is less.
func (d distribution) size(n int) int {
	if d.most > 0 {
		return min(n, d.most)
	}
	return n
}

// quantiles are the quantiles the tests compare; 1 is the maximum.
var quantiles = []float64{0.5, 0.9, 0.99, 0.999, 1}

// snapshotOf records spans into a new counter.Histogram, the first half
// through a Recorder and the rest through Histogram.Record, and returns its
// first interval.
func snapshotOf(spans []counter.Tickdelta) *counter.Snapshot {
	h := counter.NewHistogram()
	r := h.Recorder()
	for _, d := range spans[:len(spans)/2] {
		r.Record(d)
	}
	r.Close()
	for _, d := range spans[len(spans)/2:] {
		h.Record(d)
	}
	var s counter.Snapshot
	h.Interval(&s)
	return &s
}

// sorted returns a sorted copy of spans.
func sorted(spans []counter.Tickdelta) []counter.Tickdelta {
	s := slices.Clone(spans)
	slices.Sort(s)
	return s
}

// ourRank is the rank counter.Snapshot.Quantile estimates: ⌈q·n⌉ of the
// float64 q exactly, within 1 to n.
func ourRank(q float64, n int) int {
	x := new(big.Rat).Mul(new(big.Rat).SetFloat64(q), new(big.Rat).SetInt64(int64(n)))
	r := new(big.Int).Quo(x.Num(), x.Denom()) // floor, x ≥ 0
	if !x.IsInt() {
		r.Add(r, big.NewInt(1))
	}
	return min(max(int(r.Int64()), 1), n)
}

// hdrRank is the rank HdrHistogram's ValueAtQuantile(q·100) reads, as
// hdrhistogram-go v1.1.2 computes it: q·n rounded half up, within 1 to n.
func hdrRank(q float64, n int) int {
	p := q * 100
	return min(max(int(int64(((p/100)*float64(n))+0.5)), 1), n)
}

// hdrError is HdrHistogram's relative error at sigfigs figures: its
// ValueAtQuantile is the top of a bucket whose width is at most the value
// over its sub-bucket half count, 2^(⌈log₂(2·10^sigfigs)⌉−1).
func hdrError(sigfigs int) float64 {
	return 1 / math.Exp2(math.Ceil(math.Log2(2*math.Pow10(sigfigs)))-1)
}

// within reports whether got is within rel·want of want (and both are
// integers of ticks: an error below one tick is none).
func within(got, want counter.Tickdelta, rel float64) bool {
	return math.Abs(float64(got)-float64(want)) <= rel*float64(want)
}

// TestQuantilesAgreeWithHDR feeds the same spans to HdrHistogram, one
// RecordValue each, and to a counter.Histogram, and checks that each
// library's quantiles are within its own error of the exact order statistic
// it estimates, and within both errors of each other; then that ToHDR gives
// an HdrHistogram with the same quantiles.
func TestQuantilesAgreeWithHDR(t *testing.T) {
	const n = 100_000
	const sigfigs = 3
	hdrErr := hdrError(sigfigs)
	for i, dist := range distributions {
		t.Run(dist.name, func(t *testing.T) {
			n := dist.size(n)
			spans := dist.spans(rand.New(rand.NewPCG(uint64(i), 7)), n)
			exact := sorted(spans)
			hdr := hdrhistogram.New(1, math.MaxInt64, sigfigs)
			for _, d := range spans {
				if err := hdr.RecordValue(int64(d)); err != nil {
					t.Fatal(err)
				}
			}
			s := snapshotOf(spans)
			if s.Count() != uint64(n) || hdr.TotalCount() != int64(n) {
				t.Fatalf("counts: ours %d, HDR %d, want %d", s.Count(), hdr.TotalCount(), n)
			}
			if s.Max() != exact[n-1] || s.Min() != exact[0] {
				t.Errorf("ours: min %d, max %d; exact %d, %d", s.Min(), s.Max(), exact[0], exact[n-1])
			}
			fromSnapshot := export.ToHDR(s, sigfigs)
			if fromSnapshot.TotalCount() != int64(n) {
				t.Fatalf("ToHDR: count %d, want %d", fromSnapshot.TotalCount(), n)
			}
			// ToHDR records the exact min and max, as RecordValue did.
			if fromSnapshot.Min() != hdr.Min() || fromSnapshot.Max() != hdr.Max() {
				t.Errorf("ToHDR: min %d, max %d; HDR of the spans: %d, %d", fromSnapshot.Min(), fromSnapshot.Max(), hdr.Min(), hdr.Max())
			}
			for _, q := range quantiles {
				xo := exact[ourRank(q, n)-1] // what ours estimates
				xh := exact[hdrRank(q, n)-1] // what HDR estimates
				ours := s.Quantile(q)
				theirs := counter.Tickdelta(hdr.ValueAtQuantile(q * 100))
				converted := counter.Tickdelta(fromSnapshot.ValueAtQuantile(q * 100))
				t.Logf("q=%v: exact %d (HDR's rank: %d), ours %d, HDR %d, ToHDR %d", q, xo, xh, ours, theirs, converted)
				if !within(ours, xo, counter.QuantileError) {
					t.Errorf("q=%v: ours %d, exact %d: off by more than QuantileError", q, ours, xo)
				}
				// HDR reports the top of the bucket that holds xh.
				if theirs < xh || !within(theirs, xh, hdrErr) {
					t.Errorf("q=%v: HDR %d, exact %d: off by more than its error %v", q, theirs, xh, hdrErr)
				}
				bound := counter.QuantileError*float64(xo) + hdrErr*float64(xh) + math.Abs(float64(xo-xh))
				if d := math.Abs(float64(ours - theirs)); d > bound {
					t.Errorf("q=%v: ours %d and HDR %d differ by %v, more than %v", q, ours, theirs, d, bound)
				}
				// ToHDR counts each span at its bucket's value, within
				// QuantileError, and HDR adds its own error on top.
				if lo, hi := float64(xh)*(1-counter.QuantileError), float64(xh)*(1+counter.QuantileError)*(1+hdrErr); float64(converted) < math.Floor(lo) || float64(converted) > math.Ceil(hi) {
					t.Errorf("q=%v: ToHDR %d, exact %d: outside [%v, %v]", q, converted, xh, lo, hi)
				}
			}
		})
	}
}

// TestValues checks that Values stands for every span once, in order, each
// within QuantileError, with the exact minimum and maximum at the ends.
func TestValues(t *testing.T) {
	for i, dist := range distributions {
		t.Run(dist.name, func(t *testing.T) {
			exact := sorted(dist.spans(rand.New(rand.NewPCG(uint64(i), 5)), dist.size(10_000)))
			s := snapshotOf(exact)
			var buckets int
			for range s.Buckets() {
				buckets++
			}
			var calls, seen int
			prev := counter.Tickdelta(-1)
			for v, c := range export.Values(s) {
				calls++
				if c == 0 || v < prev {
					t.Fatalf("value %d of %d spans after %d", v, c, prev)
				}
				if calls == 1 && (v != exact[0] || c != 1) {
					t.Errorf("first value %d of %d spans, want the minimum %d once", v, c, exact[0])
				}
				for k := range int(c) {
					if x := exact[seen+k]; !within(v, x, counter.QuantileError) {
						t.Fatalf("span %d counted at %d", x, v)
					}
				}
				prev, seen = v, seen+int(c)
			}
			if seen != len(exact) || prev != exact[len(exact)-1] {
				t.Errorf("%d spans up to %d, want %d up to %d", seen, prev, len(exact), exact[len(exact)-1])
			}
			if calls > buckets+2 {
				t.Errorf("%d values for %d buckets", calls, buckets)
			}
		})
	}
	for _, spans := range [][]counter.Tickdelta{{7}, {1000, 1001}, {5, 5, 5}} {
		var got []counter.Tickdelta
		for v, c := range export.Values(snapshotOf(spans)) {
			for range c {
				got = append(got, v)
			}
		}
		if !slices.Equal(got, spans) {
			t.Errorf("Values of %v: %v", spans, got)
		}
	}
	for range export.Values(snapshotOf(nil)) {
		t.Error("a value of an empty snapshot")
	}
}

// TestToHDRSmall checks that ToHDR keeps spans below 256 ticks exactly,
// since both histograms do.
func TestToHDRSmall(t *testing.T) {
	spans := []counter.Tickdelta{0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 255}
	s := snapshotOf(spans)
	for _, sigfigs := range []int{2, 3} {
		h := export.ToHDR(s, sigfigs)
		for i, d := range spans {
			q := float64(i+1) / float64(len(spans))
			if got := h.ValueAtQuantile(q * 100); got != int64(d) {
				t.Errorf("%d figures: quantile %v is %d, want %d", sigfigs, q, got, d)
			}
		}
	}
}

// TestToHDREdges checks that ToHDR's range holds the snapshot's maximum, at
// HdrHistogram's powers of two and at the top of the Tickdelta range.
func TestToHDREdges(t *testing.T) {
	for _, top := range []counter.Tickdelta{0, 1, 2, 2047, 2048, 4096, 1 << 40, 1<<62 + 1, math.MaxInt64} {
		s := snapshotOf([]counter.Tickdelta{0, top / 2, top})
		for _, sigfigs := range []int{1, 2, 3, 4, 5} {
			h := export.ToHDR(s, sigfigs)
			if h.TotalCount() != 3 {
				t.Errorf("max %d, %d figures: HDR holds %d spans, want 3", top, sigfigs, h.TotalCount())
			}
		}
	}
}

// TestAddToHDRDropped checks that AddToHDR counts the spans past the
// HdrHistogram's range.
func TestAddToHDRDropped(t *testing.T) {
	s := snapshotOf([]counter.Tickdelta{10, 20, 1 << 20, 1 << 21})
	h := hdrhistogram.New(1, 1<<16, 3)
	if got := export.AddToHDR(h, s); got != 2 {
		t.Errorf("AddToHDR dropped %d spans, want 2", got)
	}
	if h.TotalCount() != 2 {
		t.Errorf("HDR holds %d spans, want 2", h.TotalCount())
	}
}

// collector is a prometheus.Collector that emits one metric made by make.
type collector struct {
	desc *prometheus.Desc
	make func(*prometheus.Desc) (prometheus.Metric, error)
}

func (c collector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c collector) Collect(ch chan<- prometheus.Metric) {
	m, err := c.make(c.desc)
	if err != nil {
		m = prometheus.NewInvalidMetric(c.desc, err)
	}
	ch <- m
}

// gather registers a collector of the metric make makes and returns the
// histogram a Registry gathers from it.
func gather(t *testing.T, make func(*prometheus.Desc) (prometheus.Metric, error)) *dto.Histogram {
	t.Helper()
	desc := prometheus.NewDesc("span_seconds", "Spans of code.", nil, prometheus.Labels{"from": "counter"})
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(collector{desc, make})
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	if len(families) != 1 || len(families[0].Metric) != 1 {
		t.Fatalf("gathered %v, want one metric", families)
	}
	if got := families[0].GetType(); got != dto.MetricType_HISTOGRAM {
		t.Fatalf("gathered a %v, want a histogram", got)
	}
	return families[0].Metric[0].GetHistogram()
}

// exactSeconds returns the sum of spans in seconds at hz, to float64
// precision from an exact sum.
func exactSeconds(spans []counter.Tickdelta, hz uint64) float64 {
	sum := new(big.Int)
	for _, d := range spans {
		sum.Add(sum, big.NewInt(int64(d)))
	}
	f, _ := new(big.Rat).SetFrac(sum, new(big.Int).SetUint64(hz)).Float64()
	return f
}

// closeTo reports whether got is within a few float64 roundings of want.
func closeTo(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Abs(want)
}

// rate is a rate whose conversion to seconds is not a power of ten.
func rate(t *testing.T) counter.TickRate {
	r, err := counter.NewTickRate(2_300_000_000)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestToPrometheus checks that a classic Prometheus histogram built from a
// snapshot and gathered through a Registry has the snapshot's count, its
// sum in seconds, and in each bucket the spans at most its bound but for
// those within QuantileError of it, and the counts a client_golang
// Histogram has after observing each span at its value of Values.
func TestToPrometheus(t *testing.T) {
	const n = 20_000
	r := rate(t)
	hz := r.Hertz()
	for i, dist := range distributions {
		t.Run(dist.name, func(t *testing.T) {
			n := dist.size(n)
			spans := dist.spans(rand.New(rand.NewPCG(uint64(i), 9)), n)
			exact := sorted(spans)
			s := snapshotOf(spans)
			// Bounds across the spans, in seconds, given out of order.
			lo, hi := export.Seconds(max(exact[0], 1), r), export.Seconds(exact[n-1], r)
			bounds := prometheus.ExponentialBucketsRange(lo, hi, 12)
			reversed := slices.Clone(bounds)
			slices.Reverse(reversed)
			h := gather(t, func(d *prometheus.Desc) (prometheus.Metric, error) {
				return export.ToPrometheus(d, s, r, reversed)
			})
			if h.GetSampleCount() != s.Count() || h.GetSampleCount() != uint64(n) {
				t.Errorf("sample count %d; snapshot %d, spans %d", h.GetSampleCount(), s.Count(), n)
			}
			want := exactSeconds(spans, hz)
			if got := h.GetSampleSum(); !closeTo(got, want) || !closeTo(got, export.SumSeconds(s, r)) {
				t.Errorf("sample sum %v; exact %v, SumSeconds %v", got, want, export.SumSeconds(s, r))
			}
			// A client_golang Histogram observing each bucket's value.
			ref := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "ref", Buckets: bounds})
			for v, c := range export.Values(s) {
				for range c {
					ref.Observe(export.Seconds(v, r))
				}
			}
			var m dto.Metric
			if err := ref.Write(&m); err != nil {
				t.Fatal(err)
			}
			refBuckets := m.GetHistogram().GetBucket()
			got := h.GetBucket()
			if len(got) != len(bounds) || len(refBuckets) != len(bounds) {
				t.Fatalf("%d buckets, reference %d, want %d", len(got), len(refBuckets), len(bounds))
			}
			for j, b := range got {
				ub := b.GetUpperBound()
				if ub != refBuckets[j].GetUpperBound() || b.GetCumulativeCount() != refBuckets[j].GetCumulativeCount() {
					t.Errorf("bucket %d: le=%v count %d; client_golang's le=%v count %d", j, ub,
						b.GetCumulativeCount(), refBuckets[j].GetUpperBound(), refBuckets[j].GetCumulativeCount())
				}
				// The spans surely at most ub, and those perhaps.
				bt := ub * float64(hz) // the bound in ticks
				surely := sort.Search(n, func(k int) bool { return float64(exact[k]) > bt/(1+counter.QuantileError) })
				perhaps := sort.Search(n, func(k int) bool { return float64(exact[k]) > bt/(1-counter.QuantileError) })
				if c := int(b.GetCumulativeCount()); c < surely || c > perhaps {
					t.Errorf("le=%v: cumulative count %d, want %d to %d", ub, c, surely, perhaps)
				}
			}
		})
	}
}

// TestToPrometheusNative checks that a native Prometheus histogram built
// from a snapshot has the snapshot's count and sum, and the buckets of a
// client_golang Histogram of NativeHistogramBucketFactor 1.1 that observed
// each span at its value of Values.
func TestToPrometheusNative(t *testing.T) {
	const n = 20_000
	r := rate(t)
	for i, dist := range distributions {
		t.Run(dist.name, func(t *testing.T) {
			n := dist.size(n)
			spans := dist.spans(rand.New(rand.NewPCG(uint64(i), 11)), n)
			s := snapshotOf(spans)
			created := time.Unix(1700000000, 0)
			h := gather(t, func(d *prometheus.Desc) (prometheus.Metric, error) {
				return export.ToPrometheusNative(d, s, r, export.NativeSchema, created)
			})
			if h.GetSampleCount() != uint64(n) {
				t.Errorf("sample count %d, want %d", h.GetSampleCount(), n)
			}
			if got, want := h.GetSampleSum(), exactSeconds(spans, r.Hertz()); !closeTo(got, want) {
				t.Errorf("sample sum %v, want %v", got, want)
			}
			ref := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "ref", NativeHistogramBucketFactor: 1.1})
			for v, c := range export.Values(s) {
				for range c {
					ref.Observe(export.Seconds(v, r))
				}
			}
			var m dto.Metric
			if err := ref.Write(&m); err != nil {
				t.Fatal(err)
			}
			want := m.GetHistogram()
			if h.GetSchema() != want.GetSchema() {
				t.Errorf("schema %d, client_golang's for factor 1.1 %d", h.GetSchema(), want.GetSchema())
			}
			if h.GetZeroCount() != want.GetZeroCount() {
				t.Errorf("zero count %d, want %d", h.GetZeroCount(), want.GetZeroCount())
			}
			gotB, wantB := nativeBuckets(h), nativeBuckets(want)
			if len(gotB) == 0 {
				t.Error("no native buckets")
			}
			for k, c := range wantB {
				if gotB[k] != c {
					t.Errorf("native bucket %d: %d, want %d", k, gotB[k], c)
				}
			}
			for k, c := range gotB {
				if _, ok := wantB[k]; !ok {
					t.Errorf("native bucket %d: %d, want none", k, c)
				}
			}
			if !h.GetCreatedTimestamp().AsTime().Equal(created) {
				t.Errorf("created %v, want %v", h.GetCreatedTimestamp().AsTime(), created)
			}
		})
	}
}

// nativeBuckets decodes the positive spans and deltas of a native
// histogram into counts by bucket index, leaving out empty buckets.
func nativeBuckets(h *dto.Histogram) map[int]int64 {
	m := make(map[int]int64)
	deltas := h.GetPositiveDelta()
	var idx int
	var count int64
	for _, sp := range h.GetPositiveSpan() {
		idx += int(sp.GetOffset())
		for range sp.GetLength() {
			count += deltas[0]
			deltas = deltas[1:]
			if count != 0 {
				m[idx] = count
			}
			idx++
		}
	}
	return m
}

// TestZeroRate checks that the conversions to seconds refuse the zero
// TickRate.
func TestZeroRate(t *testing.T) {
	s := snapshotOf([]counter.Tickdelta{1, 2, 3})
	desc := prometheus.NewDesc("x", "x", nil, nil)
	if _, err := export.ToPrometheus(desc, s, counter.TickRate{}, []float64{1}); err != export.ErrZeroRate {
		t.Errorf("ToPrometheus: %v, want ErrZeroRate", err)
	}
	if _, err := export.ToPrometheusNative(desc, s, counter.TickRate{}, 3, time.Time{}); err != export.ErrZeroRate {
		t.Errorf("ToPrometheusNative: %v, want ErrZeroRate", err)
	}
	if got := export.Seconds(5, counter.TickRate{}); got != 0 {
		t.Errorf("Seconds at the zero rate: %v, want 0", got)
	}
}

// TestMemory compares the memory a Recorder holds with an HdrHistogram's.
// It asserts only that a Recorder holds at most 64 KB; the rest is logged.
func TestMemory(t *testing.T) {
	const runs = 50
	hs := make([]*counter.Histogram, runs)
	histogramBytes := allocated(func() {
		for i := range hs {
			hs[i] = counter.NewHistogram()
		}
	}) / runs
	rs := make([]*counter.Recorder, runs)
	recorderBytes := allocated(func() {
		for i := range rs {
			rs[i] = hs[i].Recorder()
		}
	}) / runs
	runtime.KeepAlive(rs)
	t.Logf("counter: NewHistogram %d bytes (GOMAXPROCS=%d), each Recorder %d bytes more", histogramBytes, runtime.GOMAXPROCS(0), recorderBytes)
	if recorderBytes > 64<<10 {
		t.Errorf("a Recorder holds %d bytes, more than 64 KB", recorderBytes)
	}
	for _, sigfigs := range []int{2, 3} {
		for _, top := range []int64{1 << 40, math.MaxInt64} {
			var h *hdrhistogram.Histogram
			bytes := allocated(func() { h = hdrhistogram.New(1, top, sigfigs) })
			t.Logf("HdrHistogram, %d figures, 1 to %d: ByteSize %d, allocated %d bytes", sigfigs, top, h.ByteSize(), bytes)
		}
	}
}

// allocated returns the bytes f allocates, as runtime.MemStats.TotalAlloc
// counts them.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
