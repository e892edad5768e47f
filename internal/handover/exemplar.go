package handover

import "sync/atomic"

// An Exemplar is what a record may carry beside its span: the words of a
// trace id (two), of a span id, and of a reading of the counter, laid out
// as the root package's Exemplar is.
type Exemplar [4]uint64

// Slots is how many exemplars a tally, and a Dist, keeps: one for each
// group of buckets modulo Slots, a group being 128 buckets, one doubling of
// spans (spans below 128 ticks are one group), so that ten doublings in a
// row, three decades, each keep their own.
const Slots = 10

// slotOf returns the slot of bucket p: a look-up, as a division by Slots
// costs a record more.
func slotOf(p uint64) uint8 { return slotTable[p>>7&63] }

// slotTable maps a group of buckets, p>>7, to its slot.
var slotTable = func() (t [64]uint8) {
	for g := range t {
		t[g] = uint8(g % Slots)
	}
	return t
}()

// A slot is one exemplar kept: the slowest span of its group that a record
// with an exemplar counted in the tally or Dist, with that exemplar and
// the seq of the record that wrote it (0 where the slot is empty; 1 in a
// Dist, which keeps no seq). An empty slot of a tally has d = −1, so that
// a writer's test of it is one compare (exemplars.keeps).
type slot struct {
	seq uint64
	d   int64
	ex  Exemplar
}

// exemplars are the slots of a tally or Dist. The slot of the slowest span
// is the slowest of all: every span is the slowest of its group or not.
type exemplars [Slots]slot

// emptyExemplars are a tally's slots with nothing kept.
var emptyExemplars = func() (x exemplars) {
	for i := range x {
		x[i].d = -1
	}
	return x
}()

// keeps reports whether a record of span d ≥ 0, in bucket p, with the
// exemplar e, is kept in the writer's tally x: where e names a trace and
// its slot holds a faster span or none. The writer's alone, as the tally
// is; plain loads.
func (x *exemplars) keeps(d int64, p uint64, e *Exemplar) bool {
	return d > x[slotOf(p)].d && !e.none()
}

// none reports whether e names no trace: a record with it keeps none.
func (e *Exemplar) none() bool { return e[0]|e[1] == 0 }

// put stores the exemplar e of the record s of span d in bucket p into
// its slot: the writer's stores, which the reader reads only once the
// record has ended, or takes from the journal.
func (x *exemplars) put(s uint64, d int64, p uint64, e *Exemplar) {
	sl := &x[slotOf(p)]
	storeInt(&sl.d, d)
	store64(&sl.ex[0], e[0])
	store64(&sl.ex[1], e[1])
	store64(&sl.ex[2], e[2])
	store64(&sl.ex[3], e[3])
	store64(&sl.seq, s)
}

// load copies x into dst with atomic loads, as its writer may store to it
// meanwhile: a slot the record in flight writes may be torn, which the
// reader then replaces with the journal's (journal.placeIn) or does not
// use (a record whose mark is not visible wrote none of it).
func (dst *exemplars) load(x *exemplars) {
	for i := range x {
		s, d := &x[i], &dst[i]
		d.seq = atomic.LoadUint64(&s.seq)
		d.d = atomic.LoadInt64(&s.d)
		for k := range s.ex {
			d.ex[k] = atomic.LoadUint64(&s.ex[k])
		}
	}
}

// offer keeps e, the exemplar of a span d in bucket p, where x, a Dist's,
// keeps no slower span of its group: the reader's rule, which gives the
// same slots whatever the order of what it adds, but for spans of one
// length.
func (x *exemplars) offer(d int64, p uint64, e *Exemplar) {
	if sl := &x[slotOf(p)]; sl.seq == 0 || d > sl.d {
		*sl = slot{seq: 1, d: d, ex: *e}
	}
}

// merge offers each exemplar of o to x.
func (x *exemplars) merge(o *exemplars) {
	for i := range o {
		if sl := &o[i]; sl.seq != 0 && (x[i].seq == 0 || sl.d > x[i].d) {
			x[i] = slot{seq: 1, d: sl.d, ex: sl.ex}
		}
	}
}

// since returns the exemplar that the record s wrote into x, and false
// where it wrote none: x is complete, the record having ended.
func (x *exemplars) since(s uint64) (d int64, e Exemplar, ok bool) {
	for i := range x {
		if x[i].seq == s {
			return x[i].d, x[i].ex, true
		}
	}
	return 0, Exemplar{}, false
}

// The flag of a record's jexTag, beside its seq, that says it kept its
// exemplar: the seq of a record that counts up by four is far below it.
const exKept = 1 << 62

// Exemplars returns each exemplar the Dist keeps, from the least span, and
// its span.
func (s *Dist) Exemplars() func(yield func(int64, Exemplar) bool) {
	return func(yield func(int64, Exemplar) bool) {
		if s.ex == nil {
			return
		}
		var order [Slots]*slot
		n := 0
		for i := range s.ex {
			if sl := &s.ex[i]; sl.seq != 0 {
				k := n
				for ; k > 0 && order[k-1].d > sl.d; k-- {
					order[k] = order[k-1]
				}
				order[k] = sl
				n++
			}
		}
		for _, sl := range order[:n] {
			if !yield(sl.d, sl.ex) {
				return
			}
		}
	}
}

// AddExemplar adds the exemplar e of a span d that the Dist holds, as the
// reader keeps one: where its group keeps no slower span.
func (s *Dist) AddExemplar(d int64, e *Exemplar) {
	if d < 0 {
		return
	}
	if s.ex == nil {
		s.ex = new(exemplars)
	}
	s.ex.offer(d, BucketOf(uint64(d)), e)
}

// mergeExemplars adds the exemplars of x.
func (s *Dist) mergeExemplars(x *exemplars) {
	if s.ex == nil {
		s.ex = new(exemplars)
	}
	s.ex.merge(x)
}

// exemplarsEqual reports whether two Dists keep the same exemplars.
func (s *Dist) exemplarsEqual(o *Dist) bool {
	var none exemplars
	a, b := s.ex, o.ex
	if a == nil {
		a = &none
	}
	if b == nil {
		b = &none
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if (x.seq == 0) != (y.seq == 0) || x.seq != 0 && (x.d != y.d || x.ex != y.ex) {
			return false
		}
	}
	return true
}
