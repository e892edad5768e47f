package handover

import "sync/atomic"

// A record's number, seq, counts records in steps of four; its low two bits
// say which path made it.
const (
	seqLow  = 3 // the bits of seq that name the path
	seqSpan = 1 // Writer.Record's: a span, and the journal keeps no jkind, jhi, jUnknown
	seqKind = 3 // Writer.put's: a record of any kind
)

// nextSeq returns the seq of the record after the one numbered seq, made by
// the path low (seqSpan or seqKind).
func nextSeq(seq, low uint64) uint64 { return seq | seqLow + 1 + low }

// A record's jmark holds, from the top: the count of its kind that it
// leaves (32 bits), the generation of the tally it writes (2 bits), and the
// low 30 bits of its seq, by which the reader knows the mark is the
// record's own.
const (
	markSeqBits = 30
	markSeqMask = 1<<markSeqBits - 1
	genShift    = markSeqBits // a Tally's tag keeps its generation here too
	genMask     = 3
	countShift  = 32
)

// mark returns the jmark of a record that leaves count c, writes t and
// began with seq = s.
func mark(c uint32, t *Tally, s uint64) uint64 {
	return uint64(c)<<countShift | t.tag | s&markSeqMask
}

// A journal is what a record says of itself, as the reader loads it.
type journal struct {
	// marked says whether the record's jmark was visible, and so the rest.
	marked     bool
	kind       Kind
	d          int64
	gen        uint64 // of the tally it writes
	count      uint32 // of its kind, after it
	lo, hi     uint64 // of the tally it writes, after it
	unknownCPU uint32 // likewise
	// kept says that the record kept its exemplar, ex, in the tally it
	// writes.
	kept bool
	ex   Exemplar
}

// readJournal returns the journal of w's record that began with seq = s,
// and false where a later record has begun since: its stores may have
// replaced some of the words read.
func readJournal(w *Writer, s uint64) (j journal, ok bool) {
	trace(EventJournal)
	jmark := atomic.LoadUint64(&w.jmark)
	j.marked = jmark&markSeqMask == s&markSeqMask
	j.gen, j.count = jmark>>genShift&genMask, uint32(jmark>>countShift)
	j.kind = KindSpan
	if s&seqLow == seqKind {
		j.kind = Kind(atomic.LoadUint64(&w.jkind))
	}
	j.d = atomic.LoadInt64(&w.jd)
	j.lo = atomic.LoadUint64(&w.jlo)
	j.hi = atomic.LoadUint64(&w.jhi)
	j.unknownCPU = uint32(atomic.LoadUint64(&w.jUnknown))
	if atomic.LoadUint64(&w.jexTag) == s|exKept {
		for k := range j.ex {
			j.ex[k] = atomic.LoadUint64(&w.jex[k])
		}
		j.kept = true
	}
	return j, atomic.LoadUint64(&w.seq) == s
}

// placeIn writes into c, a copy of the tally that j's record writes taken
// before the record stored to it, the values the record leaves there: the
// count of its kind, and for a summed kind the sum, bounds and unknownCPU.
func (j *journal) placeIn(c *Tally, s uint64) {
	if p := placeOf(j.kind, j.d); p < 0 {
		c.setCount(p, j.count)
	} else if _, _, ok := c.countOf(p); ok { // a copy has the window of the tally it copies
		c.setCount(p, j.count)
		c.touched |= touchBit(uint64(p) - c.off) // which the copy may have seen unset
	}
	if !j.kind.summed() {
		return
	}
	c.lo = j.lo
	if s&seqLow == seqKind {
		c.hi = j.hi // Record's path leaves hi as it was
	}
	c.min, c.max = min(c.min, j.d), max(c.max, j.d)
	if j.kind == KindUnknown {
		c.unknownCPU = j.unknownCPU
	}
	if j.kept && c.ex != nil {
		// The slot the record writes, which the copy may have seen torn.
		c.ex[slotOf(BucketOf(uint64(j.d)))] = slot{seq: s, d: j.d, ex: j.ex}
	}
}

// addTo adds the record to dst, with its exemplar where it kept one.
func (j *journal) addTo(dst *Dist) {
	dst.Add(j.kind, j.d)
	if j.kept {
		dst.AddExemplar(j.d, &j.ex)
	}
}
