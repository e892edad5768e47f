package counter

import (
	"iter"
	"math"
	"math/bits"
)

// A Snapshot is a distribution of spans, in ticks, as [Histogram.Interval]
// or [Counter.Floor] filled it: reported in ticks, converted by the caller
// with [Tickdelta.Duration]. Its count, sum, minimum and maximum are exact,
// and each quantile is within [QuantileError] of the exact order statistic.
// Negative spans and spans that changed CPU are counted apart and are in
// none of those.
//
// A Snapshot is about 58 KB: reuse one, as Interval's dst, rather than make
// one a call. The zero Snapshot is empty and ready to use; it makes its
// buckets on its first Merge, Interval or Floor, and no method allocates
// after that. Its methods may be called from several goroutines at once
// where none of them changes it (Merge, Interval and Floor do).
type Snapshot struct {
	counts []uint64 // numBuckets long, made on first use
	count  uint64
	// lo and hi are the 128-bit sum of the counted spans.
	lo, hi                         uint64
	min, max                       Tickdelta
	negative, migrated, unknownCPU uint64
}

// reset empties the Snapshot, keeping its memory.
func (s *Snapshot) reset() {
	if s.counts == nil {
		s.counts = make([]uint64, numBuckets)
	} else {
		clear(s.counts)
	}
	s.count, s.lo, s.hi = 0, 0, 0
	s.min, s.max = 0, 0
	s.negative, s.migrated, s.unknownCPU = 0, 0, 0
}

// Count returns how many spans the distribution holds: every span recorded
// but the negative ones and those that changed CPU.
func (s *Snapshot) Count() uint64 { return s.count }

// Min returns the smallest span of the distribution, exactly; 0 where it is
// empty.
func (s *Snapshot) Min() Tickdelta { return s.min }

// Max returns the largest span of the distribution, exactly; 0 where it is
// empty.
func (s *Snapshot) Max() Tickdelta { return s.max }

// Sum returns the sum of the distribution's spans, exactly where it is at
// most 2⁶³−1 ticks, and 2⁶³−1 where it is more (a sum kept to 128 bits,
// which [Snapshot.Mean] divides).
func (s *Snapshot) Sum() Tickdelta {
	if s.hi != 0 || s.lo > math.MaxInt64 {
		return maxTickdelta
	}
	return Tickdelta(s.lo)
}

// Mean returns the mean of the distribution's spans, its exact sum divided
// by its count and rounded to the nearest tick (halves up); 0 where it is
// empty. Read the mean, not a quantile, for code shorter than the counter's
// smallest step: each span is then a whole number of steps, and only the
// mean of many averages the steps out (counterinfo reports the step).
func (s *Snapshot) Mean() Tickdelta {
	if s.count == 0 {
		return 0
	}
	// The sum is at most count·max < count·2⁶³, so hi < count and the
	// quotient fits.
	q, rem := bits.Div64(s.hi, s.lo, s.count)
	if rem >= s.count-rem {
		q++
	}
	return Tickdelta(q)
}

// Negative returns how many negative spans were recorded: spans whose two
// readings crossed, as readings of two CPUs whose counters disagree can.
// They are in no other figure of the Snapshot.
func (s *Snapshot) Negative() uint64 { return s.negative }

// Migrated returns how many spans were recorded by RecordCPU with two
// different CPUs ([Recorder.RecordCPU]). They are in no other figure of the
// Snapshot.
func (s *Snapshot) Migrated() uint64 { return s.migrated }

// UnknownCPU returns how many of the distribution's spans were recorded by
// RecordCPU with CPU -1 at both ends, where the hardware did not say: a
// migration during them could not be seen.
func (s *Snapshot) UnknownCPU() uint64 { return s.unknownCPU }

// Quantile returns the span below which a fraction q of the distribution
// lies: an estimate of its ⌈q·n⌉-th smallest span (the smallest for q ≤ 0
// or NaN, the largest for q ≥ 1) within a relative error of
// [QuantileError], exact below 256 ticks and at both ends. It is 0 where
// the distribution is empty.
func (s *Snapshot) Quantile(q float64) Tickdelta {
	if s.count == 0 {
		return 0
	}
	r := rank(q, s.count)
	switch r {
	case 1:
		return s.min
	case s.count:
		return s.max
	}
	var seen uint64
	for i, c := range s.counts {
		if seen += c; seen >= r {
			lo, width := bucketBounds(i)
			v := Tickdelta(lo + width/2)
			return min(max(v, s.min), s.max)
		}
	}
	return s.max // not reached: the counts add up to s.count
}

// QuantileLess returns [Snapshot.Quantile] less floor, and 0 where that is
// negative: the span of the timed code alone, where floor is the empty span
// of the reads that took it, as [Counter.Floor] measures it. A negative
// floor, which no pair of reads has, takes nothing off.
func (s *Snapshot) QuantileLess(q float64, floor Tickdelta) Tickdelta {
	return max(s.Quantile(q)-max(floor, 0), 0)
}

// rank returns ⌈q·n⌉, exactly, within 1 to n.
func rank(q float64, n uint64) uint64 {
	if !(q > 0) {
		return 1
	}
	if q >= 1 {
		return n
	}
	// q is m·2^(e-53) with m a 53-bit integer and e ≤ 0, so q·n is the
	// 128-bit product m·n shifted right by 53-e, rounded up.
	frac, e := math.Frexp(q)
	m := uint64(frac * (1 << 53))
	hi, lo := bits.Mul64(m, n)
	shift := uint(53 - e)
	var r uint64
	switch {
	case shift >= 128:
		r = 1
	case shift >= 64:
		r = hi >> (shift - 64)
		if lo != 0 || hi<<(128-shift) != 0 {
			r++
		}
	default:
		r = hi<<(64-shift) | lo>>shift
		if lo<<(64-shift) != 0 {
			r++
		}
	}
	return min(max(r, 1), n)
}

// Merge adds the spans of o to the Snapshot, as if recorded into it.
func (s *Snapshot) Merge(o *Snapshot) {
	if s.counts == nil {
		s.reset()
	}
	if o.count != 0 {
		for i, c := range o.counts {
			s.counts[i] += c
		}
		s.merge(o.count, o.lo, o.hi, o.min, o.max)
	}
	s.negative += o.negative
	s.migrated += o.migrated
	s.unknownCPU += o.unknownCPU
}

// merge adds n spans of 128-bit sum hi:lo, from least to most, to the
// Snapshot's figures other than its counts.
func (s *Snapshot) merge(n, lo, hi uint64, least, most Tickdelta) {
	if s.count == 0 {
		s.min, s.max = least, most
	} else {
		s.min, s.max = min(s.min, least), max(s.max, most)
	}
	s.count += n
	var carry uint64
	s.lo, carry = bits.Add64(s.lo, lo, 0)
	s.hi += hi + carry
}

// addTally adds a tally's spans to the Snapshot, which has been reset.
func (s *Snapshot) addTally(t *tally) {
	var n uint64
	if t.max >= 0 {
		for i, c := range t.counts {
			s.counts[i] += uint64(c)
			n += uint64(c)
		}
		s.merge(n, t.lo, t.hi, t.min, t.max)
	}
	s.negative += t.negative
	s.migrated += t.migrated
	s.unknownCPU += t.unknownCPU
}

// record adds one span to the Snapshot, which has been reset.
func (s *Snapshot) record(d Tickdelta) {
	if d < 0 {
		s.negative++
		return
	}
	s.counts[bucketOf(uint64(d))]++
	s.merge(1, uint64(d), 0, d, d)
}

// A Bucket is a range of spans of a [Snapshot] and how many it holds: every
// span from Min to Max, both included, counts as one of them.
type Bucket struct {
	Min, Max Tickdelta
	Count    uint64
}

// Buckets returns the Snapshot's buckets that hold a span, from the
// shortest spans to the longest: to build another library's histogram from
// it (examples/export in this repository builds HdrHistogram's and
// Prometheus's). Within a bucket, spans count as its middle,
// Min + (Max−Min+1)/2.
func (s *Snapshot) Buckets() iter.Seq[Bucket] {
	return func(yield func(Bucket) bool) {
		for i, c := range s.counts {
			if c == 0 {
				continue
			}
			lo, width := bucketBounds(i)
			if !yield(Bucket{Tickdelta(lo), Tickdelta(lo + width - 1), c}) {
				return
			}
		}
	}
}
