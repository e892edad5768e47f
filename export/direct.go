package export

import (
	"iter"
	"math/bits"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/handover"
)

// A Direct takes Intervals for an exporter that places an Interval's
// buckets in buckets of its own, by index ([BucketIndex]), and hands it
// most of them straight from the writers' tallies, without their passing
// through the Snapshot the Interval fills: those of each tally the
// Interval takes from a writer, the spans of [counter.Histogram.Record]
// and of each [counter.Recorder]. It saves writing them into the
// Snapshot, reading them back and emptying them. Make one with
// [NewDirect]; it may serve any number of Sources and Families
// ([Direct.FamilyInterval]), one Interval at a time.
type Direct struct {
	take     func(*Taken)
	taken    Taken
	panicked bool // take panicked, with panicVal, in this Interval
	panicVal any
	// visit is FamilyInterval's, during that call, which visitAny, made
	// once, calls: so that a FamilyInterval allocates nothing of its own.
	visit    func(values []string, s *counter.Snapshot)
	visitAny func(values []string, s any)
}

// NewDirect returns a Direct that hands the buckets it takes to take. A
// Direct of a nil take, like a nil *Direct, takes Intervals as the Sources'
// own Interval does.
func NewDirect(take func(*Taken)) *Direct {
	d := &Direct{take: take}
	d.visitAny = d.visitSnapshot
	return d
}

// Interval takes the Interval of src into dst, as src.Interval(dst) does,
// but for the writers' tallies it takes: it calls the Direct's function
// with each, as a [Taken], whose buckets the function ranges over, in
// place of adding them to dst's. dst then holds every figure of the
// Interval (Count, Sum, Min, Max and the spans counted apart) and the
// other buckets, which [IndexedBuckets] reads: those of the records the
// Interval finds in flight and adds one by one, of the writers closed
// since the last Interval, and of what the function leaves. The
// Interval's buckets are the Taken's and dst's, added up. Where src is not a *counter.Histogram, the function is not
// called. dst's buckets are only a part of the Interval's, so that its
// quantiles and buckets are for the exporter alone.
//
// The function is called during the Interval, which it must not call
// again, nor Interval. The buckets of a Taken come in the order of their
// indexes, but two Taken may hold one bucket (the tallies of two
// writers), and dst may hold it too. Where the function panics, the
// Interval still ends, as if it had stopped ranging there (the buckets it
// was not handed go to dst, and it is not called again in that Interval),
// and Interval then panics with the same value.
func (d *Direct) Interval(src Source, dst *counter.Snapshot) {
	h, ok := src.(*counter.Histogram)
	if !ok || d == nil || d.take == nil {
		src.Interval(dst)
		return
	}
	d.panicked, d.panicVal = false, nil // left by a call that panicked elsewhere
	s := handover.SnapshotDist(dst)
	s.Divert((*diverter)(d))
	defer s.Divert(nil)
	h.Interval(dst)
	if d.panicked {
		v := d.panicVal
		d.panicked, d.panicVal = false, nil
		panic(v)
	}
}

// FamilyInterval takes the Interval of each series of f, as
// f.Interval(visit) does, handing the writers' tallies that each series'
// Interval takes to the Direct's function, as Interval does: before each
// series' Interval, it calls begin with the series' label values (nil for
// the overflow series), so that the function knows whose they are, and
// visit then gets the Snapshot of that Interval, which holds every figure
// and the other buckets, as Interval's dst does. values are valid only
// during the calls. The function, begin and visit must not call an
// Interval. Where the function panics, every series' Interval still ends
// and is visited, as if the function had stopped ranging there, and
// FamilyInterval then panics with the same value. A Direct of a nil
// function, or a nil *Direct, takes f's Intervals as f.Interval does,
// calling begin all the same.
func (d *Direct) FamilyInterval(f *counter.Family, begin func(values []string), visit func(values []string, s *counter.Snapshot)) {
	if d == nil || d.take == nil {
		handover.FamilyInterval(f, nil, begin, func(values []string, s any) { visit(values, s.(*counter.Snapshot)) })
		return
	}
	d.panicked, d.panicVal = false, nil // left by a call that panicked elsewhere
	d.visit = visit
	defer func() { d.visit = nil }()
	handover.FamilyInterval(f, (*diverter)(d), begin, d.visitAny)
	if d.panicked {
		v := d.panicVal
		d.panicked, d.panicVal = false, nil
		panic(v)
	}
}

// visitSnapshot calls the visit of the FamilyInterval under way.
func (d *Direct) visitSnapshot(values []string, s any) { d.visit(values, s.(*counter.Snapshot)) }

// A diverter is a Direct as the hand-over sees it (handover.Diverter), so
// that Divert is not a method of Direct's.
type diverter Direct

// Divert hands a tally to the Direct's function, as a Taken, unless it
// panicked in this Interval. A panic of the function ends the call as a
// stop of its range would, and is kept for Interval to raise once the
// hand-over's Interval has ended.
func (d *diverter) Divert(off int, marks []uint64, counts []uint32) (n uint64, left bool) {
	if d.panicked {
		return 0, true
	}
	d.taken = Taken{off: off, marks: marks, counts: counts}
	defer func() {
		if v := recover(); v != nil {
			d.panicked, d.panicVal = true, v
		}
		n, left = d.taken.n, !d.taken.done
		d.taken = Taken{}
	}()
	d.take(&d.taken)
	return 0, false // the deferred function sets them
}

// A Taken is a writer's tally that an Interval took (or the Interval's
// copy of it, where the writer's last record may still be writing it),
// handed by a [Direct] to its function. It is valid during that call only.
type Taken struct {
	off    int
	marks  []uint64 // bit j%64 of word j/64 for counts[j] not 0
	counts []uint32
	n      uint64 // the sum of the counts handed on
	w      int    // the marks before word w are 0 (PlaceTaken)
	done   bool   // every count was handed on
}

// Buckets ranges over the tally's buckets that hold a span, by index, from
// the least, and their counts, emptying each as it hands it on: a range
// over them hands each bucket once. Each bucket it yields is the caller's,
// the one at which the loop stops too; where the loop stops early or
// panics, or the function does not range at all, the buckets not yielded
// go to the Snapshot the Interval fills.
func (t *Taken) Buckets() iter.Seq2[int, uint64] {
	return func(yield func(int, uint64) bool) {
		marks, counts, off := t.marks, t.counts, t.off
		for w, b := range marks {
			if b == 0 {
				continue
			}
			for ; b != 0; b &= b - 1 {
				j := w<<6 + bits.TrailingZeros64(b)
				if uint(j) >= uint(len(counts)) {
					break // not so: marks name counts
				}
				c := counts[j]
				if c == 0 {
					continue
				}
				counts[j] = 0
				t.n += uint64(c)
				if !yield(off+j, uint64(c)) {
					// The marks keep what is not handed on: what the
					// loop leaves, and no more for the tally's reset to
					// walk. Where yield panics, they keep the word's
					// counts handed on too, emptied, which the hand-over
					// passes over.
					marks[w] = b & (b - 1)
					return
				}
			}
			marks[w] = 0
		}
		t.done = true
	}
}
