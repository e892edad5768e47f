package counter

import (
	"iter"
	"math"
	"math/bits"
	"strconv"

	"github.com/tickstamp/counter/internal/handover"
)

// A Snapshot is a distribution of spans, in ticks, as [Histogram.Interval]
// or [Counter.Floor] filled it; convert its figures with
// [Tickdelta.Duration]. Its count, sum, minimum and maximum are exact, and
// each quantile is within [QuantileError] of the exact order statistic.
// Negative spans and spans that changed CPU are counted apart and are in
// none of those.
//
// Its memory follows its spans: 176 bytes, and about 1⅛ bytes a bucket of
// the window from its shortest span to its longest (n(a, b) in
// [Histogram]'s doc) while no bucket counts more than 255 spans, 4⅛ once
// one does, and 8⅛ once one counts more than 2³²−1 (Snapshot(a, b)
// there). It widens the window by a quarter as spans outside it arrive,
// and keeps the window and the width of its counts through Reset, so that
// one reused as Interval's dst allocates nothing for spans like the last
// ones. It must not be copied (go vet reports it); the zero Snapshot is
// empty and ready. Its methods may be called from several goroutines at
// once while nothing changes it.
type Snapshot struct {
	d handover.Dist
}

// mustNotBeNil panics, naming the method call, where s is nil.
func (s *Snapshot) mustNotBeNil(call string) {
	if s == nil {
		panic("counter: Snapshot." + call + ": a nil *Snapshot; declare a Snapshot and pass its address")
	}
}

// QuantileError is the largest relative error of [Snapshot.Quantile] against
// the exact order statistic it estimates: a quantile q of a snapshot whose
// exact ⌈q·n⌉-th smallest span is x lies within x·QuantileError of x (it is
// exact for every x below 256 ticks). It is 1/(2·128): each doubling of the
// span is cut into 128 buckets.
const QuantileError = 1.0 / 256

// Reset empties the Snapshot, keeping the memory of its buckets, and the
// width of their counts, for what is added to it next.
func (s *Snapshot) Reset() {
	s.mustNotBeNil("Reset")
	s.d.Reset()
}

// Count returns how many spans the distribution holds: every span recorded
// but the negative ones and those that changed CPU.
func (s *Snapshot) Count() uint64 {
	s.mustNotBeNil("Count")
	return s.d.Count()
}

// Min returns the smallest span of the distribution, exactly; 0 where it is
// empty.
func (s *Snapshot) Min() Tickdelta {
	s.mustNotBeNil("Min")
	return Tickdelta(s.d.Min())
}

// Max returns the largest span of the distribution, exactly; 0 where it is
// empty.
func (s *Snapshot) Max() Tickdelta {
	s.mustNotBeNil("Max")
	return Tickdelta(s.d.Max())
}

// Sum returns the sum of the distribution's spans, exactly where it is at
// most 2⁶³−1 ticks, and 2⁶³−1 where it is more (a sum kept to 128 bits,
// which [Snapshot.Mean] divides).
func (s *Snapshot) Sum() Tickdelta {
	s.mustNotBeNil("Sum")
	hi, lo := s.d.Sum()
	if hi != 0 || lo > math.MaxInt64 {
		return maxTickdelta
	}
	return Tickdelta(lo)
}

// Sum128 returns the exact sum of the distribution's spans as a 128-bit
// number, hi·2⁶⁴ + lo: what [Snapshot.Sum] saturates, for code that keeps
// sums of its own, as an exporter's running total does.
func (s *Snapshot) Sum128() (hi, lo uint64) {
	s.mustNotBeNil("Sum128")
	return s.d.Sum()
}

// Mean returns the mean of the distribution's spans, its exact sum divided
// by its count and rounded to the nearest tick (halves up); 0 where it is
// empty. Read the mean, not a quantile, for code shorter than the counter's
// resolution, its least increment: each span is then a whole number of
// increments, and only the mean of many averages them out (counterinfo
// reports the resolution, beside the least advance a read sees, which is
// larger where a read costs more than an increment).
func (s *Snapshot) Mean() Tickdelta {
	s.mustNotBeNil("Mean")
	n := s.d.Count()
	if n == 0 {
		return 0
	}
	// The sum is at most count·max < count·2⁶³, so hi < count and the
	// quotient fits.
	hi, lo := s.d.Sum()
	q, rem := bits.Div64(hi, lo, n)
	if rem >= n-rem {
		q++
	}
	return Tickdelta(q)
}

// Negative returns how many negative spans were recorded: spans whose two
// readings crossed, as readings of two CPUs whose counters disagree can.
// They are in no other figure of the Snapshot.
func (s *Snapshot) Negative() uint64 {
	s.mustNotBeNil("Negative")
	return s.d.Negative()
}

// Migrated returns how many spans were recorded by RecordCPU with two
// different CPUs ([Recorder.RecordCPU]). They are in no other figure of the
// Snapshot.
func (s *Snapshot) Migrated() uint64 {
	s.mustNotBeNil("Migrated")
	return s.d.Migrated()
}

// UnknownCPU returns how many of the distribution's spans were recorded by
// RecordCPU with CPU -1 at both ends, where the hardware did not say: a
// migration during them could not be seen.
func (s *Snapshot) UnknownCPU() uint64 {
	s.mustNotBeNil("UnknownCPU")
	return s.d.UnknownCPU()
}

// Quantile returns the span below which a fraction q of the distribution
// lies: an estimate of its k-th smallest span, k = ⌈q·n⌉ for n spans,
// within a relative error of [QuantileError], exact below 256 ticks and at
// both ends; 0 where the distribution is empty. k is computed exactly, for
// q read as the decimal it prints as (strconv.FormatFloat(q, 'g', -1, 64),
// at most 17 digits), not as the binary double: so p90 of 1,000 spans is
// the 900th, as a user means 0.9, and 1/3 is read as 0.3333333333333333.
// This is the nearest-rank convention of HdrHistogram and of numpy's
// "inverted_cdf"; the double nearest 0.9, a little above it, would give the
// 901st. k is exact for every count, beyond 2⁵³ too, and clamped to 1 to n:
// q ≤ 0 or NaN gives the smallest span, q ≥ 1 the largest.
func (s *Snapshot) Quantile(q float64) Tickdelta {
	s.mustNotBeNil("Quantile")
	n := s.d.Count()
	if n == 0 {
		return 0
	}
	least, most := s.Min(), s.Max()
	r := rank(q, n)
	switch r {
	case 1:
		return least
	case n:
		return most
	}
	var seen uint64
	for i, c := range s.d.Buckets() {
		if seen += c; seen >= r {
			lo, width := handover.BucketBounds(i)
			v := Tickdelta(lo + width/2)
			return min(max(v, least), most)
		}
	}
	return most // not reached: the counts add up to the count
}

// QuantileLess returns [Snapshot.Quantile] less floor, and 0 where that is
// negative: the span of the timed code alone, where floor is the empty span
// of the reads that took it, as [Counter.Floor] measures it. A negative
// floor, which no pair of reads has, takes nothing off.
func (s *Snapshot) QuantileLess(q float64, floor Tickdelta) Tickdelta {
	s.mustNotBeNil("QuantileLess")
	return max(s.Quantile(q)-max(floor, 0), 0)
}

// rank returns ⌈q·n⌉ within 1 to n, exactly, for q read as the shortest
// decimal that rounds to it: the digits strconv.FormatFloat(q, 'g', -1, 64)
// prints. So 0.9 is nine tenths, not the double nearest it, which is a
// little more.
func rank(q float64, n uint64) uint64 {
	if !(q > 0) {
		return 1
	}
	if q >= 1 {
		return n
	}
	// q is m·10^-p, with m of at most 17 digits and p > 0 as q < 1.
	var buf [32]byte
	b := strconv.AppendFloat(buf[:0], q, 'e', -1, 64) // d.ddde-XX
	var m uint64
	p := -1
	i := 0
	for ; b[i] != 'e'; i++ {
		if b[i] != '.' {
			m = m*10 + uint64(b[i]-'0')
			p++
		}
	}
	e := 0
	for _, c := range b[i+2:] {
		e = e*10 + int(c-'0')
	}
	if b[i+1] == '-' {
		p += e
	} else {
		p -= e
	}
	// ⌈x/(a·b)⌉ = ⌈⌈x/a⌉/b⌉, so 10^p may be divided out in steps of at
	// most 10¹⁹; once the quotient is 1 it stays 1.
	hi, lo := bits.Mul64(m, n)
	for p > 0 && (hi != 0 || lo > 1) {
		k := min(p, 19)
		d := pow10[k]
		r := hi % d
		hi /= d
		var rem uint64
		lo, rem = bits.Div64(r, lo, d)
		if rem != 0 {
			lo++
			if lo == 0 {
				hi++
			}
		}
		p -= k
	}
	return min(max(lo, 1), n)
}

// pow10 holds 10⁰ to 10¹⁹.
var pow10 = [20]uint64{
	1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// Merge adds the spans of o to the Snapshot, as if recorded into it.
func (s *Snapshot) Merge(o *Snapshot) {
	s.mustNotBeNil("Merge")
	if o == nil {
		panic("counter: Snapshot.Merge: a nil o; pass the *Snapshot whose spans to add")
	}
	s.d.Merge(&o.d)
}

// addSpan adds one span to the Snapshot, as Recorder.Record counts it.
func (s *Snapshot) addSpan(d Tickdelta) { s.d.Add(handover.KindSpan, int64(d)) }

// A Bucket is a range of spans of a [Snapshot] and how many it holds: every
// span from Min to Max, both included, counts as one of them.
type Bucket struct {
	Min, Max Tickdelta
	Count    uint64
}

// Buckets returns the Snapshot's buckets that hold a span, from the
// shortest spans to the longest: to build another library's histogram from
// it (the modules under export/ in this repository build Prometheus's,
// OpenTelemetry's and HdrHistogram's). Within a bucket, spans count as its
// middle, Min + (Max−Min+1)/2.
func (s *Snapshot) Buckets() iter.Seq[Bucket] {
	s.mustNotBeNil("Buckets")
	return func(yield func(Bucket) bool) {
		for i, c := range s.d.Buckets() {
			lo, width := handover.BucketBounds(i)
			if !yield(Bucket{Tickdelta(lo), Tickdelta(lo + width - 1), c}) {
				return
			}
		}
	}
}
