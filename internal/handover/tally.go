package handover

import (
	"math"
	"sync/atomic"
)

// A Tally is what one writer has recorded into since the reader last took
// its tallies: one goroutine writes it at a time, with the stores of
// store_*.go, and the reader reads it with atomic loads (see the package
// doc).
type Tally struct {
	// counted's counts are 32 bits, which keeps a tally small enough to
	// stay in the level-1 cache; a bucket about to overflow makes its
	// writer put a fresh tally in front (see Writer.slow). An empty tally
	// has max < 0.
	counted[uint32]
	// tag holds the tally's generation at genShift: it counts the tallies
	// installed in a writer, modulo 4, so that a record's journal says
	// which one it wrote. It is set before the tally is installed and never
	// while installed.
	tag uint64
	// prev is a full tally this one was put in front of by its writer, to
	// be collected with it.
	prev *Tally
}

// closed is the tally of a writer that has none: every count is full, so
// that each path of a record goes to Writer.slow, which attaches one.
// Nothing writes it.
var closed = func() *Tally {
	t := new(Tally)
	for i := range t.counts {
		t.counts[i] = math.MaxUint32
	}
	t.negative, t.migrated, t.unknownCPU = math.MaxUint32, math.MaxUint32, math.MaxUint32
	return t
}()

// reset empties t.
func (t *Tally) reset() {
	clear(t.counts[:])
	t.lo, t.hi = 0, 0
	t.min, t.max = math.MaxInt64, -1
	t.negative, t.migrated, t.unknownCPU = 0, 0, 0
	t.prev = nil
}

// newTally returns an empty tally.
func newTally() *Tally {
	t := new(Tally) // counts already zero
	t.min, t.max = math.MaxInt64, -1
	return t
}

// load copies t into dst with atomic loads, as its writer may store to it
// meanwhile, and returns dst.
func (dst *Tally) load(t *Tally) *Tally {
	for i := range t.counts {
		dst.counts[i] = atomic.LoadUint32(&t.counts[i])
	}
	dst.lo = atomic.LoadUint64(&t.lo)
	dst.hi = atomic.LoadUint64(&t.hi)
	dst.min = atomic.LoadInt64(&t.min)
	dst.max = atomic.LoadInt64(&t.max)
	dst.negative = atomic.LoadUint32(&t.negative)
	dst.migrated = atomic.LoadUint32(&t.migrated)
	dst.unknownCPU = atomic.LoadUint32(&t.unknownCPU)
	return dst
}

// gen returns the tally's generation.
func (t *Tally) gen() uint64 { return t.tag >> genShift }

// setGen sets the tally's generation to g modulo 4.
func (t *Tally) setGen(g uint64) { t.tag = g & genMask << genShift }

// The words of a tally that a record changes, but for the count of its
// span's bucket, which only a span of 0 changes alone (zero, counts[0]).
type words struct {
	lo, hi                               uint64
	zero, negative, migrated, unknownCPU uint32
}

// wordsOf returns t's words, which its writer may be storing to.
func wordsOf(t *Tally) words {
	return words{
		lo: atomic.LoadUint64(&t.lo), hi: atomic.LoadUint64(&t.hi),
		zero:       atomic.LoadUint32(&t.counts[0]),
		negative:   atomic.LoadUint32(&t.negative),
		migrated:   atomic.LoadUint32(&t.migrated),
		unknownCPU: atomic.LoadUint32(&t.unknownCPU),
	}
}

// wordsSince returns the one record that turned a tally's words w into v,
// and false for none: the inverse of counted.of, for the words it changes.
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
