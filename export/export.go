// Package export holds what every exporter of a [counter.Histogram] shares:
// spans in seconds, the values at which a [counter.Snapshot]'s spans are
// counted, exponential bucket indexes, a [Feed] that lets several readers
// take a Histogram's intervals each for themselves, and what a running
// total needs to take each Interval at the cost of its buckets ([Totals],
// [Ends], [Memo], [IndexedBuckets], [Direct]).
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
// This package needs nothing beyond the counter module.
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
package export

import (
	"errors"
	"iter"
	"math"
	"math/bits"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/handover"
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
	if sum := s.Sum(); sum < math.MaxInt64 {
		return Seconds(sum, r)
	}
	return Seconds(s.Mean(), r) * float64(s.Count())
}

// NumBuckets is how many buckets a [counter.Snapshot] has, over every span
// from 0 to 2⁶³−1 ticks: BucketIndex numbers them from 0 to NumBuckets−1.
const NumBuckets = handover.NumBuckets

// BucketIndex returns the place of b, a bucket of a [counter.Snapshot],
// among all of a Snapshot's buckets, from 0 for the span 0 to
// NumBuckets−1: the same place in every Snapshot, so that an exporter may
// keep what it makes of a bucket in a table of NumBuckets entries.
func BucketIndex(b counter.Bucket) int { return int(handover.BucketOf(uint64(b.Min))) }

// IndexedBuckets ranges over the buckets of s that hold a span, as
// [counter.Snapshot.Buckets] does, from the shortest spans to the longest,
// but with each bucket's [BucketIndex] in place of its bounds, and its
// count: for an exporter that keeps what it makes of a bucket by index (a
// [Memo]), a step a bucket, without working out its bounds and then its
// index back from them. [BucketAt] gives an index's bounds. s must not be
// nil, nor change while the range runs.
func IndexedBuckets(s *counter.Snapshot) iter.Seq2[int, uint64] {
	return handover.SnapshotDist(s).Buckets()
}

// Totals are the figures of the spans of the Snapshots added to them,
// without their buckets: what an exporter's running total keeps beside
// buckets of its own (an exponential histogram's), at a fixed 56 bytes
// whatever the spans' range, and added to at a fixed cost. The zero Totals
// hold no span.
type Totals struct {
	count      uint64
	hi, lo     uint64 // the exact sum, 128 bits
	min, max   counter.Tickdelta
	neg, moved uint64
}

// Add adds the figures of s to t: t's figures are then those of the
// Snapshot that s and every Snapshot added before it merge into.
func (t *Totals) Add(s *counter.Snapshot) {
	t.neg += s.Negative()
	t.moved += s.Migrated()
	n := s.Count()
	if n == 0 {
		return
	}
	if t.count == 0 {
		t.min, t.max = s.Min(), s.Max()
	} else {
		t.min, t.max = min(t.min, s.Min()), max(t.max, s.Max())
	}
	t.count += n
	hi, lo := s.Sum128()
	var carry uint64
	t.lo, carry = bits.Add64(t.lo, lo, 0)
	t.hi += hi + carry
}

// Count, Min, Max, Negative and Migrated are those of
// [counter.Snapshot], of the spans added.
func (t *Totals) Count() uint64          { return t.count }
func (t *Totals) Min() counter.Tickdelta { return t.min }
func (t *Totals) Max() counter.Tickdelta { return t.max }
func (t *Totals) Negative() uint64       { return t.neg }
func (t *Totals) Migrated() uint64       { return t.moved }

// Seconds returns the sum of the spans added in seconds at rate r, as
// [SumSeconds] returns it for the Snapshot they merge into.
func (t *Totals) Seconds(r counter.TickRate) float64 {
	if t.hi == 0 && t.lo < math.MaxInt64 {
		return Seconds(counter.Tickdelta(t.lo), r)
	}
	// As Snapshot.Mean: hi < count, as every span is below 2⁶³.
	q, rem := bits.Div64(t.hi, t.lo, t.count)
	if rem >= t.count-rem {
		q++
	}
	return Seconds(counter.Tickdelta(q), r) * float64(t.count)
}

// Values returns the values at which exporters count the snapshot's spans,
// from the least, each with how many spans it stands for: the smallest span
// at s.Min() and the largest at s.Max(), exactly, and the other spans of each
// bucket at its middle, Min+(Max−Min+1)/2, moved into [s.Min(), s.Max()]
// where the bucket reaches past them. These are the values
// [counter.Snapshot.Quantile] reports, each within [counter.QuantileError]
// of every span it stands for. There are at most two more of them than the
// snapshot has buckets. Values(s) is [BucketValues] of each of s.Buckets()
// in turn, with s.Min() and s.Max().
func Values(s *counter.Snapshot) iter.Seq2[counter.Tickdelta, uint64] {
	return func(yield func(counter.Tickdelta, uint64) bool) {
		least, most := s.Min(), s.Max()
		for b := range s.Buckets() {
			if !bucketValues(b, least, most, yield) {
				return
			}
		}
	}
}

// BucketValues returns the values at which [Values] counts the spans of b,
// a bucket of a snapshot whose smallest span is least and largest is most,
// from the least: all b.Count of them at [Middle](b) where b holds neither
// least nor most (b.Min > least and b.Max < most), and otherwise least and
// most once each where b holds them and the rest at the middle moved into
// [least, most]. It serves an exporter that keeps counts of its own across
// snapshots merged one into another: a bucket's values change only while it
// is the first or the last.
func BucketValues(b counter.Bucket, least, most counter.Tickdelta) iter.Seq2[counter.Tickdelta, uint64] {
	return func(yield func(counter.Tickdelta, uint64) bool) {
		bucketValues(b, least, most, yield)
	}
}

// Middle returns the value at which [Values] counts every span of b where
// b holds neither the snapshot's smallest span nor its largest: its middle,
// b.Min+(b.Max−b.Min+1)/2, rounded up to a tick where b's width is even.
// It is [BucketValues] of such a bucket without an iterator, for an exporter
// that counts many.
func Middle(b counter.Bucket) counter.Tickdelta { return b.Min + (b.Max-b.Min+1)/2 }

// bucketValues calls yield with each of BucketValues(b, least, most) and
// reports whether yield asked for more.
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
	if n > 0 && !yield(min(max(Middle(b), least), most), n) {
		return false
	}
	if last && (!first || b.Count > 1) && !yield(most, 1) {
		return false
	}
	return true
}

// BucketAt returns the bucket of index i, from 0 to NumBuckets−1, with a
// Count of 0: the inverse of BucketIndex.
func BucketAt(i int) counter.Bucket {
	lo, width := handover.BucketBounds(i)
	return counter.Bucket{Min: counter.Tickdelta(lo), Max: counter.Tickdelta(lo + width - 1)}
}
