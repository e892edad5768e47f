package handover

import (
	"math"
	"sync/atomic"
	"unsafe"
)

// A Tally is what one writer has recorded into since the reader last took
// its tallies: one goroutine writes it at a time, with the stores of
// store_*.go, and the reader reads it with atomic loads (see the package
// doc).
//
// It counts the buckets of one window, from off to off+size()−1, which is
// fixed while the tally is installed: a span outside it, like a bucket
// about to overflow, makes its writer put a fresh tally with a wider
// window in front (see Writer.slow), and the reader sizes the window of
// each tally it installs to the spans of the one it takes. So a tally
// holds the part of the range its writer's spans lately covered. Its
// counts are as narrow as they can be: a byte each, until one would pass
// 255 and the writer puts a tally of 32-bit counts in front.
type Tally struct {
	// small are the counts of a narrow tally's window, a byte each, and
	// counts those of a wide one, 32 bits each: one of the two is empty.
	// Both lie in store, whose words past the window are zero.
	small  []uint8
	counts []uint32
	store  []uint32
	// wide says the tally's counts are 32 bits; for a bare tally, that the
	// tally the writer fills in its place is to be wide too.
	wide bool
	// bare says the reader installed the tally in place of one it took:
	// it takes no record of any kind (countOf), so that a record that
	// loads it puts a tally in front and begins another record, and one
	// that the reader finds ended wrote a tally loaded before the swap.
	bare bool
	// emptied says that the reader took every count (Dist.addTally), so
	// that reset has none to look for; the reader's alone.
	emptied bool
	off     uint64
	// plan is the width of the window a bare tally, one with no counts,
	// stands for: the reader installs one in place of the tally it takes,
	// and the writer's first span puts a tally of that window in front of
	// it, so that a writer that records no more holds no counts.
	plan uint64
	// lo and hi are the 128-bit sum of the spans in counts.
	lo, hi uint64
	// touched has bit c%64 set for each chunk c of touchChunk counts of
	// the window (counts c·touchChunk on) that a record stored to: each
	// record sets its bit beside its count (see the package doc's table),
	// so that the reader looks for counts not 0 only in the chunks it
	// names, in proportion to the spans recorded, not to the window. A
	// window past 64 chunks has chunks c, c+64, … share bit c.
	touched uint64
	// min and max are the smallest and largest span in counts; an empty
	// tally has max < 0.
	min, max int64
	// negative counts spans below zero, migrated the spans whose reads
	// came from two CPUs, and unknownCPU the spans of counts whose CPU was
	// -1.
	negative, migrated, unknownCPU uint32
	// tag holds the tally's generation at genShift, so that a record's
	// journal says which tally it wrote: it counts the reader's swaps of
	// the writer's tally, modulo 4. A tally the writer puts in front of
	// another takes that one's generation: the tallies in front of the one
	// the reader installed are all one candidate for a record in flight, as
	// only the newest can be written by the writer's last record (see the
	// package doc). It is set before the tally is installed and never while
	// installed.
	tag uint64
	// prev is a tally this one was put in front of by its writer, to be
	// collected with it.
	prev *Tally
	// ex holds the exemplars of the tally's records (Writer.RecordExemplar),
	// nil until its writer records one: such a record puts a tally that
	// keeps them in front of one that does not, as it does for a window
	// too narrow. It stays with the tally when it becomes a spare.
	ex *exemplars
}

// touchShift and touchChunk size the chunks of Tally.touched: 32 counts,
// so that a window of up to 2,048 buckets, 16 doublings, has a bit for
// each chunk, of a byte's counts half a cache line.
const touchShift, touchChunk = 5, 1 << 5

// touchBit returns the bit of Tally.touched of count i of a window.
func touchBit(i uint64) uint64 { return 1 << (i >> touchShift & 63) }

// keepExemplars gives t, which is not installed, slots for exemplars.
func (t *Tally) keepExemplars() {
	if t.ex == nil {
		t.ex = new(exemplars)
		*t.ex = emptyExemplars
	}
}

// closed is the tally of a writer that has none: its window is empty and
// every count apart full, so that each path of a record goes to
// Writer.slow, which attaches one. Nothing writes it.
var closed = &Tally{
	min: math.MaxInt64, max: -1,
	negative: math.MaxUint32, migrated: math.MaxUint32, unknownCPU: math.MaxUint32,
}

// countOf returns the count of place p (placeOf's) in t and the most it
// may hold, or false where p is a bucket outside the window.
func (t *Tally) countOf(p int) (c, most uint32, ok bool) {
	if t.bare {
		return 0, 0, false
	}
	switch p {
	case placeMigrated:
		return t.migrated, math.MaxUint32, true
	case placeNegative:
		return t.negative, math.MaxUint32, true
	}
	i := uint64(p) - t.off
	if i < uint64(len(t.small)) {
		return uint32(t.small[i]), math.MaxUint8, true
	}
	if i < uint64(len(t.counts)) {
		return t.counts[i], math.MaxUint32, true
	}
	return 0, 0, false
}

// setCount stores c, at most countOf's most, as the count of place p, in
// t's window or apart: the writer's store (store_*.go).
func (t *Tally) setCount(p int, c uint32) {
	switch p {
	case placeMigrated:
		store32(&t.migrated, c)
	case placeNegative:
		store32(&t.negative, c)
	default:
		if i := uint64(p) - t.off; i < uint64(len(t.small)) {
			store8(&t.small[i], uint8(c))
		} else {
			store32(&t.counts[i], c)
		}
	}
}

// size returns how many buckets t's window has: none where t is bare.
func (t *Tally) size() uint64 { return uint64(len(t.small) + len(t.counts)) }

// words returns how many words of store t's counts take.
func (t *Tally) words() int {
	if t.wide {
		return len(t.counts)
	}
	return (len(t.small) + 3) / 4
}

// window returns the window of buckets t counts, or stands for where it
// is bare.
func (t *Tally) window() (from, to uint64) {
	return t.off, t.off + max(t.size(), t.plan)
}

// reset empties t, keeping its window: none of its counts where the
// reader took them all (emptied), and otherwise the chunks its touched
// bits name, which hold every count not 0 of a tally no record may write
// any more.
func (t *Tally) reset() {
	if !t.emptied {
		n := int(t.size())
		for c := 0; c<<touchShift < n; c++ {
			if t.touched>>(c&63)&1 == 0 {
				continue
			}
			from, to := c<<touchShift, min(n, (c+1)<<touchShift)
			if t.wide {
				clear(t.counts[from:to])
			} else {
				clear(t.small[from:to])
			}
		}
	}
	t.emptied = false
	t.lo, t.hi, t.touched = 0, 0, 0
	t.min, t.max = math.MaxInt64, -1
	t.negative, t.migrated, t.unknownCPU = 0, 0, 0
	t.prev = nil
	t.plan = 0
	if t.ex != nil {
		*t.ex = emptyExemplars
	}
}

// perWord returns how many counts of a tally, wide or not, a word holds.
func perWord(wide bool) uint64 {
	if wide {
		return 1
	}
	return 4
}

// fit gives t, which is empty and not installed, a window that holds
// [from, to), of counts wide or not: in its storage where that has room,
// as wide as the storage and centred on [from, to), so that a tally that
// once held a wider range takes a writer's spans around these without
// widening.
func (t *Tally) fit(from, to uint64, wide bool) {
	t.plan, t.wide, t.bare = 0, wide, false
	n, per := to-from, perWord(wide)
	c := uint64(cap(t.store)) * per
	if c < n {
		t.store = make([]uint32, (n+per-1)/per)
		c = uint64(len(t.store)) * per
		t.off = min(from, NumBuckets-min(c, NumBuckets))
	} else {
		t.off = min(from-min(from, (c-n)/2), NumBuckets-min(c, NumBuckets))
	}
	c = min(c, NumBuckets)
	t.store = t.store[:cap(t.store)] // zero: reset cleared the window
	if wide {
		t.counts, t.small = t.store[:c], nil
	} else {
		t.small, t.counts = unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(t.store))), c), nil
	}
}

// load copies t into dst with atomic loads, as its writer may store to it
// meanwhile, and returns dst. dst is the reader's own.
func (dst *Tally) load(t *Tally) *Tally {
	n := t.words()
	if cap(dst.store) < n {
		dst.store = make([]uint32, n)
	}
	dst.store = dst.store[:cap(dst.store)]
	loadCounts(dst.store[:n], t.store[:n])
	dst.wide, dst.off = t.wide, t.off
	if t.wide {
		dst.counts, dst.small = dst.store[:len(t.counts)], nil
	} else {
		dst.counts = nil
		dst.small = unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(dst.store))), len(t.small))
	}
	dst.emptied = false
	dst.lo = atomic.LoadUint64(&t.lo)
	dst.hi = atomic.LoadUint64(&t.hi)
	dst.touched = atomic.LoadUint64(&t.touched)
	dst.min = atomic.LoadInt64(&t.min)
	dst.max = atomic.LoadInt64(&t.max)
	dst.negative = atomic.LoadUint32(&t.negative)
	dst.migrated = atomic.LoadUint32(&t.migrated)
	dst.unknownCPU = atomic.LoadUint32(&t.unknownCPU)
	switch {
	case t.ex != nil:
		if dst.ex == nil {
			dst.ex = new(exemplars)
		}
		dst.ex.load(t.ex)
	case dst.ex != nil:
		*dst.ex = exemplars{} // a copy keeps its slots for the next
	}
	return dst
}

// used returns the buckets [from, to) that hold t's spans, read with
// atomic loads as its writer may be recording, and false where it holds
// none.
func (t *Tally) used() (from, to uint64, ok bool) {
	least, most := atomic.LoadInt64(&t.min), atomic.LoadInt64(&t.max)
	if most < 0 || least > most {
		return 0, 0, false
	}
	return BucketOf(uint64(least)), BucketOf(uint64(most)) + 1, true
}

// gen returns the tally's generation.
func (t *Tally) gen() uint64 { return t.tag >> genShift }

// setGen sets the tally's generation to g modulo 4.
func (t *Tally) setGen(g uint64) { t.tag = g & genMask << genShift }

// The words of a tally that a record changes, but for the count of its
// span's bucket, which only a span of 0 changes alone (zero, the count of
// bucket 0 where the window holds it).
type words struct {
	lo, hi                               uint64
	zero, negative, migrated, unknownCPU uint32
}

// wordsOf returns t's words, which its writer may be storing to.
func wordsOf(t *Tally) words {
	w := words{
		lo: atomic.LoadUint64(&t.lo), hi: atomic.LoadUint64(&t.hi),
		negative:   atomic.LoadUint32(&t.negative),
		migrated:   atomic.LoadUint32(&t.migrated),
		unknownCPU: atomic.LoadUint32(&t.unknownCPU),
	}
	switch {
	case t.off != 0 || t.size() == 0:
	case t.wide:
		w.zero = atomic.LoadUint32(&t.counts[0])
	default:
		w.zero = uint32(load8(&t.small[0]))
	}
	return w
}

// wordsSince returns the one record that turned a tally's words w into v,
// and false for none: the inverse of placeOf, for the words it changes.
func wordsSince(w, v words) (k Kind, d int64, ok bool) {
	switch {
	case v.negative != w.negative:
		return KindNegative, -1, true
	case v.migrated != w.migrated:
		return KindMigrated, 0, true
	case v.lo == w.lo && v.hi == w.hi && v.zero == w.zero:
		return KindSpan, 0, false
	case v.unknownCPU != w.unknownCPU:
		k = KindUnknown
	}
	return k, int64(v.lo - w.lo), true // a span is below 2⁶³
}
