package handover

// A flight is the reader's view of a writer's last record, which may not
// have ended: the writer stores nothing when a record ends, the next one's
// seq says so. It holds the tallies the reader took that the record may
// still write; they may not be reused before it ends. Where the record is
// in a Dist already and its writer begins no other for two Intervals, the
// tally it writes is let go to the garbage collector, never reused, so
// that a writer that records no more soon holds no counts (see
// Collector.look).
//
// Its state is seq (the record), in (whether the record is in a Dist
// already) and held. Its transitions, each a method, all on the reader's
// side under Collector.interval:
//
//	taken(s)          the reader took the tally after loading seq = s
//	begun(s)          the reader loaded seq = s after the barrier: where s is
//	                  another record than f.seq, f's record has ended (finish)
//	hold(t, was)      the record's mark is not visible: t, copied without it,
//	                  waits aside with its words as copied
//	counted(t)        the record writes t and its copy took the values it
//	                  leaves: the record is in, and t waits aside alone
//	place(j)          the record's mark names a tally: a held one (the record
//	                  is in; the rest are spares) or the installed one (all
//	                  are spares, and the next scan takes the installed one)
//	idle(c)           an Interval found the record still the last, and in:
//	                  at the second, its tally is let go
//	finish()          the record has ended: where it wrote a held tally after
//	                  its copy, the change of the tally's words says what it
//	                  recorded, and that goes in; every held tally is a spare
//	drop()            the writer is retired, its record in a Dist: every held
//	                  tally is let go
//
// and its queries, which change nothing: fresh(s), whether no record has
// begun since the reader last took the tally, and holding().
type flight struct {
	// seq is the record's first seq, 0 for none.
	seq uint64
	// in says whether the record is in a Dist already. If not, each tally
	// of held was copied before the record stored to it.
	in bool
	// idle counts the Intervals that found the record in and still the
	// writer's last.
	idle uint32
	held []heldTally
	// seen is seq as the reader loaded it before it last took the
	// writer's tally: where seq still has this value, no record has
	// reached the tally since.
	seen uint64
}

// A heldTally is one that a record in flight may write, and the words of
// its copy that tell whether the record has written it since, and what.
type heldTally struct {
	t   *Tally
	was words
}

// unseen is a seen that no seq equals, so that the next scan takes the
// writer's tally.
const unseen = ^uint64(0)

// fresh reports whether the writer's seq s is the one the reader loaded
// before it last took the writer's tally: no record has begun since.
func (f *flight) fresh(s uint64) bool { return s == f.seen }

// holding reports whether the record holds a tally.
func (f *flight) holding() bool { return len(f.held) > 0 }

func (f *flight) taken(s uint64) { f.seen = s }

func (f *flight) begun(s uint64, w *Writer, dst *Dist) {
	if f.seq != s {
		f.finish(w, dst)
		f.seq = s
	}
}

func (f *flight) hold(t *Tally, was words) {
	f.held = append(f.held, heldTally{t, was})
}

func (f *flight) counted(t *Tally, w *Writer) {
	f.free(w)
	f.in = true
	f.held = append(f.held, heldTally{t: t})
}

func (f *flight) idled(*Writer) {
	if f.idle++; f.idle >= 2 && len(f.held) > 0 {
		clear(f.held)
		f.held = f.held[:0]
	}
}

func (f *flight) place(j journal, w *Writer, dst *Dist) {
	if f.in {
		return
	}
	for i, ht := range f.held {
		if ht.t.gen() == j.gen {
			f.held[0], f.held[i] = ht, f.held[0]
			for _, o := range f.held[1:] {
				w.c.recycle(o.t, w)
			}
			clear(f.held[1:])
			f.held = f.held[:1]
			f.in = true
			j.addTo(dst)
			return
		}
	}
	f.free(w)
	f.seen = unseen
}

func (f *flight) finish(w *Writer, dst *Dist) {
	for _, ht := range f.held {
		if k, d, ok := wordsSince(ht.was, wordsOf(ht.t)); ok && !f.in {
			dst.Add(k, d)
			if x := ht.t.ex; x != nil {
				// The record has ended: where it kept its exemplar, its
				// slot is whole.
				if d, e, ok := x.since(f.seq); ok {
					dst.AddExemplar(d, &e)
				}
			}
		}
	}
	f.free(w)
	f.in = false
}

// drop lets the held tallies go to the garbage collector, never reused, as
// the record, in a Dist already, may still write them: the writer is
// retired.
func (f *flight) drop() {
	clear(f.held)
	f.held = f.held[:0]
	f.in = false
	f.idle = 0
}

// free gives the held tallies, which the record does not write, to the
// spares; a step of counted, place and finish.
func (f *flight) free(w *Writer) {
	f.idle = 0
	for _, ht := range f.held {
		w.c.recycle(ht.t, w)
	}
	clear(f.held)
	f.held = f.held[:0]
}
