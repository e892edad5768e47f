package handover

import (
	"math"
	"math/bits"
	"sync/atomic"
)

// A Writer is one writer's state: what it shares with the reader (its
// journal and its tally, cur) and the reader's view of it. One goroutine
// records into it at a time; the package doc gives the protocol.
type Writer struct {
	// The writer's words, in one cache line with cur, which nothing else
	// shares: the padding on each side keeps neighbouring objects off it.
	_        [64]byte
	seq      uint64
	jd       int64
	jkind    uint64
	jlo      uint64
	jhi      uint64
	jUnknown uint64
	jmark    uint64
	cur      atomic.Pointer[Tally]
	// done is the seq of the last record that has ended, stored after
	// every other store of the record; then the journal of a record that
	// keeps its exemplar (RecordExemplar): the exemplar, and jexTag, the
	// record's seq with exKept. The writer alone stores to them, so they
	// may share a line with the words above.
	done   uint64
	jex    Exemplar
	jexTag uint64
	// The words the writer shares with the reader, each changed in one
	// atomic step, and each at most once a Close, an attach or an Interval,
	// so that they may share the line too; with them, the words above keep
	// what follows 64 bytes away. closedAt is 1 more than the seq Close
	// left (0 for none); spare is an empty tally the reader left the
	// writer, for its next slow path (spareTally).
	closedAt atomic.Uint64
	spare    atomic.Pointer[Tally]

	// The slow path's: c, and early, the records the writer gave to c's
	// spill, and born, c's Intervals when it was made (Spill); pinned
	// says it is one of c's writers for good (List), which spills nothing;
	// onAttach is called, once, before the writer first attaches itself.
	c        *Collector
	onAttach func()
	// lock, where not nil, is a lock word (0 free, 1 held) that the
	// writer holds throughout each record and its mark, and that the
	// reader may take (Collector.ListLocked).
	lock  *uint32
	early uint32
	born  uint32
	// attached says the writer is listed, or pushed to be (attach);
	// nextIn links c.incoming. bareAhead is a bare header the writer makes
	// as it attaches, for the reader, which takes it for the first tally
	// it installs where it has none of its own (Collector.bareTally): the
	// writer's while attached is false, the reader's once it is true.
	attached  atomic.Bool
	nextIn    *Writer
	bareAhead *Tally
	pinned    bool
	// lastGen is the generation of the tally the reader last took off
	// the writer as it retired it, which the tally the writer attaches
	// after takes (see attach).
	lastGen uint8

	// What follows is the reader's, under c.interval: the Intervals in a
	// row that found the writer idle, its place in c.writers, and the
	// reader's view of its last record.
	idle   uint8
	index  int
	flight flight
}

// Record counts the span d: the path that takes no call where the span
// fits the tally. Its stores are those of the package doc's table, in that
// order; step() after each is a hook of the handoverstep build, which
// compiles to nothing in every other. It is nosplit, so that the Go
// scheduler does not stop it between its first and last store (the
// operating system still may).
//
//go:nosplit
func (w *Writer) Record(d int64) {
	s := nextSeq(w.seq, seqSpan)
	store64(&w.seq, s)
	step()
	storeInt(&w.jd, d)
	step()
	t := w.cur.Load()
	step()
	// A negative span's bucket is past NumBuckets, and so past the window.
	i := BucketOf(uint64(d)) - t.off
	var c uint32
	narrow := i < uint64(len(t.small))
	switch {
	case narrow:
		if c = uint32(t.small[i]) + 1; c > math.MaxUint8 {
			w.slow(d, KindSpan, nil)
			return
		}
	case i < uint64(len(t.counts)):
		if c = t.counts[i] + 1; c == 0 {
			w.slow(d, KindSpan, nil)
			return
		}
	default:
		w.slow(d, KindSpan, nil)
		return
	}
	lo, carry := bits.Add64(t.lo, uint64(d), 0)
	if carry != 0 {
		w.slow(d, KindSpan, nil)
		return
	}
	store64(&w.jlo, lo)
	step()
	store64(&w.jmark, mark(c, t, s))
	step()
	if narrow {
		store8(&t.small[i], uint8(c))
	} else {
		store32(&t.counts[i], c)
	}
	step()
	store64(&t.touched, t.touched|touchBit(i))
	step()
	store64(&t.lo, lo)
	step()
	if d > t.max {
		storeInt(&t.max, d)
	}
	step()
	if d < t.min {
		storeInt(&t.min, d)
	}
	step()
	store64(&w.done, s)
	step()
}

// RecordExemplar is Record for a span that carries the exemplar e: the
// tally keeps e where it names a trace and the span is the slowest of its
// slot's group yet, with two more groups of stores, the journal's (row 5a)
// and the slot's (row 11). A span that is negative, or that the tally
// cannot take (as for Record, or a tally that keeps no exemplars yet where
// e names a trace), goes to the slow path.
//
//go:nosplit
func (w *Writer) RecordExemplar(d int64, e *Exemplar) {
	s := nextSeq(w.seq, seqSpan)
	store64(&w.seq, s)
	step()
	storeInt(&w.jd, d)
	step()
	t := w.cur.Load()
	step()
	p := BucketOf(uint64(d))
	i := p - t.off
	var c uint32
	narrow := i < uint64(len(t.small))
	switch {
	case narrow:
		if c = uint32(t.small[i]) + 1; c > math.MaxUint8 {
			w.slow(d, KindSpan, e)
			return
		}
	case i < uint64(len(t.counts)):
		if c = t.counts[i] + 1; c == 0 {
			w.slow(d, KindSpan, e)
			return
		}
	default:
		w.slow(d, KindSpan, e)
		return
	}
	lo, carry := bits.Add64(t.lo, uint64(d), 0)
	if carry != 0 {
		w.slow(d, KindSpan, e)
		return
	}
	x := t.ex
	keep := false
	if x != nil {
		keep = x.keeps(d, p, e)
	} else if !e.none() {
		w.slow(d, KindSpan, e)
		return
	}
	if keep {
		store64(&w.jex[0], e[0])
		store64(&w.jex[1], e[1])
		store64(&w.jex[2], e[2])
		store64(&w.jex[3], e[3])
		store64(&w.jexTag, s|exKept)
	}
	step()
	store64(&w.jlo, lo)
	step()
	store64(&w.jmark, mark(c, t, s))
	step()
	if narrow {
		store8(&t.small[i], uint8(c))
	} else {
		store32(&t.counts[i], c)
	}
	step()
	store64(&t.touched, t.touched|touchBit(i))
	step()
	store64(&t.lo, lo)
	step()
	if d > t.max {
		storeInt(&t.max, d)
	}
	step()
	if d < t.min {
		storeInt(&t.min, d)
	}
	step()
	if keep {
		x.put(s, d, p, e)
	}
	step()
	store64(&w.done, s)
	step()
}

// RecordKind counts a record of kind k and span d: a migrated span, a span
// of an unknown CPU, or any span where the caller knows it needs the slow
// path. A negative span of a summed kind is counted as KindNegative.
func (w *Writer) RecordKind(d int64, k Kind) { w.slow(d, k, nil) }

// slow counts what Record cannot: a negative span, a record of another
// kind, or one that does not fit the tally (its bucket is outside the
// window or full, or its sum carries), which it puts a fresh tally in
// front of, with a window wide enough; a closed writer (a new one too)
// gives its first SpillSpans records to the Collector's spill, if any,
// and then attaches itself.
func (w *Writer) slow(d int64, k Kind, e *Exemplar) {
	if d < 0 && k != KindMigrated {
		k = KindNegative
	}
	if !k.summed() || e != nil && e.none() {
		e = nil // only a span in the distribution keeps its exemplar, and only one that names a trace
	}
	for {
		full, counted := w.put(d, k, e)
		switch {
		case counted:
			return
		case full == closed:
			if !w.pinned && w.c.spill != nil && (w.early < SpillSpans || w.early < SpillMost && w.born == uint32(w.c.rounds.Load())) {
				w.early++
				if e != nil {
					w.c.spill(d, k, *e, true)
				} else {
					w.c.spill(d, k, Exemplar{}, false)
				}
				return
			}
			if f := w.onAttach; f != nil {
				w.onAttach = nil
				f()
			}
			w.c.attach(w, k, d, e != nil)
		default:
			from, to := full.window()
			p := placeOf(k, d)
			outside := p >= 0 && (uint64(p) < from || uint64(p) >= to)
			if outside {
				from, to = widen(from, to, uint64(p))
			}
			// A narrow count full (or a narrow unknownCPU, which widening
			// does not help, and then a wide tally's full count) widens
			// the counts of the tally put in front; a bare tally's are as
			// its wide says.
			full8 := p >= 0 && !outside && !full.wide && !full.bare
			fresh := w.spareTally(from, to, full.wide || full8)
			if e != nil || full.ex != nil {
				fresh.keepExemplars()
			}
			fresh.setGen(full.gen()) // see Tally.tag
			// fresh goes in front of full, which the reader collects with
			// it: the writer reads nothing of full, which the reader may
			// have taken and be reusing by now.
			fresh.prev = full
			if !w.cur.CompareAndSwap(full, fresh) {
				// The reader took the full tally meanwhile: fresh, which
				// no record has seen, is the writer's spare again.
				fresh.prev = nil
				if !w.spare.CompareAndSwap(nil, fresh) {
					w.c.poolPut(fresh)
				}
			}
		}
	}
}

// put counts a record of any kind, with the stores of the package doc's
// table, and returns the tally it counted into and true; or, where the
// tally cannot take it, returns that tally, having stored nothing to it,
// and false. A record of a summed kind with an exemplar e, not nil, keeps
// it as RecordExemplar does, in a tally that keeps exemplars.
func (w *Writer) put(d int64, k Kind, e *Exemplar) (*Tally, bool) {
	s := nextSeq(w.seq, seqKind)
	store64(&w.seq, s)
	step()
	storeInt(&w.jd, d)
	step()
	store64(&w.jkind, uint64(k))
	step()
	t := w.cur.Load()
	step()
	p := placeOf(k, d)
	old, most, ok := t.countOf(p)
	if !ok {
		return t, false // outside the window
	}
	c := old + 1
	lo, carry := bits.Add64(t.lo, uint64(d), 0)
	hi := t.hi + carry
	x := t.unknownCPU + 1
	if old == most || k == KindUnknown && x == 0 || e != nil && t.ex == nil {
		return t, false
	}
	keep := e != nil && t.ex.keeps(d, BucketOf(uint64(d)), e)
	if keep {
		store64(&w.jex[0], e[0])
		store64(&w.jex[1], e[1])
		store64(&w.jex[2], e[2])
		store64(&w.jex[3], e[3])
		store64(&w.jexTag, s|exKept)
	}
	step()
	store64(&w.jlo, lo)
	step()
	store64(&w.jhi, hi)
	step()
	store64(&w.jUnknown, uint64(x))
	step()
	store64(&w.jmark, mark(c, t, s))
	step()
	t.setCount(p, c)
	step()
	if p >= 0 {
		store64(&t.touched, t.touched|touchBit(uint64(p)-t.off))
	}
	step()
	if k.summed() {
		store64(&t.lo, lo)
		step()
		store64(&t.hi, hi)
		step()
		if d > t.max {
			storeInt(&t.max, d)
		}
		step()
		if d < t.min {
			storeInt(&t.min, d)
		}
		step()
		if k == KindUnknown {
			store32(&t.unknownCPU, x)
		}
		step()
		if keep {
			t.ex.put(s, d, BucketOf(uint64(d)), e)
		}
		step()
	}
	store64(&w.done, s)
	step()
	return t, true
}
