// Package export converts a [counter.Snapshot] into the histograms of other
// libraries, HdrHistogram's and Prometheus's, from its buckets rather than
// from raw spans: a reporter reads an interval with
// [counter.Histogram.Interval] and hands the Snapshot on in the form its
// monitoring system reads.
//
// Every conversion counts the spans at the values of [Values]: the smallest
// and largest span exactly, and the other spans of each bucket at its middle,
// each within [counter.QuantileError] of the spans it stands for. Negative
// spans and spans that changed CPU, which a Snapshot counts apart, are in none
// of the exported histograms; read them with [counter.Snapshot.Negative] and
// [counter.Snapshot.Migrated].
//
// Prometheus's histograms are cumulative, its counts never falling from one
// scrape to the next, while Interval's snapshot holds only the spans since the
// previous Interval: to export to Prometheus, [counter.Snapshot.Merge] every
// interval into one Snapshot kept for the purpose and convert that one.
package export

import (
	"errors"
	"iter"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/tickstamp/counter"
)

// ErrZeroRate is the error of a conversion to seconds at the zero
// [counter.TickRate], which is no rate.
var ErrZeroRate = errors.New("export: the zero TickRate converts no span to seconds")

// Seconds returns the span d in seconds at rate r, as a float64: d divided by
// [counter.TickRate.Hertz], correctly rounded but for the rounding of d to
// 53 bits where it is above 2⁵³ ticks. At the zero TickRate it is 0, as
// [counter.Tickdelta.Duration] is.
func Seconds(d counter.Tickdelta, r counter.TickRate) float64 {
	hz := r.Hertz()
	if hz == 0 {
		return 0
	}
	return float64(d) / float64(hz)
}

// SumSeconds returns the sum of the snapshot's spans in seconds at rate r:
// [counter.Snapshot.Sum] converted with [Seconds] where the sum fits a
// Tickdelta, and otherwise [counter.Snapshot.Mean] times
// [counter.Snapshot.Count], which is the exact sum to within half a tick a
// span (Mean rounds to a tick): a relative error of at most 1/(2·Mean),
// below 10⁻⁶ wherever the mean is a million ticks or more. It is 0 at the
// zero TickRate.
func SumSeconds(s *counter.Snapshot, r counter.TickRate) float64 {
	if sum := s.Sum(); sum < math.MaxInt64 {
		return Seconds(sum, r)
	}
	return Seconds(s.Mean(), r) * float64(s.Count())
}

// Values returns the values at which the conversions count the snapshot's
// spans, from the least, each with how many spans it stands for: the
// smallest span at s.Min() and the largest at s.Max(), exactly, and the other
// spans of each bucket at its middle, Min+(Max−Min+1)/2, moved into
// [s.Min(), s.Max()] where the bucket reaches past them. These are the
// values [counter.Snapshot.Quantile] reports, each within
// [counter.QuantileError] of every span it stands for.
func Values(s *counter.Snapshot) iter.Seq2[counter.Tickdelta, uint64] {
	return func(yield func(counter.Tickdelta, uint64) bool) {
		least, most := s.Min(), s.Max()
		for b := range s.Buckets() {
			n := b.Count
			first := b.Min <= least // the bucket of the smallest span
			last := b.Max >= most   // the bucket of the largest
			if first {
				if !yield(least, 1) {
					return
				}
				n--
			}
			if last && n > 0 {
				n--
			}
			if n > 0 && !yield(min(max(b.Min+(b.Max-b.Min+1)/2, least), most), n) {
				return
			}
			if last && (!first || b.Count > 1) && !yield(most, 1) {
				return
			}
		}
	}
}

// ToHDR returns a new HdrHistogram holding the snapshot's spans, in ticks, at
// sigfigs significant figures (HdrHistogram forces it into 1 to 5). Its range
// is 1 to just above s.Max(), so it is as small as the snapshot allows;
// to add snapshots to one HdrHistogram of a wider range, use [AddToHDR]. The
// HdrHistogram's quantiles are within [counter.QuantileError] plus its own
// error (HdrHistogram reports the top of its bucket, less than 2⁻¹⁰ above the
// value at 3 figures and 2⁻⁷ at 2) of the exact spans', and its minimum and
// maximum are those HdrHistogram reports after a RecordValue of each span.
func ToHDR(s *counter.Snapshot, sigfigs int) *hdrhistogram.Histogram {
	highest := int64(s.Max())
	if highest < math.MaxInt64 {
		// HdrHistogram may leave its highest trackable value itself out.
		highest++
	}
	h := hdrhistogram.New(1, max(highest, 2), sigfigs)
	AddToHDR(h, s)
	return h
}

// AddToHDR adds the snapshot's spans to h, in ticks, with one RecordValues
// call for each of [Values], at most two more than the snapshot has buckets.
// It returns how many spans h could not record because their value is past
// h's range; those are left out of h.
func AddToHDR(h *hdrhistogram.Histogram, s *counter.Snapshot) (dropped uint64) {
	for v, n := range Values(s) {
		if h.RecordValues(int64(v), int64(n)) != nil {
			dropped += n
		}
	}
	return dropped
}

// ToPrometheus returns a Prometheus classic histogram, in seconds at rate r,
// of the snapshot's spans, as [prometheus.NewConstHistogram] makes it: its
// sample count is s.Count(), its sample sum [SumSeconds], and the cumulative
// count of each upper bound b of upperBounds (in seconds, in any order; the
// +Inf bucket is implicit) is the number of spans whose value of [Values],
// in seconds, is at most b. So a span x counts toward b exactly where x ≤ b,
// but for spans within b·[counter.QuantileError] of b, which may count
// toward the bound on either side of them.
//
// desc and labelValues are as NewConstHistogram takes them; ToPrometheus
// returns NewConstHistogram's errors, and [ErrZeroRate] at the zero
// TickRate. It is meant for a [prometheus.Collector]'s Collect, with a
// snapshot of the interval being reported.
func ToPrometheus(desc *prometheus.Desc, s *counter.Snapshot, r counter.TickRate, upperBounds []float64, labelValues ...string) (prometheus.Metric, error) {
	if r.Hertz() == 0 {
		return nil, ErrZeroRate
	}
	bounds := slices.Clone(upperBounds)
	slices.Sort(bounds)
	// in[i] counts the spans whose value is above bounds[i-1] and at most
	// bounds[i]; in[len(bounds)] those above every bound.
	in := make([]uint64, len(bounds)+1)
	for v, n := range Values(s) {
		in[sort.SearchFloat64s(bounds, Seconds(v, r))] += n
	}
	cumulative := make(map[float64]uint64, len(bounds))
	var n uint64
	for i, ub := range bounds {
		n += in[i]
		cumulative[ub] = n
	}
	return prometheus.NewConstHistogram(desc, s.Count(), SumSeconds(s, r), cumulative, labelValues...)
}

// NativeSchema is the schema of the Prometheus native histograms that
// client_golang's Histogram keeps for a NativeHistogramBucketFactor of 1.1,
// the factor its documentation recommends: 8 buckets a doubling, each
// 2^(1/8) ≈ 1.09 times as wide as the one before.
const NativeSchema = 3

// ToPrometheusNative returns a Prometheus native histogram, in seconds at
// rate r, of the snapshot's spans, as [prometheus.NewConstNativeHistogram]
// makes it: its sample count is s.Count(), its sample sum [SumSeconds], and
// each span is in the native bucket of the given schema (−4 to 8; see
// [NativeSchema]) that holds its value of [Values] in seconds: the bucket a
// client_golang Histogram's Observe of that value picks, but for a value
// within a rounding error of a bucket's bound, which may go to either side.
// Spans of value 0 are in the zero bucket, whose threshold is
// [prometheus.DefNativeHistogramZeroThreshold]; every other span, at least
// one tick, is above it at any rate.
//
// Native buckets are wider than the Snapshot's: at schema 3 a bucket's
// bounds are a factor of 2^(1/8) apart, over twenty times the Snapshot's
// relative error, [counter.QuantileError], so the conversion keeps less
// than the Snapshot knows.
//
// created is the histogram's created timestamp, which Prometheus reads as
// the time its counts started from zero: the start of the first interval
// merged into s. desc and labelValues are as NewConstNativeHistogram takes
// them; ToPrometheusNative returns its errors, and [ErrZeroRate] at the
// zero TickRate.
func ToPrometheusNative(desc *prometheus.Desc, s *counter.Snapshot, r counter.TickRate, schema int32, created time.Time, labelValues ...string) (prometheus.Metric, error) {
	if r.Hertz() == 0 {
		return nil, ErrZeroRate
	}
	if schema < -4 || schema > 8 {
		return nil, errors.New("export: a native histogram's schema is -4 to 8")
	}
	var bounds []float64
	if schema > 0 {
		// bounds[j] is the top of the j-th native bucket of a doubling, as
		// a fraction of math.Frexp: 2^(j/2^schema − 1).
		n := 1 << schema
		bounds = make([]float64, n)
		for j := range bounds {
			bounds[j] = math.Exp2(float64(j)/float64(n) - 1)
		}
	}
	positive := make(map[int]int64)
	var zero uint64
	for v, n := range Values(s) {
		if v == 0 {
			zero += n
			continue
		}
		positive[nativeKey(Seconds(v, r), schema, bounds)] += int64(n)
	}
	return prometheus.NewConstNativeHistogram(desc, s.Count(), SumSeconds(s, r), positive, nil, zero,
		schema, prometheus.DefNativeHistogramZeroThreshold, created, labelValues...)
}

// nativeKey returns the index of the native bucket of the schema that holds
// the positive value v: the bucket i holds (2^((i−1)/2^schema),
// 2^(i/2^schema)]. bounds are as ToPrometheusNative makes them.
func nativeKey(v float64, schema int32, bounds []float64) int {
	frac, exp := math.Frexp(v) // v = frac·2^exp, frac in [0.5, 1)
	if schema > 0 {
		return sort.SearchFloat64s(bounds, frac) + (exp-1)*len(bounds)
	}
	// A power of two is the top of its bucket.
	if frac == 0.5 {
		exp--
	}
	// Each bucket spans 2^-schema doublings: round the doubling up.
	return (exp + 1<<-schema - 1) >> -schema
}
