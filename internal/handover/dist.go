package handover

import (
	"encoding/binary"
	"iter"
	"math"
	"math/bits"
	"unsafe"
)

// A Dist is a distribution as a reader holds it: the sum of tallies and of
// records placed one by one. The root package's Snapshot is one. The zero
// Dist is empty.
//
// Like a tally, it counts the buckets of one window, which it widens to
// take what is added: its memory follows the range of its spans, not the
// whole range of buckets. Its counts are as narrow as a tally's: a byte
// each until one would pass 255, then 32 bits each, and 64 once one passes
// 2³²−1, kept as two halves of 32 whose high halves are allocated only
// then. A Dist keeps the width its counts reached, Reset too, so that one
// reused for spans like the last ones widens no more. A bit a bucket marks
// the counts that are not 0, so that what reads a Dist's buckets (Buckets,
// Merge) or empties them (Reset) costs in proportion to the buckets it
// holds, and a word of bits for each 64 of its window. A Dist refers to
// its counts, so a copy would share them: go vet reports one (noCopy).
type Dist struct {
	_ noCopy
	// small are the counts of the buckets from off on of a narrow Dist,
	// a byte each, and low and high those of a wide one, low and high
	// halves; high is nil while every count fits 32 bits. small is nil
	// where low is not, and low where small is not, so that the window has
	// len(small)+len(low) buckets (size) and room for as many as the
	// capacity of the one not nil (room). The storage past the window is
	// zero, and high has low's length.
	small     []uint8
	low, high []uint32
	// used has bit j%64 of word j/64 set where the count of bucket off+j
	// is not 0, and clear where it is: its length is size() over 64,
	// rounded up, its capacity holds the bits of room() buckets (so that
	// Reset allocates none), and its storage past its length is zero.
	used []uint64
	off  uint64
	// count is the sum of counts.
	count uint64
	// lo and hi are the 128-bit sum of the spans in the buckets.
	lo, hi uint64
	// min and max are the smallest and largest span in the buckets.
	min, max int64
	// negative counts spans below zero, migrated the spans whose reads
	// came from two CPUs, and unknownCPU the spans of the buckets whose
	// CPU was -1.
	negative, migrated, unknownCPU uint64
	// ex holds the exemplars of the spans, nil until one is added; kept
	// by Reset.
	ex *exemplars
}

// noCopy makes go vet's copylocks check report a copy of what holds it.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

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

// Bytes returns the bytes the Dist's counts take: its memory beside its
// fixed part, the size of a Dist.
func (s *Dist) Bytes() int {
	n := cap(s.small) + 4*(cap(s.low)+cap(s.high)) + 8*cap(s.used)
	if s.ex != nil {
		n += int(unsafe.Sizeof(exemplars{}))
	}
	return n
}

// Buckets returns each bucket that holds a span, from the least, and its
// count.
func (s *Dist) Buckets() iter.Seq2[int, uint64] {
	return func(yield func(int, uint64) bool) {
		for w, b := range s.used {
			for ; b != 0; b &= b - 1 {
				j := w<<6 + bits.TrailingZeros64(b)
				if !yield(int(s.off)+j, s.countAt(j)) {
					return
				}
			}
		}
	}
}

// countAt returns the count of the bucket j places into the window.
func (s *Dist) countAt(j int) uint64 {
	if j < len(s.small) {
		return uint64(s.small[j])
	}
	n := uint64(s.low[j])
	if s.high != nil {
		n |= uint64(s.high[j]) << 32
	}
	return n
}

// size returns how many buckets the window has.
func (s *Dist) size() int { return len(s.small) + len(s.low) }

// room returns how many buckets the counts' storage has room for.
func (s *Dist) room() int {
	if s.low == nil {
		return cap(s.small)
	}
	if s.high != nil {
		return min(cap(s.low), cap(s.high))
	}
	return cap(s.low)
}

// setSize sets the window's length to n, at most room().
func (s *Dist) setSize(n int) {
	if s.low == nil {
		s.small = s.small[:n]
		return
	}
	s.low = s.low[:n]
	if s.high != nil {
		s.high = s.high[:n]
	}
}

// Equal reports whether s and o hold the same distribution: every figure
// and every bucket's count, whatever their windows.
func (s *Dist) Equal(o *Dist) bool {
	if s.count != o.count || s.lo != o.lo || s.hi != o.hi || s.min != o.min || s.max != o.max ||
		s.negative != o.negative || s.migrated != o.migrated || s.unknownCPU != o.unknownCPU ||
		!s.exemplarsEqual(o) {
		return false
	}
	next, stop := iter.Pull2(o.Buckets())
	defer stop()
	for i, n := range s.Buckets() {
		if j, m, ok := next(); !ok || i != j || n != m {
			return false
		}
	}
	_, _, more := next()
	return !more
}

// Reset empties the Dist, keeping its storage, the width of its counts
// and its window, which it widens to the storage: spans like the ones it
// held take no allocation.
func (s *Dist) Reset() {
	for w, b := range s.used {
		if b == 0 {
			continue
		}
		from, to := w<<6, min(w<<6+64, s.size())
		// A word's 64 counts at once where they are a byte each, or where
		// it marks more than a few: one clear of 64 or 256 bytes costs
		// less than as many steps.
		if s.low == nil {
			clear(s.small[from:to])
			continue
		}
		if bits.OnesCount64(b) > 4 {
			clear(s.low[from:to])
			if s.high != nil {
				clear(s.high[from:to])
			}
			continue
		}
		for ; b != 0; b &= b - 1 {
			j := w<<6 + bits.TrailingZeros64(b)
			s.low[j] = 0
			if s.high != nil {
				s.high[j] = 0
			}
		}
	}
	clear(s.used)
	n := s.room()
	s.setSize(n)
	s.used = bitWords(s.used, n, n)
	s.off = min(s.off, NumBuckets-uint64(n))
	s.count, s.lo, s.hi = 0, 0, 0
	s.min, s.max = 0, 0
	s.negative, s.migrated, s.unknownCPU = 0, 0, 0
	if s.ex != nil {
		*s.ex = exemplars{}
	}
}

// Empty reports whether the Dist holds nothing, not even a span counted
// apart.
func (s *Dist) Empty() bool {
	return s.count == 0 && s.negative == 0 && s.migrated == 0 && s.unknownCPU == 0
}

// cover widens the window to hold the buckets [from, to), in the storage
// it has where that has room, at the width of its counts.
func (s *Dist) cover(from, to uint64) {
	n := uint64(s.size())
	if n == 0 {
		from, to = around(from, to, 0)
		s.off = from
		if s.low == nil {
			s.small = grow(s.small, int(to-from))
		} else {
			s.low = grow(s.low, int(to-from))
			if s.high != nil {
				s.high = grow(s.high, int(to-from))
			}
		}
		s.used = bitWords(s.used, s.size(), s.room())
		return
	}
	if from >= s.off && to <= s.off+n {
		return
	}
	if s.count == 0 {
		// No bucket holds a span (a Reset one, or one of spans counted
		// apart): the window moves within the storage, all zero, where
		// that holds [from, to), as wide as the storage, so that a Dist
		// reset for each Interval does not grow a quarter at a time as
		// its spans wander past the window's last place.
		from, to = around(from, to, 0)
		if c := uint64(s.room()); to-from <= c {
			s.setSize(int(c))
			s.off = min(from-min(from, (c-(to-from))/2), NumBuckets-c)
			clear(s.used)
			s.used = bitWords(s.used, int(c), int(c))
			return
		}
	}
	from, to = around(min(from, s.off), max(to, s.off+n), 0)
	k, m := int(s.off-from), int(to-from)
	if s.low == nil {
		s.small = shift(s.small, k, m)
	} else {
		s.low = shift(s.low, k, m)
		if s.high != nil {
			s.high = shift(s.high, k, m)
		}
	}
	s.off = from
	// The counts moved: their bits are found again, a walk of the window
	// as the move was.
	clear(s.used)
	s.used = bitWords(s.used, s.size(), s.room())
	for j := range s.size() {
		if s.countAt(j) != 0 {
			s.used[j>>6] |= 1 << (j & 63)
		}
	}
}

// bitWords returns u at the length that n buckets' bits take, its storage
// zero past what it held: in u's storage where it has room for the bits of
// room buckets, the counts' capacity, else in new storage with that room,
// so that a Reset that widens the window to the counts' storage takes
// none. room is at least n.
func bitWords(u []uint64, n, room int) []uint64 {
	k, need := (n+63)>>6, (room+63)>>6
	if cap(u) < need {
		v := make([]uint64, k, need)
		copy(v, u)
		return v
	}
	return u[:k]
}

// grow returns s, empty and zero, at length n.
func grow[T uint8 | uint32](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// shift returns the counts of s moved by k places, at length n ≥ len(s)+k,
// the rest zero: in s's storage where it has room.
func shift[T uint8 | uint32](s []T, k, n int) []T {
	if cap(s) < n {
		t := make([]T, n, min(n+n/4, NumBuckets))
		copy(t[k:], s)
		return t
	}
	m := len(s)
	s = s[:n]
	copy(s[k:], s[:m])
	clear(s[:min(k, m)])
	return s
}

// addAt adds n, not 0, to the count of the bucket j places into the
// window, widening the counts where the sum would pass what theirs hold.
func (s *Dist) addAt(j int, n uint64) {
	if !s.addFits(j, n) {
		s.addWide(j, n)
	}
}

// addFits adds n, not 0, to the count of the bucket j places into the
// window where the sum fits the width it is kept in, a byte or a low half,
// and reports whether it did: the reader's step for each count, inlined,
// beside addWide for the rest.
func (s *Dist) addFits(j int, n uint64) bool {
	if j < len(s.small) {
		v := uint64(s.small[j]) + n
		if v > math.MaxUint8 {
			return false
		}
		s.small[j] = uint8(v)
	} else {
		v := uint64(s.low[j]) + n
		if v>>32 != 0 {
			return false
		}
		s.low[j] = uint32(v)
	}
	s.used[j>>6] |= 1 << (j & 63)
	return true
}

// addWide adds n, not 0, to the count of the bucket j places into the
// window, widening the counts as the sum needs: 32 bits where they are a
// byte each, and the high halves where the sum carries into them.
func (s *Dist) addWide(j int, n uint64) {
	s.used[j>>6] |= 1 << (j & 63)
	if s.low == nil {
		s.widen()
	}
	v := uint64(s.low[j]) + n
	if s.high == nil && v>>32 != 0 {
		s.high = make([]uint32, len(s.low), cap(s.low))
	}
	if s.high != nil {
		v += uint64(s.high[j]) << 32
		s.high[j] = uint32(v >> 32)
	}
	s.low[j] = uint32(v)
}

// widen makes the narrow counts 32 bits each, in new storage with the same
// room, which the bits already have.
func (s *Dist) widen() {
	low := make([]uint32, len(s.small), cap(s.small))
	for j, c := range s.small {
		low[j] = uint32(c)
	}
	s.small, s.low = nil, low
}

// Merge adds the spans of o to the Dist.
func (s *Dist) Merge(o *Dist) {
	if o.count != 0 {
		from, to := BucketOf(uint64(o.min)), BucketOf(uint64(o.max))+1
		s.cover(from, to)
		for i, n := range o.Buckets() {
			if j := i - int(s.off); !s.addFits(j, n) {
				s.addWide(j, n)
			}
		}
		s.merge(o.count, o.lo, o.hi, o.min, o.max)
		if o.ex != nil {
			s.mergeExemplars(o.ex)
		}
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

// addTally adds a tally's spans. The tally is the reader's: complete, or
// a copy of one. Its counts lie in the buckets of its minimum to its
// maximum, and there in the chunks it touched (takeTouched), which it
// empties.
func (s *Dist) addTally(t *Tally) {
	if t.max >= 0 {
		from, to := t.window()
		from = max(from, BucketOf(uint64(max(t.min, 0))))
		to = min(to, BucketOf(uint64(t.max))+1)
		var n uint64
		if from < to {
			s.cover(from, to)
			n = s.takeTouched(t, int(from-t.off), int(to-t.off))
			t.emptied = true
		}
		s.merge(n, t.lo, t.hi, t.min, t.max)
		if t.ex != nil {
			s.mergeExemplars(t.ex)
		}
	}
	s.negative += uint64(t.negative)
	s.migrated += uint64(t.migrated)
	s.unknownCPU += uint64(t.unknownCPU)
}

// takeTouched adds the counts [i, k) of a tally's window, looking only
// in the chunks its touched bits name, which hold every count not 0 there
// (see Tally.touched), and returns their sum. It empties the counts as it
// reads them: the tally is the reader's alone. So its work follows the
// chunks a writer recorded into, a step a word of counts where most are 0.
func (s *Dist) takeTouched(t *Tally, i, k int) (n uint64) {
	d := int(t.off) - int(s.off)
	for c := i >> touchShift; c<<touchShift < k; c++ {
		if t.touched>>(c&63)&1 == 0 {
			continue
		}
		from, to := max(i, c<<touchShift), min(k, (c+1)<<touchShift)
		if t.wide {
			n += s.takeWide(t.counts[from:to], d+from)
		} else {
			n += s.takeSmall(t.small[from:to], d+from)
		}
	}
	return n
}

// takeWide adds the wide counts cs, the first at place j of the window,
// and empties them; it returns their sum.
func (s *Dist) takeWide(cs []uint32, j int) (n uint64) {
	if s.small == nil && s.high == nil && len(cs) <= 64 {
		// A chunk into 32-bit counts, as a busy writer's tally is read:
		// their bits set at once, and the sums that carry past 32 bits
		// left to addWide.
		low, used := s.low[j:j+len(cs)], uint64(0)
		for x, c := range cs {
			if c == 0 {
				continue
			}
			cs[x] = 0
			n += uint64(c)
			if v := uint64(low[x]) + uint64(c); v>>32 == 0 {
				low[x] = uint32(v)
				used |= 1 << x
			} else {
				s.addWide(j+x, uint64(c))
			}
		}
		if w := j >> 6; used != 0 {
			s.used[w] |= used << (j & 63)
			if j&63 != 0 && w+1 < len(s.used) {
				s.used[w+1] |= used >> (64 - j&63)
			}
		}
		return n
	}
	for x, c := range cs {
		if c != 0 {
			cs[x] = 0
			if !s.addFits(j+x, uint64(c)) {
				s.addWide(j+x, uint64(c))
			}
			n += uint64(c)
		}
	}
	return n
}

// takeSmall adds the narrow counts cs, the first at place j of the
// window, and empties them, eight at a step; it returns their sum.
func (s *Dist) takeSmall(cs []uint8, j int) (n uint64) {
	x := 0
	for ; x+8 <= len(cs); x += 8 {
		w := binary.LittleEndian.Uint64(cs[x:]) // count x+b in byte b
		if w == 0 {
			continue
		}
		clear(cs[x : x+8])
		// The top bit of each byte of w not 0.
		const low7, top = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
		for m := ((w & low7) + low7 | w) & top; m != 0; m &= m - 1 {
			b := bits.TrailingZeros64(m) &^ 7
			c := w >> b & 0xff
			if k := j + x + b>>3; !s.addFits(k, c) {
				s.addWide(k, c)
			}
			n += c
		}
	}
	for ; x < len(cs); x++ {
		if c := cs[x]; c != 0 {
			cs[x] = 0
			if !s.addFits(j+x, uint64(c)) {
				s.addWide(j+x, uint64(c))
			}
			n += uint64(c)
		}
	}
	return n
}

// Add adds one record of kind k and span d, as a writer counts it.
func (s *Dist) Add(k Kind, d int64) {
	switch p := placeOf(k, d); p {
	case placeMigrated:
		s.migrated++
	case placeNegative:
		s.negative++
	default:
		s.cover(uint64(p), uint64(p)+1)
		s.addAt(p-int(s.off), 1)
		s.merge(1, uint64(d), 0, d, d)
		if k == KindUnknown {
			s.unknownCPU++
		}
	}
}
