package export

import (
	"math/bits"
	"unsafe"
)

// PlaceTaken adds the buckets of t, a writer's tally that a [Direct]
// hands over, to the counts of an exporter's buckets of its own, numbered
// by places shifted right by shift: the loop an exporter of exponential
// buckets runs over each Taken, as it would over [Ends.BetweenTaken], but
// in a loop that makes no call a bucket, so that a bucket costs a test of
// its mark, of its count, of an end and of its slot; on amd64 the words of
// marks whose buckets all lie between the ends go through a loop in
// assembly, which keeps its values in registers and tests no end. A
// bucket of index k ([BucketIndex]) holding n spans that lies strictly
// between the ends, whose place places has worked out ([Memo.Known]), and
// whose slot s = places(k)>>shift − off is an index of counts, adds n to
// counts[s].
//
// At the first bucket that is not so, PlaceTaken stops and returns it, by
// index and count, emptied from t, as Buckets yields one: it is the
// caller's, who places it through [Ends.TakeIndex] and [Memo.Value], and
// calls PlaceTaken again, with the shift, off and counts that this left,
// for the rest. ok is false once t holds no bucket. Each bucket is placed
// or returned once, in no promised order (those up to the first end come
// back before the others), so that the ends, and the counts of a caller
// that places what comes back, end as a loop over BetweenTaken leaves
// them. A caller that stops calling leaves the rest to t's Buckets, or to
// the Snapshot the Interval fills. shift is taken modulo 32.
//
// shift comes before places so that it arrives in CX, the register an
// amd64 shift by a variable takes.
func (e *Ends) PlaceTaken(t *Taken, shift uint, places *Memo[int32], off int32, counts []uint64) (k int, n uint64, ok bool) {
	marks, tc, base := t.marks, t.counts, t.off
	// The counts up to lo are not between the ends: they go back first,
	// one a call, so that the loop below tests the ends only once.
	if lo := min(e.lo-base, len(tc)-1); lo >= 0 && t.w <= lo>>6 {
		for w := t.w; w <= lo>>6 && w < len(marks); w++ {
			for b := marks[w] & lowBits(lo-w<<6); b != 0; b &= b - 1 {
				j := w<<6 + bits.TrailingZeros64(b)
				marks[w] &^= 1 << (j & 63)
				if c := tc[j]; c != 0 {
					tc[j] = 0
					t.n += uint64(c)
					return base + j, uint64(c), true
				}
			}
		}
	}
	// The counts before hi, past lo, are between them.
	in := tc[:max(min(e.hi-base, len(tc)), 0)]
	rows, first := &places.rows, int(off)
	shift &= 31
	sum := t.n
	// The words whose counts all lie between the ends go to placeWords
	// first, which stops at a word holding a bucket it cannot place; the
	// loop below takes it from that word on.
	w := t.w
	if end := min(len(in)>>6, len(marks), (NumBuckets-base)>>6); base >= 0 && w < end {
		w, sum = placeWords(unsafe.SliceData(marks), unsafe.SliceData(in), unsafe.SliceData(counts), rows, w, end, base, shift, first, len(counts), sum)
	}
	for ; w < len(marks); w++ {
		for b, at := marks[w], w<<6; b != 0; b &= b - 1 {
			j := at + bits.TrailingZeros64(b)
			if uint(j) < uint(len(in)) {
				c := in[j]
				if c == 0 {
					continue
				}
				kk := uint(base + j)
				if row := rows[kk/memoRowBuckets]; row != nil {
					if s := int(row[kk%memoRowBuckets]>>shift) - first; uint(s) < uint(len(counts)) {
						counts[s] += uint64(c)
						in[j] = 0
						sum += uint64(c)
						continue
					}
				}
			}
			if uint(j) >= uint(len(tc)) {
				break // not so: marks name counts
			}
			c := tc[j]
			if c == 0 {
				continue
			}
			tc[j] = 0
			t.n, t.w = sum+uint64(c), w
			marks[w] = b & (b - 1)
			return base + j, uint64(c), true
		}
		marks[w] = 0
	}
	t.n, t.w, t.done = sum, len(marks), true
	return 0, 0, false
}

// lowBits returns a word of the bits 0 to i set, i ≥ 0; all 64 from 63 on.
func lowBits(i int) uint64 {
	if i >= 63 {
		return ^uint64(0)
	}
	return 1<<(i+1) - 1
}
