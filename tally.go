package counter

import (
	"math"
	"sync/atomic"
)

// A tally is what one writer has recorded into since Interval last took
// its tallies: one goroutine writes it at a time, with the stores of
// publish_*.go, and Interval reads it with atomic loads (see rec).
type tally struct {
	// counts holds the spans of each bucket. 32 bits keep a tally small
	// enough to stay in the level-1 cache; a bucket about to overflow makes
	// its writer put a fresh tally in front (see rec.slow).
	counts [numBuckets]uint32
	// lo and hi are the 128-bit sum of the counted spans; a record whose
	// sum carries into hi goes to rec.slow.
	lo, hi uint64
	// min and max are the smallest and largest counted span; an empty
	// tally has max < 0.
	min, max Tickdelta
	// negative counts spans below zero, migrated the spans whose reads came
	// from two CPUs, and unknownCPU the spans recorded with a CPU of -1.
	negative, migrated, unknownCPU uint32
	// tag holds, in bits 30 and 31, the tally's generation: it counts the
	// tallies installed in a writer, modulo 4, so that a record's journal
	// says which one it wrote (see rec). It is set before the tally is
	// installed and never while installed.
	tag uint64
	// prev is a full tally this one was put in front of by its writer, to
	// be collected with it.
	prev *tally
}

// closed is the tally of a Recorder that has none: every count is full, so
// that each path of a record goes to rec.slow, which attaches one. Nothing
// writes it.
var closed = func() *tally {
	t := new(tally)
	for i := range t.counts {
		t.counts[i] = math.MaxUint32
	}
	t.negative, t.migrated, t.unknownCPU = math.MaxUint32, math.MaxUint32, math.MaxUint32
	return t
}()

func (t *tally) reset() {
	clear(t.counts[:])
	t.lo, t.hi = 0, 0
	t.min, t.max = maxTickdelta, -1
	t.negative, t.migrated, t.unknownCPU = 0, 0, 0
	t.prev = nil
}

// newTally returns an empty tally.
func newTally() *tally {
	t := new(tally) // counts already zero
	t.min, t.max = maxTickdelta, -1
	return t
}

// load copies t into dst with atomic loads, as its writer may store to it
// meanwhile (see rec for which words and in what order), and returns dst.
func (dst *tally) load(t *tally) *tally {
	for i := range t.counts {
		dst.counts[i] = atomic.LoadUint32(&t.counts[i])
	}
	dst.lo = atomic.LoadUint64(&t.lo)
	dst.hi = atomic.LoadUint64(&t.hi)
	dst.min = Tickdelta(atomic.LoadInt64((*int64)(&t.min)))
	dst.max = Tickdelta(atomic.LoadInt64((*int64)(&t.max)))
	dst.negative = atomic.LoadUint32(&t.negative)
	dst.migrated = atomic.LoadUint32(&t.migrated)
	dst.unknownCPU = atomic.LoadUint32(&t.unknownCPU)
	return dst
}

// gen returns the tally's generation.
func (t *tally) gen() uint64 { return t.tag >> 30 }

// setGen sets the tally's generation to g modulo 4.
func (t *tally) setGen(g uint64) { t.tag = g & 3 << 30 }
