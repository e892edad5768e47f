package counterotel_test

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"testing"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	mpb "go.opentelemetry.io/proto/otlp/metrics/v1"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/internal/spantest"
)

// hz is the rate the tests convert at, a usual rate of a time-stamp counter.
const hz = 2_496_000_000

var rate = func() counter.TickRate {
	r, err := counter.NewTickRate(hz)
	if err != nil {
		panic(err)
	}
	return r
}()

// limits are a Producer's most buckets a point and finest scale.
type limits struct{ size, scale int32 }

// defaults are the limits of a Producer with no option.
var defaults = limits{counterotel.DefaultMaxSize, counterotel.DefaultMaxScale}

// options returns the options that set lim.
func (lim limits) options() []counterotel.Option {
	return []counterotel.Option{counterotel.WithMaxSize(lim.size), counterotel.WithMaxScale(lim.scale)}
}

// base is the ratio of a bucket's upper bound to its lower at scale s.
func base(s int32) float64 { return math.Exp2(math.Exp2(-float64(s))) }

// A point is an exponential histogram data point as the SDK or OTLP has
// it, so that both are checked alike.
type point struct {
	count, zeroCount uint64
	sum              float64
	min, max         float64
	minOK, maxOK     bool
	scale            int32
	zeroThreshold    float64
	offset           int32
	counts           []uint64
	negative         int // buckets of negative values
}

func fromSDK(dp metricdata.ExponentialHistogramDataPoint[float64]) point {
	p := point{
		count: dp.Count, zeroCount: dp.ZeroCount, sum: dp.Sum, scale: dp.Scale,
		zeroThreshold: dp.ZeroThreshold, offset: dp.PositiveBucket.Offset,
		counts: dp.PositiveBucket.Counts, negative: len(dp.NegativeBucket.Counts),
	}
	p.min, p.minOK = dp.Min.Value()
	p.max, p.maxOK = dp.Max.Value()
	return p
}

func fromProto(dp *mpb.ExponentialHistogramDataPoint) point {
	p := point{
		count: dp.GetCount(), zeroCount: dp.GetZeroCount(), sum: dp.GetSum(), scale: dp.GetScale(),
		zeroThreshold: dp.GetZeroThreshold(), offset: dp.GetPositive().GetOffset(),
		counts: dp.GetPositive().GetBucketCounts(), negative: len(dp.GetNegative().GetBucketCounts()),
	}
	if dp.Min != nil {
		p.min, p.minOK = *dp.Min, true
	}
	if dp.Max != nil {
		p.max, p.maxOK = *dp.Max, true
	}
	return p
}

// bucketOf returns the bucket of sec > 0 seconds at scale s: the i with
// 2^(i/2^s) < sec ≤ 2^((i+1)/2^s), found with Log2 and not with
// export.Exponential. Only for a value within a rounding error of a bound,
// where the two may differ, is Exponential's choice taken (at scale −4, the
// least it has, and shifted below it).
func bucketOf(t *testing.T, sec float64, s int32) int32 {
	t.Helper()
	x := math.Ldexp(math.Log2(sec), int(s))
	i := int32(math.Ceil(x)) - 1
	if frac, _ := math.Frexp(sec); frac != 0.5 && math.Abs(x-math.Round(x)) < 1e-9*max(1, math.Abs(x)) {
		exp, err := export.NewExponential(max(s, -4))
		if err != nil {
			t.Fatal(err)
		}
		j := exp.Index(sec) >> (max(s, -4) - s)
		if j != i && j != i+1 && j != i-1 {
			t.Fatalf("%g s: bucket %d at scale %d, and Exponential says %d", sec, i, s, j)
		}
		i = j
	}
	return i
}

// snapshotsOf returns the Snapshot of each batch of spans: of each
// Interval a Producer takes, where one batch was recorded before each.
func snapshotsOf(batches [][]counter.Tickdelta) []*counter.Snapshot {
	snaps := make([]*counter.Snapshot, len(batches))
	for i, b := range batches {
		snaps[i] = spantest.SnapshotOf(b)
	}
	return snaps
}

// expectedScale returns the scale at which the spans of the Intervals ins
// belong with the limits lim: the finest, at most lim.scale, at which the
// buckets from the one of the smallest positive value of export.Values of
// any of them to the one of the largest are at most lim.size; lim.scale
// where no value is positive.
func expectedScale(t *testing.T, ins []*counter.Snapshot, lim limits) int32 {
	t.Helper()
	least, most := math.Inf(1), 0.0
	for _, s := range ins {
		for v := range export.Values(s) {
			if v > 0 {
				least, most = min(least, export.Seconds(v, rate)), max(most, export.Seconds(v, rate))
			}
		}
	}
	if most == 0 {
		return lim.scale
	}
	for sc := lim.scale; sc >= -10; sc-- {
		if bucketOf(t, most, sc)-bucketOf(t, least, sc) < lim.size {
			return sc
		}
	}
	t.Fatalf("%g s to %g s fit in %d buckets at no scale", least, most, lim.size)
	return 0
}

// expectedBuckets returns where the spans of the Intervals ins belong at
// scale sc: how many are 0 ticks, and the dense counts of positive buckets
// from the first one that holds a span to the last, each of export.Values
// of its Interval in bucketOf its seconds.
func expectedBuckets(t *testing.T, ins []*counter.Snapshot, sc int32) (zero uint64, offset int32, counts []uint64) {
	t.Helper()
	in := map[int32]uint64{}
	first, last := int32(math.MaxInt32), int32(math.MinInt32)
	for _, s := range ins {
		for v, n := range export.Values(s) {
			if v == 0 {
				zero += n
				continue
			}
			i := bucketOf(t, export.Seconds(v, rate), sc)
			in[i] += n
			first, last = min(first, i), max(last, i)
		}
	}
	if len(in) == 0 {
		return zero, 0, nil
	}
	counts = make([]uint64, last-first+1)
	for i, n := range in {
		counts[i-first] = n
	}
	return zero, first, counts
}

// rank is the nearest rank ⌈q·n⌉ of q read as the decimal it prints as,
// as counter.Snapshot.Quantile reads it, within 1 to n.
func rank(q float64, n uint64) uint64 {
	x, ok := new(big.Rat).SetString(strconv.FormatFloat(q, 'g', -1, 64))
	if !ok {
		panic("bad quantile")
	}
	x.Mul(x, new(big.Rat).SetInt(new(big.Int).SetUint64(n)))
	k := new(big.Int).Quo(x.Num(), x.Denom())
	if !x.IsInt() {
		k.Add(k, big.NewInt(1))
	}
	return min(max(k.Uint64(), 1), n)
}

// bucketOfRank returns the bounds of the exported bucket that holds the
// k-th smallest span of p, 0 and 0 for the zero bucket.
func bucketOfRank(t *testing.T, p point, k uint64) (lo, hi float64) {
	t.Helper()
	if k <= p.zeroCount {
		return 0, 0
	}
	k -= p.zeroCount
	for j, n := range p.counts {
		if k <= n {
			i := float64(p.offset + int32(j))
			return math.Exp2(math.Ldexp(i, -int(p.scale))), math.Exp2(math.Ldexp(i+1, -int(p.scale)))
		}
		k -= n
	}
	t.Fatalf("rank %d is past the %d spans of the buckets", k, p.count)
	return 0, 0
}

var quantiles = []float64{0.5, 0.9, 0.99, 0.999}

// checkPoint checks p, of a Producer with the limits lim, against the
// spans of batches, each taken by one Interval: count, sum, min and max
// exact, zeros, the scale (the finest that fits), every bucket (each span
// at its value of export.Values in its Interval's Snapshot), and the
// quantiles read back from the buckets against the exact spans.
func checkPoint(t *testing.T, p point, batches [][]counter.Tickdelta, lim limits) {
	t.Helper()
	ins := snapshotsOf(batches)
	if sc := expectedScale(t, ins, lim); p.scale != sc || p.zeroThreshold != 0 || p.negative != 0 {
		t.Errorf("scale %d, zero threshold %g, %d negative buckets; want %d, 0, 0", p.scale, p.zeroThreshold, p.negative, sc)
	}
	if len(p.counts) > int(lim.size) {
		t.Errorf("%d buckets, more than %d", len(p.counts), lim.size)
	}
	exact := slices.Sorted(slices.Values(slices.Concat(batches...)))
	if p.count != uint64(len(exact)) {
		t.Fatalf("count %d, want %d spans", p.count, len(exact))
	}
	if len(exact) == 0 {
		if p.sum != 0 || p.minOK || p.maxOK || p.zeroCount != 0 || len(p.counts) != 0 {
			t.Errorf("empty point: sum %g, min %v, max %v, zero count %d, %d buckets; want 0 and nothing", p.sum, p.minOK, p.maxOK, p.zeroCount, len(p.counts))
		}
		return
	}

	// The sum: exact where the sum of ticks is below 2⁵³, so that it
	// converts exactly; within 10⁻⁹ elsewhere.
	sum := new(big.Int)
	for _, d := range exact {
		sum.Add(sum, big.NewInt(int64(d)))
	}
	want, _ := new(big.Rat).SetFrac(sum, big.NewInt(hz)).Float64()
	if sum.Cmp(big.NewInt(1<<53)) < 0 && p.sum != want || math.Abs(p.sum-want) > 1e-9*want {
		t.Errorf("sum %.17g s, want %.17g s (%v ticks)", p.sum, want, sum)
	}
	if wmin, wmax := float64(exact[0])/hz, float64(exact[len(exact)-1])/hz; !p.minOK || !p.maxOK || p.min != wmin || p.max != wmax {
		t.Errorf("min %g (%v), max %g (%v); want %g, %g", p.min, p.minOK, p.max, p.maxOK, wmin, wmax)
	}
	zeros := uint64(len(exact) - len(slices.DeleteFunc(slices.Clone(exact), func(d counter.Tickdelta) bool { return d == 0 })))
	if p.zeroCount != zeros {
		t.Errorf("zero count %d, want %d", p.zeroCount, zeros)
	}

	zero, offset, counts := expectedBuckets(t, ins, p.scale)
	if zero != zeros {
		t.Errorf("the Intervals' Values have %d spans at 0, the spans %d", zero, zeros)
	}
	total := p.zeroCount
	for _, n := range p.counts {
		total += n
	}
	if total != p.count {
		t.Errorf("the buckets hold %d spans, the count is %d", total, p.count)
	}
	if len(counts) > 0 && (p.offset != offset || len(p.counts) != len(counts)) {
		t.Errorf("buckets %d to %d, want %d to %d", p.offset, p.offset+int32(len(p.counts))-1, offset, offset+int32(len(counts))-1)
	}
	if len(p.counts) > 0 && (p.counts[0] == 0 || p.counts[len(p.counts)-1] == 0) {
		t.Errorf("the first or last bucket is empty: %d, %d", p.counts[0], p.counts[len(p.counts)-1])
	}
	for j := range max(len(counts), len(p.counts)) {
		var got, want uint64
		if j < len(p.counts) {
			got = p.counts[j]
		}
		if j < len(counts) {
			want = counts[j]
		}
		if got != want {
			t.Errorf("bucket %d (from %d): %d spans, want %d", int(offset)+j, offset, got, want)
		}
	}

	// Quantiles read back from the buckets, at both bounds of the bucket,
	// against the exact spans: the package doc's bound at the point's
	// scale, (1+QuantileError)·2^(2^−s)−1.
	bound := (1+counter.QuantileError)*base(p.scale) - 1
	for _, q := range quantiles {
		k := rank(q, p.count)
		lo, hi := bucketOfRank(t, p, k)
		ex := float64(exact[k-1]) / hz
		for _, got := range []float64{lo, hi} {
			if d := math.Abs(got - ex); d > bound*ex*(1+1e-12) {
				t.Errorf("p%g: bucket (%g, %g] is %.3g%% from the exact %g s", q*100, lo, hi, 100*d/ex, ex)
			}
		}
	}
}
