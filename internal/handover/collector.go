package handover

import (
	"cmp"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// A Collector is the reader's side: the writers it collects, their spare
// tallies, and Interval, which takes what they recorded without their
// help. The root package's Histogram is one with its locked shards.
type Collector struct {
	// interval is held by Interval throughout, and by whoever retires the
	// closed writers; it guards what follows up to mu, and each writer's
	// flight.
	interval sync.Mutex
	barrier  Barrier
	// spill takes a new writer's first records (Spill).
	spill func(d int64, k Kind, e Exemplar, ex bool)
	// pending holds the records of the writers retired since the last
	// Interval, and those an Interval's first half found before it took
	// any tally.
	pending Dist
	// left holds the tallies of the writers closed since the last
	// Interval, which Close adds under leftMu.
	leftMu sync.Mutex
	left   Dist
	// heldIn counts the writers whose flight holds a tally its record,
	// in a Dist already, may still write: they count against the spares
	// kept (putSpare).
	heldIn atomic.Int64
	// scan, taken and retiring are Interval's lists, kept to allocate
	// nothing.
	scan     []*Writer
	taken    []taken
	retiring []*Writer

	// mu guards what follows. It is held briefly, and never while waiting
	// for anything else.
	mu sync.Mutex
	// writers are the writers Interval collects.
	writers []*Writer
	// closing are the writers closed since their retirement was last
	// taken in hand, each with its last tally in last.
	closing []*Writer
	// spare are empty tallies for writers to install, and bare their
	// headers without counts, for Interval to install; busy is how many
	// tallies the last Interval took, which sets how many it keeps.
	spare, bare []*Tally
	busy        int
	// round counts Intervals (under interval), so that a writer's flight
	// knows whether the last one took its tally too.
	round uint64
}

// A taken tally is one Interval swapped out of w; whole where it held w's
// lock meanwhile, so that no record of w was under way.
type taken struct {
	w     *Writer
	old   *Tally
	whole bool
}

// NewCollector returns a Collector with no writers whose Interval passes
// barrier b.
func NewCollector(b Barrier) *Collector { return &Collector{barrier: b} }

// SpillSpans is how many records of a writer made by NewWriter go to the
// Collector's spill, where it has one, before the writer takes a tally.
const SpillSpans = 64

// Spill makes f take the first SpillSpans records of each writer made by
// NewWriter (after any Close too), so that a writer that records a few
// spans and is dropped, as one a request is, never takes a tally nor a
// place among c's writers: f counts them in a writer of its own, such as a
// Histogram's locked shard, with their exemplars e where ex says (by
// value: a pointer would escape through f). It must be called before any
// writer records.
func (c *Collector) Spill(f func(d int64, k Kind, e Exemplar, ex bool)) { c.spill = f }

// Barrier returns the barrier the next Interval passes.
func (c *Collector) Barrier() Barrier {
	c.interval.Lock()
	defer c.interval.Unlock()
	return c.barrier
}

// List makes w one of c's writers for good, with no tally until its first
// record: a writer that lives as long as c, as a Histogram's shard does.
func (c *Collector) List(w *Writer) {
	w.c, w.pinned = c, true
	w.cur.Store(closed)
	c.mu.Lock()
	w.listed, w.index = true, len(c.writers)
	c.writers = append(c.writers, w)
	c.mu.Unlock()
}

// ListLocked is List for a writer that holds the lock word *lock (0 free,
// 1 held; given up with Release) throughout each of its records and their
// marks (Tally.MarkSpan, Tally.Mark), as a Histogram's shard does.
// Interval tries that lock and, where it is free, takes the writer's tally
// holding it: with no record under way, the tally is whole and its marks
// name its counts, so that Interval reads it at a cost in proportion to
// the buckets marked, and needs no barrier for it. Where the lock is held,
// Interval takes the tally as List's, without waiting.
func (c *Collector) ListLocked(w *Writer, lock *uint32) {
	w.lock = lock
	c.List(w)
}

// NewWriter returns a writer of c. It allocates the writer alone: the
// writer takes a tally, and a place among c's writers, at its first
// record.
func (c *Collector) NewWriter() *Writer {
	w := &Writer{c: c}
	w.cur.Store(closed)
	return w
}

// OnAttach makes w call f, once, before it first takes a tally and a place
// among its Collector's writers: where a writer must be given up when it
// becomes unreachable, as a Recorder's is, the cleanup need be registered
// only then. It must be called before w records.
func (w *Writer) OnAttach(f func()) { w.onAttach = f }

// Listed returns how many writers c collects.
func (c *Collector) Listed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.writers)
}

// Spares returns how many empty tallies c keeps.
func (c *Collector) Spares() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.spare)
}

// attach gives a writer without a tally (a new or closed one, or a listed
// one not used yet) an empty one whose window holds the bucket of a
// record of kind k and span d, and that keeps exemplars where ex says, and
// a place among c's writers. It never waits for an Interval.
func (c *Collector) attach(w *Writer, k Kind, d int64, ex bool) {
	var from, to uint64
	if p := placeOf(k, d); p >= 0 {
		from, to = around(uint64(p), uint64(p)+1, grain)
	}
	t := c.spareTally(from, to)
	if ex {
		t.keepExemplars()
	}
	// The tally takes the generation of the one Close took, as a tally
	// put in front of it would: an Interval may have taken the one before
	// that and not yet read the journal, which must not name the same
	// generation for another tally (TestFamilyVisitMayRecord).
	t.setGen(uint64(w.lastGen))
	c.mu.Lock()
	// A writer closed but not yet taken off the list stays on it: Close
	// took its tally already, and the reader's view of its last record
	// holds as it is.
	w.closing = false
	if !w.listed {
		w.listed, w.index = true, len(c.writers)
		c.writers = append(c.writers, w)
	}
	w.cur.Store(t)
	c.mu.Unlock()
}

// spareTally returns an empty tally with the window [from, to): the last
// spare whose storage holds that window where one does, so that a writer
// of a wide window takes no allocation while another's narrow tally is
// among the spares; else the last spare, which fit gives new storage.
func (c *Collector) spareTally(from, to uint64) *Tally {
	c.mu.Lock()
	if n := len(c.spare); n > 0 {
		k := n - 1
		for i := k; i >= 0; i-- {
			if uint64(cap(c.spare[i].counts)) >= to-from {
				k = i
				break
			}
		}
		t := c.spare[k]
		c.spare[k] = c.spare[n-1]
		c.spare[n-1] = nil
		c.spare = c.spare[:n-1]
		c.mu.Unlock()
		t.fit(from, to)
		return t
	}
	c.mu.Unlock()
	return newTally(from, to)
}

// bareTally returns an empty bare tally that stands for the window
// [from, to).
func (c *Collector) bareTally(from, to uint64) *Tally {
	var t *Tally
	c.mu.Lock()
	if n := len(c.bare); n > 0 {
		t = c.bare[n-1]
		c.bare[n-1] = nil
		c.bare = c.bare[:n-1]
	}
	c.mu.Unlock()
	if t == nil {
		t = &Tally{min: math.MaxInt64, max: -1}
	}
	t.off, t.plan = from, to-from
	return t
}

// putSpare empties t and keeps it for spareTally, or bareTally where it
// has no counts, unless c already keeps as many of its kind as spares
// says. A tally whose counts are known to be 0 (emptied, or none) is
// emptied at once and kept under one hold of c.mu; another is emptied
// only once c is known to keep it, since that walks its counts.
func (c *Collector) putSpare(t *Tally) {
	list := &c.spare
	if cap(t.counts) == 0 {
		list = &c.bare
	}
	if t.emptied || list == &c.bare {
		t.reset()
		c.mu.Lock()
		if c.keeps(list) {
			*list = append(*list, t)
		}
		c.mu.Unlock()
		return
	}
	c.mu.Lock()
	keep := c.keeps(list)
	c.mu.Unlock()
	if !keep {
		return
	}
	t.reset()
	c.mu.Lock()
	if c.keeps(list) { // another may have put one meanwhile
		*list = append(*list, t)
	}
	c.mu.Unlock()
}

// keeps reports whether c keeps one more tally in list, c.spare or c.bare,
// as spares says. c.mu is held.
func (c *Collector) keeps(list *[]*Tally) bool {
	if list == &c.bare {
		return len(*list) < min(max(c.busy, minSpares), len(c.writers))
	}
	return len(*list) < c.spares()
}

// Interval fills dst with what c's writers recorded since the last
// Interval, as the package doc says: each record in exactly one Interval,
// whole, without the writers' help. It allocates nothing once c has a spare
// tally for each writer.
func (c *Collector) Interval(dst *Dist) {
	if c.begin() {
		c.barrier.pass()
	}
	c.end(dst)
}

// Intervals fills dst with the Interval of each of cs in turn, calling
// each(i) once dst holds the Interval of cs[i]: as many Intervals, behind one barrier
// for all (one of each kind, where they differ). Each Collector's Interval
// is held from its first step to its last, so that cs must be told apart
// and, where two callers share Collectors, in the same order.
func Intervals(cs []*Collector, dst *Dist, each func(i int)) {
	var took [StopTheWorld + 1]*Barrier // one of each kind
	for _, c := range cs {
		if c.begin() && took[c.barrier] == nil {
			took[c.barrier] = &c.barrier
		}
	}
	for _, b := range took {
		if b != nil {
			b.pass()
		}
	}
	done := 0
	defer func() {
		// Where each panicked, the Collectors it did not reach still end:
		// what their Intervals took goes to their next.
		for _, c := range cs[done:] {
			c.abandon()
		}
	}()
	for i, c := range cs {
		c.end(dst)
		done = i + 1
		each(i)
	}
}

// begin is an Interval's first half: it takes c's Interval in hand, retires
// the writers closed and looks again at the records in flight (both to
// c.pending), and swaps out the tally of each writer that has recorded
// since. It reports whether it took any without holding its writer's lock,
// which the barrier must then follow before end.
func (c *Collector) begin() (barrier bool) {
	c.interval.Lock()
	c.mu.Lock()
	if len(c.closing) > 0 {
		c.mu.Unlock()
		c.retireClosed(&c.pending)
		c.mu.Lock()
	}
	c.scan = append(c.scan[:0], c.writers...)
	c.mu.Unlock()
	c.round++
	for _, w := range c.scan {
		c.look(w, &c.pending)
		s := atomic.LoadUint64(&w.seq)
		if w.flight.fresh(s) {
			continue
		}
		// A writer that recorded since the last two Intervals is likely
		// to record on: it gets a tally with counts at once, so that its
		// next span takes no slow path, which would contend with this
		// Interval for c.mu. Others get a bare one.
		busy := w.flight.round != 0 && w.flight.round+1 == c.round
		if w.lock != nil && tryLock(w.lock) {
			c.takeWhole(w, busy)
			Release(w.lock)
			continue
		}
		if old := c.swap(w, busy); old != nil {
			trace(EventSwap)
			w.flight.taken(s)
			w.flight.round = c.round
			c.taken = append(c.taken, taken{w: w, old: old})
			barrier = true
		}
	}
	return barrier
}

// tryLock takes the lock word *l where it is free, and reports whether it
// did.
func tryLock(l *uint32) bool {
	return atomic.LoadUint32(l) == 0 && atomic.CompareAndSwapUint32(l, 0, 1)
}

// takeWhole swaps out w's tally holding w's lock: no record of w is under
// way, and every one before has ended and is visible (the lock's
// compare-and-swap orders them before), so the tally is complete, its
// marks name each count not 0, and its writer's next record, which takes
// the lock after this one is given up, loads the new tally. So it needs
// neither a barrier nor a journal. The record in flight, if any, has
// ended: its held tallies are spares again.
func (c *Collector) takeWhole(w *Writer, busy bool) {
	s := atomic.LoadUint64(&w.seq)
	f := &w.flight
	f.finish(c, &c.pending)
	f.seq = s
	old := c.swap(w, busy)
	if old == nil {
		return
	}
	trace(EventSwapWhole)
	f.taken(s)
	f.round = c.round
	for p := old; p != nil; p = p.prev {
		p.marked = true
	}
	c.taken = append(c.taken, taken{w: w, old: old, whole: true})
}

// end is an Interval's second half, after the barrier: it fills dst with
// what begin set aside and the tallies it took, and lets c's Interval go.
func (c *Collector) end(dst *Dist) {
	dst.Reset()
	if !c.pending.Empty() {
		dst.Merge(&c.pending)
		c.pending.Reset()
	}
	c.leftMu.Lock()
	if !c.left.Empty() {
		dst.Merge(&c.left)
		c.left.Reset()
	}
	c.leftMu.Unlock()
	for _, tk := range c.taken {
		c.collect(tk, dst)
	}
	busy := len(c.taken)
	clear(c.taken)
	clear(c.scan)
	c.taken = shrunk(c.taken[:0], len(c.scan))
	c.scan = shrunk(c.scan[:0], len(c.scan))
	// The writers closed meanwhile, whose Close found this Interval
	// running, are retired now, to the next Interval.
	c.settle(busy)
	c.interval.Unlock()
}

// shrunk returns s, or a copy of it with less room where it has room for
// four times n and more than a few: the lists of a Collector whose writers
// came and went need not stay as long as they once were.
func shrunk[S ~[]E, E any](s S, n int) S {
	if cap(s) > 64 && n < cap(s)/4 {
		return append(make(S, 0, 2*n), s...)
	}
	return s
}

// swap installs a tally in w and returns the one it replaced, or nil where
// w has none. The tally's window holds the buckets of the spans of the
// tallies it replaces, and a grain more on each side. Where w is not busy
// the tally is bare and stands for that window: the writer's next span
// puts a tally of that window in front of it (Writer.slow).
func (c *Collector) swap(w *Writer, busy bool) *Tally {
	old := w.cur.Load()
	if old == closed {
		return nil
	}
	var fresh *Tally
	if busy {
		fresh = c.spareTally(windowAfter(old))
		if old.ex != nil {
			// A writer that records exemplars keeps recording them.
			fresh.keepExemplars()
		}
	} else {
		fresh = c.bareTally(windowAfter(old))
	}
	for {
		fresh.setGen(old.gen() + 1)
		if w.cur.CompareAndSwap(old, fresh) {
			return old
		}
		if old = w.cur.Load(); old == closed {
			c.putSpare(fresh)
			return nil
		}
	}
}

// windowAfter returns the window of a tally to install in place of t: the
// buckets of the spans of t and of the tallies t was put in front of, and
// a grain more on each side; t's own window where they hold no span. Its
// writer may be recording into t.
func windowAfter(t *Tally) (from, to uint64) {
	from, to = NumBuckets, 0
	for p := t; p != nil; p = p.prev {
		if f, e, ok := p.used(); ok {
			from, to = min(from, f), max(to, e)
		}
	}
	if from >= to {
		return t.window()
	}
	return around(from, to, grain)
}

// look looks again at the last record w was seen to begin, before the scan
// considers w's tally, and adds it to dst once it is known to write a
// tally already copied without it. Where the record is in a Dist already,
// the second Interval that finds it still the last lets its tally go.
func (c *Collector) look(w *Writer, dst *Dist) {
	f := &w.flight
	if !f.holding() {
		return
	}
	if atomic.LoadUint64(&w.seq) != f.seq {
		f.finish(c, dst)
		return
	}
	if f.in {
		f.idled(c)
		return
	}
	j, ok := readJournal(w, f.seq)
	switch {
	case !ok:
		f.finish(c, dst)
	case j.marked:
		f.place(j, c, dst)
	}
}

// collect adds to dst a tally that Interval took, after the barrier (the
// package doc says why each case is exact).
func (c *Collector) collect(tk taken, dst *Dist) {
	w, old := tk.w, tk.old
	c.collectPrev(old, dst)
	if tk.whole {
		dst.addTally(old)
		c.putSpare(old)
		return
	}
	s := atomic.LoadUint64(&w.seq)
	f := &w.flight
	f.begun(s, c, dst)
	if atomic.LoadUint64(&w.seq) != s {
		// A later record has begun, after the barrier, as in the first
		// case below: old is complete, and needs no copy. A writer that
		// records flat out is mostly found so.
		dst.addTally(old)
		c.putSpare(old)
		return
	}
	cp := copies.get().load(old)
	defer copies.put(cp)
	j, ok := readJournal(w, s)
	switch {
	case !ok:
		// A later record has begun, after the barrier: old is complete.
		dst.addTally(old)
		c.putSpare(old)
		return
	case !j.marked:
		// None of the record's stores to a tally was visible: old waits
		// aside, as the record may still write it.
		f.hold(old, wordsOf(cp))
	case j.gen != old.gen():
		// The record writes another tally: a held one, or the one
		// installed now.
		c.putSpare(old)
		f.place(j, c, dst)
	default:
		// The record writes old: the copy takes the values it leaves
		// there, and old waits aside until the next record begins.
		j.placeIn(cp, s)
		f.counted(old, c)
	}
	dst.addTally(cp)
}

// collectPrev adds to dst the full tallies that old's writer put old in
// front of.
func (c *Collector) collectPrev(old *Tally, dst *Dist) {
	for p := old.prev; p != nil; {
		next := p.prev
		dst.addTally(p)
		c.putSpare(p)
		p = next
	}
	old.prev = nil
}

// copies are the tallies Interval copies a writer's into, shared by every
// Collector of the process: one a Collector would hold a window's counts
// for each series of a Family. They are kept in a list of their own, not a
// sync.Pool, which the garbage collector empties, so that an Interval
// after a collection allocates no copy (8 KB for a window of 2,000
// buckets).
var copies copyList

// A copyList is a list of tallies to copy into, under a lock: Intervals
// take a copy for each tally they read whole, one at a time.
type copyList struct {
	mu   sync.Mutex
	free []*Tally
}

// maxCopies is how many copies the process keeps: as many as Intervals of
// different Collectors that copy at once, at most.
const maxCopies = 8

// get returns a copy, from the list where it holds one.
func (l *copyList) get() *Tally {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.free); n > 0 {
		t := l.free[n-1]
		l.free[n-1] = nil
		l.free = l.free[:n-1]
		return t
	}
	return new(Tally)
}

// put gives t back to the list, unless it holds maxCopies.
func (l *copyList) put(t *Tally) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.free) < maxCopies {
		l.free = append(l.free, t)
	}
}

// minSpares is how many spare tallies of each kind a Collector keeps at
// least, where it has as many writers.
const minSpares = 4

// spares returns how many spare tallies of each kind c keeps: one for each
// writer whose tally the last Interval took (at least minSpares), as many
// as the writers that record between two Intervals need, less the tallies
// that flights hold for records already in a Dist, which are let go or
// come back as spares; and never more than c has writers. So c keeps at
// most one tally a writer beside the writers' own, and, where writers come
// and go faster than Intervals, a few, not one for each writer listed.
// c.mu is held.
func (c *Collector) spares() int {
	n := max(c.busy, minSpares) - int(c.heldIn.Load())
	return max(min(n, len(c.writers)), 0)
}

// abandon is end for an Interval whose caller will not read it: what begin
// set aside and the tallies it took go to c.pending, for the next.
func (c *Collector) abandon() {
	for _, tk := range c.taken {
		c.collect(tk, &c.pending)
	}
	busy := len(c.taken)
	clear(c.taken)
	clear(c.scan)
	c.taken, c.scan = c.taken[:0], c.scan[:0]
	c.settle(busy)
	c.interval.Unlock()
}

// settle is an Interval's last step: it retires the writers closed since
// its first (retireClosed, to c.pending), then sets busy, the tallies the
// Interval took, and lets go of the spares past what spares then says,
// the narrowest: the ones an Interval took came back before the flights
// it made held theirs, and the busy writers' windows are the widest. It
// holds c.mu once where no writer was closed. c.interval is held.
func (c *Collector) settle(busy int) {
	c.mu.Lock()
	if len(c.closing) > 0 {
		c.mu.Unlock()
		c.retireClosed(&c.pending)
		c.mu.Lock()
	}
	c.busy = busy
	if n := c.spares(); n < len(c.spare) {
		slices.SortFunc(c.spare, func(a, b *Tally) int { return cmp.Compare(cap(b.counts), cap(a.counts)) })
		clear(c.spare[n:])
		c.spare = shrunk(c.spare[:n], n)
	}
	c.mu.Unlock()
}

// Close gives w up: what it recorded goes to the next Interval, and its
// tally to the spares. The writer has no record in flight: the caller is
// its goroutine, or it is unreachable. Close never waits for an Interval:
// it adds the writer's tallies to c's leftovers itself, under a lock of
// their own that an Interval holds only to merge them, and where an
// Interval is running, that Interval or the next takes the writer off the
// list. A writer recorded into after Close
// attaches itself again (see attach).
func (w *Writer) Close() {
	c := w.c
	// The swap and the adding of what it took are one step for Interval,
	// which merges the leftovers under leftMu: a record that ended before
	// an Interval began is in its tally or in its leftovers, never between.
	c.leftMu.Lock()
	t := w.cur.Swap(closed)
	if t != closed {
		w.lastGen = uint8(t.gen())
	}
	for p := t; p != closed && p != nil; p = p.prev {
		// t is complete, and the reader has it nowhere: it took whatever
		// it took from w before the swap.
		c.left.addTally(p)
	}
	c.leftMu.Unlock()
	c.mu.Lock()
	queued := w.listed && !w.closing
	if queued {
		w.closing = true
		c.closing = append(c.closing, w)
	}
	c.mu.Unlock()
	if !c.interval.TryLock() {
		return // t is left to the garbage collector: a swap may be reading it
	}
	for p := t; p != closed && p != nil; {
		next := p.prev
		c.putSpare(p)
		p = next
	}
	if queued {
		c.retireClosed(&c.pending)
	}
	c.interval.Unlock()
}

// retireClosed takes the writers closed since it last ran off c's list,
// and adds what they recorded to dst. c.interval is held.
func (c *Collector) retireClosed(dst *Dist) {
	c.mu.Lock()
	c.retiring = append(c.retiring[:0], c.closing...)
	clear(c.closing)
	c.closing = shrunk(c.closing[:0], 0)
	c.mu.Unlock()
	for _, w := range c.retiring {
		w.flight.finish(c, dst)
		c.mu.Lock()
		if !w.closing || !w.listed {
			// Used again since its Close, it stays listed (see attach),
			// or it is here twice.
			c.mu.Unlock()
			continue
		}
		w.flight.retired(atomic.LoadUint64(&w.seq))
		w.closing, w.listed = false, false
		last := len(c.writers) - 1
		c.writers[w.index], c.writers[last].index = c.writers[last], w.index
		c.writers[last] = nil
		c.writers = shrunk(c.writers[:last], last)
		n := c.spares()
		for _, list := range [...]*[]*Tally{&c.spare, &c.bare} {
			if n < len(*list) {
				clear((*list)[n:])
				*list = shrunk((*list)[:n], n)
			}
		}
		c.mu.Unlock()
	}
	clear(c.retiring)
	c.retiring = shrunk(c.retiring[:0], 0)
}
