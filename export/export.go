// Package export holds what every exporter of a [counter.Histogram] or a
// [counter.Family] shares: a [Source] of spans and a [Feed] that lets
// several readers take one Histogram's spans each for themselves; a
// [FamilySource] and a [FamilyFeed], the same for a Family; spans in
// seconds; the values at which a [counter.Snapshot]'s spans are counted;
// and the bucket indexes of exponential histograms ([Exponential]).
//
// The integrations are modules of their own, so that a program that exports
// to Prometheus gets no OpenTelemetry in its go.mod and the other way round:
//
//   - github.com/tickstamp/counter/export/counterprom, a Prometheus Collector;
//   - github.com/tickstamp/counter/export/counterotel, an OpenTelemetry
//     metric Producer;
//   - github.com/tickstamp/counter/export/counterhdr, conversions to
//     HdrHistogram.
//
// Each takes an Interval into a Snapshot and walks its [Values]. This
// package needs nothing beyond the counter module.
//
// # Who calls Interval
//
// [counter.Histogram.Interval] hands each span to exactly one caller. An
// exporter reads a [Source], whose Interval has the same contract; a
// *counter.Histogram is one. Where a Histogram has one reader, give the
// exporter the Histogram. Where it has several (two exporters, or an
// exporter and the application's own reports), make a [Feed] of it and give
// each reader its own [Tap]: each Tap's Interval then holds every span
// recorded since that Tap's previous Interval, whatever the other Taps took.
// Calling the Histogram's own Interval besides takes spans from all of them.
// A Family is shared the same way: an exporter reads a [FamilySource], a
// *counter.Family or a [FamilyTap] of a [FamilyFeed]. A second Feed,
// FamilyFeed or exporter of a Histogram, a Family, a Tap or a FamilyTap is
// refused with an error wrapping [ErrSecondReader].
package export

import (
	"errors"
	"iter"
	"math"

	"github.com/tickstamp/counter"
)

// ErrZeroRate is the error of a conversion to seconds at the zero
// [counter.TickRate], which is no rate.
var ErrZeroRate = errors.New("export: the zero TickRate converts no span to seconds")

// Seconds returns the span d in seconds at rate r, as a float64: it is
// d.Seconds(r) ([counter.Tickdelta.Seconds]), d divided by
// [counter.TickRate.Hertz] and rounded once, 0 at the zero TickRate.
func Seconds(d counter.Tickdelta, r counter.TickRate) float64 { return d.Seconds(r) }

// SumSeconds returns the sum of the snapshot's spans in seconds at rate r:
// [counter.Snapshot.Sum] converted with [Seconds] where the sum fits a
// Tickdelta, and otherwise [counter.Snapshot.Mean] times
// [counter.Snapshot.Count], which is the exact sum to within half a tick a
// span (Mean rounds to a tick): a relative error of at most 1/(2·Mean),
// below 10⁻⁶ wherever the mean is a million ticks or more. It is 0 at the
// zero TickRate.
func SumSeconds(s *counter.Snapshot, r counter.TickRate) float64 {
	if s == nil {
		panic("export: SumSeconds: a nil *counter.Snapshot; pass the one an Interval filled")
	}
	if sum := s.Sum(); sum < math.MaxInt64 {
		return Seconds(sum, r)
	}
	return Seconds(s.Mean(), r) * float64(s.Count())
}

// Values returns the values at which exporters count the snapshot's spans,
// from the least, each with how many spans it stands for: the smallest span
// at s.Min() and the largest at s.Max(), exactly, and the other spans of each
// bucket at its middle, Min+(Max−Min+1)/2, moved into [s.Min(), s.Max()]
// where the bucket reaches past them. These are the values
// [counter.Snapshot.Quantile] reports, each within [counter.QuantileError]
// of every span it stands for. There are at most two more of them than the
// snapshot has buckets.
func Values(s *counter.Snapshot) iter.Seq2[counter.Tickdelta, uint64] {
	if s == nil {
		panic("export: Values: a nil *counter.Snapshot; pass the one an Interval filled")
	}
	return func(yield func(counter.Tickdelta, uint64) bool) {
		least, most := s.Min(), s.Max()
		for b := range s.Buckets() {
			if b.Min > least && b.Max < most { // neither end: most buckets
				if !yield(b.Min+(b.Max-b.Min+1)/2, b.Count) {
					return
				}
			} else if !bucketValues(b, least, most, yield) {
				return
			}
		}
	}
}

// bucketValues calls yield with the values of b's spans in a snapshot
// whose smallest span is least and largest is most, from the least, and
// reports whether yield asked for more: all b.Count of them at b's middle
// where b holds neither least nor most, and otherwise least and most once
// each where b holds them and the rest at the middle moved into
// [least, most].
func bucketValues(b counter.Bucket, least, most counter.Tickdelta, yield func(counter.Tickdelta, uint64) bool) bool {
	n := b.Count
	first := b.Min <= least // the bucket of the smallest span
	last := b.Max >= most   // the bucket of the largest
	if first {
		if !yield(least, 1) {
			return false
		}
		n--
	}
	if last && n > 0 {
		n--
	}
	if mid := b.Min + (b.Max-b.Min+1)/2; n > 0 && !yield(min(max(mid, least), most), n) {
		return false
	}
	if last && (!first || b.Count > 1) && !yield(most, 1) {
		return false
	}
	return true
}
