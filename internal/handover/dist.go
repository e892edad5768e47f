package handover

import "math/bits"

// A Dist is a distribution as a reader holds it: the sum of tallies and of
// records placed one by one, in 64-bit counts. The root package's Snapshot
// is one. The zero Dist is empty.
type Dist struct {
	counted[uint64]
	// count is the sum of counts.
	count uint64
}

// Counts returns the Dist's count of each bucket.
func (s *Dist) Counts() *[NumBuckets]uint64 { return &s.counts }

// Count returns the number of spans in the buckets.
func (s *Dist) Count() uint64 { return s.count }

// Sum returns the 128-bit sum of the spans in the buckets.
func (s *Dist) Sum() (hi, lo uint64) { return s.hi, s.lo }

// Min returns the smallest span in the buckets, 0 where there is none.
func (s *Dist) Min() int64 { return s.min }

// Max returns the largest span in the buckets, 0 where there is none.
func (s *Dist) Max() int64 { return s.max }

// Negative returns the count of negative spans.
func (s *Dist) Negative() uint64 { return s.negative }

// Migrated returns the count of spans whose reads came from two CPUs.
func (s *Dist) Migrated() uint64 { return s.migrated }

// UnknownCPU returns the count of spans in the buckets whose CPU was -1.
func (s *Dist) UnknownCPU() uint64 { return s.unknownCPU }

// Reset empties the Dist.
func (s *Dist) Reset() {
	if s.count != 0 {
		clear(s.counts[:])
	}
	s.count, s.lo, s.hi = 0, 0, 0
	s.min, s.max = 0, 0
	s.negative, s.migrated, s.unknownCPU = 0, 0, 0
}

// Empty reports whether the Dist holds nothing, not even a span counted
// apart.
func (s *Dist) Empty() bool {
	return s.count == 0 && s.negative == 0 && s.migrated == 0 && s.unknownCPU == 0
}

// Merge adds the spans of o to the Dist.
func (s *Dist) Merge(o *Dist) {
	if o.count != 0 {
		for i, c := range &o.counts {
			s.counts[i] += c
		}
		s.merge(o.count, o.lo, o.hi, o.min, o.max)
	}
	s.negative += o.negative
	s.migrated += o.migrated
	s.unknownCPU += o.unknownCPU
}

// merge adds n spans of 128-bit sum hi:lo, from least to most, to the
// figures other than the counts.
func (s *Dist) merge(n, lo, hi uint64, least, most int64) {
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

// addTally adds a tally's spans. The tally is complete, or a copy of one.
func (s *Dist) addTally(t *Tally) {
	var n uint64
	if t.max >= 0 {
		for i, c := range &t.counts {
			s.counts[i] += uint64(c)
			n += uint64(c)
		}
		s.merge(n, t.lo, t.hi, t.min, t.max)
	}
	s.negative += uint64(t.negative)
	s.migrated += uint64(t.migrated)
	s.unknownCPU += uint64(t.unknownCPU)
}

// Add adds one record of kind k and span d, as a writer counts it.
func (s *Dist) Add(k Kind, d int64) {
	*s.of(k, d)++
	if k.summed() && d >= 0 {
		s.merge(1, uint64(d), 0, d, d)
		if k == KindUnknown {
			s.unknownCPU++
		}
	}
}
