package counter

import (
	"math/bits"
	"runtime"
	"sync/atomic"
)

// A Recorder counts spans into its [Histogram] from one goroutine at a time,
// with plain loads and stores: no atomic read-modify-write, no lock, no
// fence and no allocation while it records. (That is on amd64; on arm64 its
// stores are store-releases, and elsewhere and in race builds Go's atomic
// stores.)
// [Histogram.Interval] takes what it has recorded without its help, whatever
// its goroutine is doing, so a goroutine may record and then block, sleep or
// end. A Recorder keeps one tally of 29 KB of counts (a 32 KB allocation),
// which Interval exchanges for a spare each time the Recorder has recorded
// since the last Interval. The zero Recorder is not usable: get one from
// [Histogram.Recorder].
//
// A Recorder must not be used by two goroutines at once; one goroutine may
// pass it to another through a channel, a mutex or anything else that orders
// the two. [Recorder.Close] gives it up at once; one that is dropped without
// Close is given up after the garbage collector finds it unreachable, and in
// both cases its spans go to the next Interval.
type Recorder struct {
	// w is apart from the Recorder so that the Histogram, which holds w,
	// does not keep a dropped Recorder reachable.
	w *rec
}

// A rec is the state one writer (a Recorder, or one of a Histogram's locked
// shards) shares with Interval. The writer records into the tally cur, and
// Interval takes that tally by swapping a spare one in, without the
// writer's help. So each record says what it does, with plain stores in
// this order (publish_*.go says why the order holds):
//
//	seq   = a                 // a new number: a%4 == 1, or 3 for a record
//	                          // of another kind than a span (put)
//	jd    = the span, jkind = its kind (where a%4 == 3)
//	t     = cur               // a load, after seq: see below
//	jlo   = t's sum after it, jhi and jx = its top word and t.unknownCPU
//	        after it (where a%4 == 3)
//	jmark = the count it leaves, t's generation, a
//	then its stores to t: the count of its bucket or kind, the sum, max, min
//
// Nothing is stored when a record ends: the next one's seq says it has. A
// record that finds t cannot take it (a full bucket or count, a closed
// Recorder, or where a%4 == 1 a negative span or a sum that carries)
// returns before jlo, and slow begins another record.
//
// Interval loads seq, swaps cur for a spare and then makes every thread of
// the process pass a full barrier (Histogram.barrier). After that, a
// record whose seq Interval does not see loads cur after the swap; the one
// whose seq it sees, R, may write either tally, and every record before R
// has ended and is visible. Interval copies the old tally and then reads
// the journal, and seq again: where seq has moved, R has ended and the old
// tally is complete, so it takes it whole. Otherwise:
//   - where jmark is not R's, none of R's stores to a tally was visible
//     during the copy, so the copy is exact without R. The old tally waits
//     aside: once a later record begins, R has ended, and where the words
//     R changes (wordsOf) differ from the copy's, R wrote there, and they
//     say what R recorded. Where jmark becomes R's first, it names R's
//     tally, and R goes to that Interval.
//   - where jmark is R's and names another tally, the old one is exact as
//     copied, and R belongs to the tally it names.
//   - where jmark is R's and names the old tally, the copy takes the values
//     R leaves there (jmark's count, jlo and the others, jd for the
//     bounds): R is in this Interval, and the old tally waits aside until a
//     later record begins, since R may still write it.
//
// A tally waits aside only while R is the writer's last record, so at most
// two do, and with the one installed R has three candidates, which their
// generations, counted modulo 4, tell apart. So every span is in exactly
// one Interval, and Interval never waits for a writer.
type rec struct {
	// The writer's words, in one cache line with cur, which nothing else
	// shares: the padding on each side keeps neighbouring objects off it.
	_     [64]byte
	seq   uint64
	jd    Tickdelta
	jkind uint64
	jlo   uint64
	jhi   uint64
	jx    uint64
	jmark uint64
	cur   atomic.Pointer[tally]
	h     *Histogram
	_     [64]byte

	// What follows is Interval's, under h.interval; listed and index,
	// the writer's place in h.recs, are under h.mu.
	listed bool
	index  int
	// seen is seq as Interval loaded it before it last took cur: where seq
	// still has this value, no record has reached the tally since.
	seen uint64
	// inFlight is the last record Interval saw begin, where it may not
	// have ended.
	inFlight inFlight
}

// An inFlight record is the last one Interval saw begin (the writer stores
// nothing when a record ends: the next one's seq says so), with the tallies
// Interval took that the record may still write; they may not be reused
// before it ends.
type inFlight struct {
	// seq is the record's first seq, 0 for none.
	seq uint64
	// in says whether the record is in a snapshot already. If not, each
	// tally of held was copied before the record stored to it.
	in   bool
	held []heldTally
}

// A heldTally is one that a record in flight may write, and the words of
// its copy that tell whether the record has written it since, and what.
type heldTally struct {
	t   *tally
	was words
}

// The words of a tally that a record changes, but for the count of its
// span's bucket, which only a span of 0 changes alone (zero, counts[0]).
type words struct {
	lo, hi                               uint64
	zero, negative, migrated, unknownCPU uint32
}

// wordsOf returns t's words, which its writer may be storing to.
func wordsOf(t *tally) words {
	return words{
		lo: atomic.LoadUint64(&t.lo), hi: atomic.LoadUint64(&t.hi),
		zero:       atomic.LoadUint32(&t.counts[0]),
		negative:   atomic.LoadUint32(&t.negative),
		migrated:   atomic.LoadUint32(&t.migrated),
		unknownCPU: atomic.LoadUint32(&t.unknownCPU),
	}
}

// since returns the record that turned w into v, and false for none.
func (w words) since(v words) (kind uint64, d Tickdelta, ok bool) {
	switch {
	case v.negative != w.negative:
		return kindNegative, -1, true
	case v.migrated != w.migrated:
		return kindMigrated, 0, true
	case v.lo == w.lo && v.hi == w.hi && v.zero == w.zero:
		return 0, 0, false
	case v.unknownCPU != w.unknownCPU:
		kind = kindUnknown
	}
	return kind, Tickdelta(v.lo - w.lo), true // a span is below 2⁶³
}

// The kinds of a record, in jkind.
const (
	kindSpan     = iota // a span in the distribution
	kindUnknown         // a span in the distribution, also counted as UnknownCPU
	kindNegative        // a negative span
	kindMigrated        // a span whose reads came from two CPUs
)

// mark returns the jmark of a record that counts c, writes t and began
// with seq = s: the count, t's generation, then the low 30 bits of s.
func mark(c uint32, t *tally, s uint64) uint64 {
	return uint64(c)<<32 | t.tag | s&(1<<30-1)
}

// marks reports whether jmark is that of the record that began with seq = s.
func marks(jmark, s uint64) bool { return jmark&(1<<30-1) == s&(1<<30-1) }

// genOf returns the generation of the tally a jmark names.
func genOf(jmark uint64) uint64 { return jmark >> 30 & 3 }

// record counts the span d: the path that takes no call where the span
// fits the tally. It is nosplit, so that the Go scheduler does not stop it
// between its first and last store (the operating system still may).
//
//go:nosplit
func (w *rec) record(d Tickdelta) {
	s := w.seq | 3 + 2
	publish64(&w.seq, s)
	publishDelta(&w.jd, d)
	t := w.cur.Load()
	i := bucketOf(uint64(d))
	if i >= numBuckets {
		w.slow(d, kindSpan)
		return
	}
	c := t.counts[i] + 1
	lo, carry := bits.Add64(t.lo, uint64(d), 0)
	if c == 0 || carry != 0 {
		w.slow(d, kindSpan)
		return
	}
	publish64(&w.jlo, lo)
	publish64(&w.jmark, mark(c, t, s))
	publish32(&t.counts[i], c)
	publish64(&t.lo, lo)
	if d > t.max {
		publishDelta(&t.max, d)
	}
	if d < t.min {
		publishDelta(&t.min, d)
	}
}

// slow counts what record cannot: a negative span, a span of another kind,
// or one that does not fit the tally, which it puts a fresh tally in front
// of; a closed Recorder attaches itself first.
func (w *rec) slow(d Tickdelta, kind uint64) {
	if d < 0 && kind != kindMigrated {
		kind = kindNegative
	}
	for {
		full := w.put(d, kind)
		switch {
		case full == nil:
			return
		case full == closed:
			w.h.attach(w)
		default:
			fresh := w.h.spareTally()
			fresh.setGen(full.gen() + 1)
			fresh.prev = full
			if !w.cur.CompareAndSwap(full, fresh) {
				// Interval took the full tally meanwhile.
				fresh.prev = nil
				w.h.putSpare(fresh)
			}
		}
	}
}

// put counts a record of any kind as rec's doc says, and returns nil; or,
// where the tally cannot take it, returns that tally having counted nothing.
func (w *rec) put(d Tickdelta, kind uint64) (full *tally) {
	s := w.seq | 3 + 4
	publish64(&w.seq, s)
	publishDelta(&w.jd, d)
	publish64(&w.jkind, kind)
	t := w.cur.Load()
	var count *uint32
	switch kind {
	case kindNegative:
		count = &t.negative
	case kindMigrated:
		count = &t.migrated
	default:
		count = &t.counts[bucketOf(uint64(d))]
	}
	c := *count + 1
	lo, carry := bits.Add64(t.lo, uint64(d), 0)
	hi := t.hi + carry
	x := t.unknownCPU + 1
	if c == 0 || kind == kindUnknown && x == 0 {
		return t
	}
	publish64(&w.jlo, lo)
	publish64(&w.jhi, hi)
	publish64(&w.jx, uint64(x))
	publish64(&w.jmark, mark(c, t, s))
	publish32(count, c)
	if kind <= kindUnknown {
		publish64(&t.lo, lo)
		publish64(&t.hi, hi)
		if d > t.max {
			publishDelta(&t.max, d)
		}
		if d < t.min {
			publishDelta(&t.min, d)
		}
		if kind == kindUnknown {
			publish32(&t.unknownCPU, x)
		}
	}
	return nil
}

// Recorder returns a new Recorder that counts into h. It allocates its
// tally, or takes a spare one h already has.
func (h *Histogram) Recorder() *Recorder {
	w := &rec{h: h}
	w.cur.Store(closed)
	h.attach(w)
	r := &Recorder{w}
	runtime.AddCleanup(r, (*rec).release, w)
	return r
}

// Record counts the span d; a negative d is counted apart, as
// [Snapshot.Negative].
func (r *Recorder) Record(d Tickdelta) { r.rec().record(d) }

// RecordCPU counts a span d whose first read came from CPU from and whose
// last from CPU to, as [Counter.NowCPU] reports them:
//
//	t0, cpu0 := c.NowCPU()
//	work()
//	t1, cpu1 := c.NowCPU()
//	r.RecordCPU(t1.Sub(t0), cpu0, cpu1)
//
// A span whose CPUs differ, whatever its sign, is counted apart as
// [Snapshot.Migrated] and left out of the distribution: the thread moved
// during it, and the two CPUs' counters may not agree. A span with CPU -1 at
// both ends, where the hardware does not say (NowCPU's doc says where), is
// counted as Record counts it, and also as [Snapshot.UnknownCPU] where it is
// not negative, so that a reader knows migrations could not be seen.
func (r *Recorder) RecordCPU(d Tickdelta, from, to int) {
	w := r.rec()
	switch {
	case from == to && from >= 0:
		w.record(d)
	case from != to:
		w.slow(d, kindMigrated)
	default:
		w.slow(d, kindUnknown)
	}
}

// Close gives the Recorder up: what it recorded goes to the next
// [Histogram.Interval], and its tally to the Histogram's spares. A Recorder
// used after Close attaches itself again. Close may wait for an Interval
// that is running to return.
func (r *Recorder) Close() { r.rec().release() }

// rec returns the Recorder's state, and panics with a message that says
// what is wrong with a zero Recorder.
func (r *Recorder) rec() *rec {
	if r.w == nil {
		panic("counter: the zero Recorder has no Histogram: get one from Histogram.Recorder")
	}
	return r.w
}
