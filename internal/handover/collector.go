package handover

import (
	"math"
	"sync"
	"sync/atomic"
)

// A Collector is the reader's side: the writers it collects, their spare
// tallies, and Interval, which takes what they recorded without their
// help. The root package's Histogram is one with its locked shards.
//
// Nothing a writer does waits for the reader, nor the reader for a
// writer: what the two share is atomic words, each changed in one step (a
// writer's cur and spare, the stack of writers attached since the last
// Interval, the pool of spare tallies, a writer's flags), never a lock.
// interval is the reader's alone, held by Interval throughout, so that
// Intervals take turns.
type Collector struct {
	// interval guards what follows up to the shared words, and each
	// writer's flight and reader's fields.
	interval sync.Mutex
	barrier  Barrier
	// spill takes a new writer's first records (Spill).
	spill func(d int64, k Kind, e Exemplar, ex bool)
	// pending holds the records that Interval's first steps found, before
	// it took any tally, and those of an Interval whose caller did not
	// read it (abandon); nil until the first (pend), so that a Collector
	// whose records are never caught in flight holds none.
	pending *Dist
	// writers are the writers Interval collects; taken and bare are its
	// lists, kept to allocate nothing, bare the headers of bare tallies.
	writers []*Writer
	taken   []taken
	bare    []*Tally
	// rounds counts Intervals, for the writers, which read it to know
	// whether an Interval began since they were made (Spill).
	rounds atomic.Uint64
	// listed is len(writers), for Listed.
	listed atomic.Int64
	// lockKept says that the Interval under way kept a tally of a writer
	// with a lock (recycle).
	lockKept bool

	// The words writers share with the reader. incoming is a stack of the
	// writers that attached since the last Interval, linked by their
	// nextIn: a writer pushes itself, and Interval takes the whole stack
	// at once, so that no node is taken twice. pool holds spare tallies
	// for writers that attach, nil until the first: a slot is taken or
	// filled with one compare-and-swap, and the slots are made once with
	// another.
	incoming atomic.Pointer[Writer]
	pool     atomic.Pointer[[poolSlots]atomic.Pointer[Tally]]
}

// pend returns c.pending, made where it is nil. c.interval is held.
func (c *Collector) pend() *Dist {
	if c.pending == nil {
		c.pending = new(Dist)
	}
	return c.pending
}

// pendFor returns where w's record in flight goes when Interval's first
// steps find it: c.pending, or nil where w holds no record, so that a
// flight that holds none needs no Dist. c.interval is held.
func (c *Collector) pendFor(w *Writer) *Dist {
	if !w.flight.holding() {
		return nil
	}
	return c.pend()
}

// poolSlots is how many spare tallies a Collector keeps for writers that
// attach, beside the one spare each writer keeps.
const poolSlots = 8

// A taken tally is one Interval swapped out of w after it loaded w's seq;
// whole where it held w's lock meanwhile, so that no record of w was under
// way; ended where w's Close followed the record seq, which has ended.
type taken struct {
	w     *Writer
	old   *Tally
	seq   uint64
	whole bool
	ended bool
}

// NewCollector returns a Collector with no writers whose Interval passes
// barrier b.
func NewCollector(b Barrier) *Collector { return &Collector{barrier: b} }

// SpillSpans and SpillMost bound the records of a writer made by NewWriter
// that go to the Collector's spill, where it has one, before the writer
// takes a tally: its first SpillSpans, and more up to SpillMost until an
// Interval begins after the writer was made.
const (
	SpillSpans = 64
	SpillMost  = 4096
)

// Spill makes f take the first records of each writer made by NewWriter,
// as SpillSpans and SpillMost say, so that a writer that records a few
// thousand spans and is dropped within an Interval, as one a request is,
// never takes a tally nor a place among c's writers, and costs an Interval
// nothing: f counts them in a writer of its own, such as a Histogram's
// locked shard, with their exemplars e where ex says (by value: a pointer
// would escape through f). It must be called before any writer records.
func (c *Collector) Spill(f func(d int64, k Kind, e Exemplar, ex bool)) { c.spill = f }

// Barrier returns the barrier the next Interval passes.
func (c *Collector) Barrier() Barrier {
	c.interval.Lock()
	defer c.interval.Unlock()
	return c.barrier
}

// List makes w one of c's writers for good, with no tally until its first
// record: a writer that lives as long as c, as a Histogram's shard does.
// It never waits for an Interval.
func (c *Collector) List(w *Writer) {
	w.c, w.pinned = c, true
	w.cur.Store(closed)
	w.attached.Store(true)
	c.push(w)
}

// ListLocked is List for a writer that holds the lock word *lock (0 free,
// 1 held; given up with Release) throughout each of its records, as a
// Histogram's shard does. Interval tries that lock and, where it is free,
// takes the writer's tally holding it: with no record under way, the tally
// is whole, and Interval reads it without a copy, a journal or a barrier.
// Where the lock is held, Interval takes the tally as List's, without
// waiting.
func (c *Collector) ListLocked(w *Writer, lock *uint32) {
	w.lock = lock
	c.List(w)
}

// NewWriter returns a writer of c. It allocates the writer alone: the
// writer takes a tally, and a place among c's writers, at its first
// record past its spill.
func (c *Collector) NewWriter() *Writer {
	w := &Writer{c: c, born: uint32(c.rounds.Load())}
	w.cur.Store(closed)
	return w
}

// OnAttach makes w call f, once, before it first takes a tally and a place
// among its Collector's writers: where a writer must be given up when it
// becomes unreachable, as a Recorder's is, the cleanup need be registered
// only then. It must be called before w records.
func (w *Writer) OnAttach(f func()) { w.onAttach = f }

// Begun returns how many Intervals of c have begun.
func (c *Collector) Begun() uint64 { return c.rounds.Load() }

// Listed returns how many writers c collects: those listed, and those
// that attached since the last Interval.
func (c *Collector) Listed() int {
	c.interval.Lock()
	defer c.interval.Unlock()
	n := int(c.listed.Load())
	for w := c.incoming.Load(); w != nil; w = w.nextIn {
		n++
	}
	return n
}

// Spares returns how many spare tallies c keeps for writers: its pool's,
// and the one each listed writer may keep.
func (c *Collector) Spares() int {
	c.interval.Lock()
	defer c.interval.Unlock()
	n := 0
	if pool := c.pool.Load(); pool != nil {
		for i := range pool {
			if pool[i].Load() != nil {
				n++
			}
		}
	}
	for _, w := range c.writers {
		if w.spare.Load() != nil {
			n++
		}
	}
	return n
}

// push puts w on the stack of writers attached since the last Interval.
func (c *Collector) push(w *Writer) {
	for {
		head := c.incoming.Load()
		w.nextIn = head
		if c.incoming.CompareAndSwap(head, w) {
			return
		}
	}
}

// attach gives a writer without a tally (a new one, one Interval retired,
// or a listed one not used yet) an empty one whose window holds the
// bucket of a record of kind k and span d, and that keeps exemplars where
// ex says, and a place among c's writers: it pushes itself on the stack
// the next Interval lists. It never waits for an Interval.
func (c *Collector) attach(w *Writer, k Kind, d int64, ex bool) {
	var from, to uint64
	if p := placeOf(k, d); p >= 0 {
		from, to = around(uint64(p), uint64(p)+1, grain)
	}
	t := w.spareTally(from, to, false)
	if ex {
		t.keepExemplars()
	}
	// The tally takes the generation of the one the writer last had, as a
	// tally put in front of it would: an Interval may have taken the one
	// before that and not yet read the journal, which must not name the
	// same generation for another tally (TestFamilyVisitMayRecord).
	t.setGen(uint64(w.lastGen))
	w.cur.Store(t)
	// After the store: the Interval that lists w finds t in it. A writer
	// still listed (attached) is not pushed again. One pushed brings a
	// bare header along, the reader's from then on, so that the Interval
	// that takes its tally allocates none where the one its last
	// retirement let go is missing.
	if !w.attached.Load() {
		if w.bareAhead == nil {
			w.bareAhead = &Tally{min: math.MaxInt64, max: -1}
		}
		if w.attached.CompareAndSwap(false, true) {
			c.push(w)
		}
	}
}

// spareTally returns an empty tally with the window [from, to), of wide
// counts or not, for w: its own spare, which the reader left it, or one of
// the pool's, or a new one.
func (w *Writer) spareTally(from, to uint64, wide bool) *Tally {
	t := w.spare.Swap(nil)
	if t == nil {
		t = w.c.poolTake((to - from + perWord(wide) - 1) / perWord(wide))
	}
	if t == nil {
		t = &Tally{min: math.MaxInt64, max: -1}
	}
	t.fit(from, to, wide)
	return t
}

// poolTake takes a tally from the pool, one whose storage holds n words
// where there is one, else another, and returns it; nil where the pool is
// empty. It looks at a tally only once it has taken it from its slot (a
// writer may be fitting a tally another just took), and puts back those it
// does not keep.
func (c *Collector) poolTake(n uint64) *Tally {
	pool := c.pool.Load()
	if pool == nil {
		return nil
	}
	var other *Tally
	for i := range pool {
		t := pool[i].Swap(nil)
		switch {
		case t == nil:
		case uint64(cap(t.store)) >= n:
			if other != nil {
				c.poolPut(other)
			}
			return t
		case other == nil:
			other = t
		default:
			c.poolPut(t)
		}
	}
	return other
}

// poolPut puts the empty tally t in the pool, where a slot is free, and
// otherwise leaves it to the garbage collector.
func (c *Collector) poolPut(t *Tally) {
	pool := c.pool.Load()
	if pool == nil {
		c.pool.CompareAndSwap(nil, new([poolSlots]atomic.Pointer[Tally]))
		pool = c.pool.Load()
	}
	for i := range pool {
		if pool[i].Load() == nil && pool[i].CompareAndSwap(nil, t) {
			return
		}
	}
}

// bareTally returns an empty bare tally that stands for the window
// [from, to), to install in w: one of c's, or the one w brought along as
// it attached (each retirement lets one go), or a new one. c.interval is
// held.
func (c *Collector) bareTally(w *Writer, from, to uint64) *Tally {
	var t *Tally
	switch n := len(c.bare); {
	case n > 0:
		t = c.bare[n-1]
		c.bare[n-1] = nil
		c.bare = c.bare[:n-1]
	case w.bareAhead != nil:
		t, w.bareAhead = w.bareAhead, nil
	default:
		t = &Tally{min: math.MaxInt64, max: -1}
	}
	t.off, t.plan, t.bare = from, to-from, true
	return t
}

// recycle empties t, which no record may write any more, and keeps it: a
// bare one among c's bare headers (as many as c has writers, at most), one
// with counts as w's spare where w, which had it, keeps none, and
// otherwise in the pool, where it has room. Of the tallies of writers with
// a lock, an Interval keeps one, the first it recycles, and lets the
// others go to the garbage collector: locks that records collided on hold
// one window among them after an Interval, not one each, and each of the
// others makes one at its next record. c.interval is held.
func (c *Collector) recycle(t *Tally, w *Writer) {
	if cap(t.store) == 0 {
		if len(c.bare) < len(c.writers) {
			t.reset()
			c.bare = append(c.bare, t)
		}
		return
	}
	if w != nil && w.lock != nil {
		if c.lockKept {
			return
		}
		c.lockKept = true
	}
	t.reset()
	if w != nil && w.attached.Load() && w.spare.CompareAndSwap(nil, t) {
		return
	}
	c.poolPut(t)
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

// begin is an Interval's first half: it takes c's Interval in hand, lists
// the writers attached since the last, looks again at the records in
// flight (to c.pending), retires the writers closed or idle, and swaps out
// the tally of each writer that has recorded since. It reports whether it
// took any without holding its writer's lock, which the barrier must then
// follow before end.
func (c *Collector) begin() (barrier bool) {
	c.interval.Lock()
	c.lockKept = false
	for w := c.incoming.Swap(nil); w != nil; {
		next := w.nextIn
		w.nextIn = nil
		w.index = len(c.writers)
		c.writers = append(c.writers, w)
		w = next
	}
	c.rounds.Add(1)
	for i := 0; i < len(c.writers); i++ {
		w := c.writers[i]
		s := atomic.LoadUint64(&w.seq)
		ended := w.closedAfter(s)
		if ended && w.flight.holding() {
			// Close followed the record s, which has ended.
			w.flight.finish(w, c.pendFor(w))
		} else {
			c.look(w, c.pendFor(w))
		}
		if w.flight.fresh(s) {
			if c.retire(w, ended) {
				i-- // the last writer took w's place
			}
			continue
		}
		w.idle = 0
		if w.lock != nil && tryLock(w.lock) {
			c.takeWhole(w)
			Release(w.lock)
			continue
		}
		if old := c.swap(w); old != nil {
			trace(EventSwap)
			w.flight.taken(s)
			c.taken = append(c.taken, taken{w: w, old: old, seq: s, ended: ended})
			barrier = true
		}
	}
	c.listed.Store(int64(len(c.writers)))
	return barrier
}

// retire takes a writer that has begun no record since Interval last took
// its tally off c's list, where it is closed (ended: Close followed its
// last record, which has ended), or was found so idle by idleRetire
// Intervals before and is not one of c's for good (List): its spare goes
// back, and its cur becomes closed, so that a record it begins
// after attaches it again. A record that began meanwhile and loaded the
// bare tally stores nothing to it (a bare tally takes no record) and finds
// closed when it looks again; it may still read it, so the bare tally is
// let go, not reused. The tally an idle writer's last record may
// still write, where the record is in a Dist already, is let go to the
// garbage collector, never reused (see flight); one whose record is not
// yet in a Dist keeps the writer listed. It reports whether it took w
// off. c.interval is held.
func (c *Collector) retire(w *Writer, ended bool) bool {
	if w.flight.holding() && !w.flight.in {
		return false
	}
	if !ended {
		if w.idle < idleRetire {
			w.idle++
			if t := w.spare.Swap(nil); t != nil {
				c.poolPut(t) // an idle writer gives its spare back at once
			}
			return false
		}
		if w.pinned {
			return false // listed for good, and holding no counts
		}
	}
	bare := w.cur.Load()
	if bare == closed || cap(bare.store) != 0 {
		return false
	}
	// Before the swap, which orders these for the writer: attach reads
	// lastGen, and pushes w only where attached is false.
	w.lastGen = uint8(bare.gen())
	w.attached.Store(false)
	trace(EventRetiring)
	if !w.cur.CompareAndSwap(bare, closed) {
		w.attached.Store(true) // a record put a tally in front: w stays
		return false
	}
	trace(EventRetired)
	w.flight.drop()
	w.idle = 0
	if t := w.spare.Swap(nil); t != nil {
		c.poolPut(t)
	}
	// bare is let go, not reused: a record that loaded it may still be
	// reading it.
	last := len(c.writers) - 1
	c.writers[w.index], c.writers[last].index = c.writers[last], w.index
	c.writers[last] = nil
	c.writers = shrunk(c.writers[:last], last)
	return true
}

// idleRetire is how many Intervals in a row must find a writer idle,
// beside the one that takes it off the list, for that to happen to a
// writer not closed.
const idleRetire = 1

// tryLock takes the lock word *l where it is free, and reports whether it
// did.
func tryLock(l *uint32) bool {
	return atomic.LoadUint32(l) == 0 && atomic.CompareAndSwapUint32(l, 0, 1)
}

// takeWhole swaps out w's tally holding w's lock: no record of w is under
// way, and every one before has ended and is visible (the lock's
// compare-and-swap orders them before), so the tally is complete, and its
// writer's next record, which takes
// the lock after this one is given up, loads the new tally. So it needs
// neither a barrier nor a journal. The record in flight, if any, has
// ended: its held tallies are spares again.
func (c *Collector) takeWhole(w *Writer) {
	s := atomic.LoadUint64(&w.seq)
	f := &w.flight
	f.finish(w, c.pendFor(w))
	f.seq = s
	old := c.swap(w)
	if old == nil {
		return
	}
	trace(EventSwapWhole)
	f.taken(s)
	c.taken = append(c.taken, taken{w: w, old: old, whole: true})
}

// end is an Interval's second half, after the barrier: it fills dst with
// what begin set aside and the tallies it took, and lets c's Interval go.
func (c *Collector) end(dst *Dist) {
	dst.Reset()
	if c.pending != nil && !c.pending.Empty() {
		dst.Merge(c.pending)
		c.pending.Reset()
	}
	for _, tk := range c.taken {
		c.collect(tk, dst)
	}
	c.settle()
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

// swap installs a bare tally in w and returns the one it replaced, or nil
// where w has none. The bare tally stands for a window that holds the
// buckets of the spans of the tallies it replaces, and a grain more on
// each side: the writer's next span puts a tally of that window in front
// of it (Writer.slow), its spare where it keeps one, so that a writer that
// records no more holds no counts.
func (c *Collector) swap(w *Writer) *Tally {
	old := w.cur.Load()
	if old == closed {
		return nil
	}
	from, to := windowAfter(old)
	fresh := c.bareTally(w, from, to)
	fresh.wide = old.wide // the counts the writer's next tally takes
	for {
		fresh.setGen(old.gen() + 1)
		if w.cur.CompareAndSwap(old, fresh) {
			return old
		}
		if old = w.cur.Load(); old == closed {
			c.recycle(fresh, nil)
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
		f.finish(w, dst)
		return
	}
	if w.ended(f.seq) {
		// The record has ended, and no other begun: it wrote a held
		// tally, or none, as the one installed is bare.
		f.finish(w, dst)
		return
	}
	if f.in {
		f.idled(w)
		return
	}
	j, ok := readJournal(w, f.seq)
	switch {
	case !ok:
		f.finish(w, dst)
	case j.marked:
		f.place(j, w, dst)
	}
}

// collect adds to dst a tally that Interval took, after the barrier (the
// package doc says why each case is exact).
func (c *Collector) collect(tk taken, dst *Dist) {
	w, old := tk.w, tk.old
	c.collectPrev(old, dst)
	if tk.whole {
		dst.addTally(old)
		c.recycle(old, w)
		return
	}
	s := atomic.LoadUint64(&w.seq)
	f := &w.flight
	f.begun(s, w, dst)
	// The record s has ended where its done says so, or Close, which
	// followed it, does; as the tally installed in place of old is bare,
	// and takes no record, the record wrote old.
	ended := tk.ended && s == tk.seq || w.ended(s)
	if atomic.LoadUint64(&w.seq) != s || ended {
		// A later record has begun, after the barrier, as in the first
		// case below; or the record s has ended, as its last store says,
		// or Close, which followed it, does (a record beginning now loads
		// the tally installed). Either way old is complete, and needs no
		// copy. A writer that records flat out is mostly found the first
		// way, and one that records now and then the second.
		dst.addTally(old)
		c.recycle(old, w)
		return
	}
	cp := copies.get().load(old)
	defer copies.put(cp)
	j, ok := readJournal(w, s)
	switch {
	case !ok:
		// A later record has begun, after the barrier: old is complete.
		dst.addTally(old)
		c.recycle(old, w)
		return
	case !j.marked:
		// None of the record's stores to a tally was visible: old waits
		// aside, as the record may still write it.
		f.hold(old, wordsOf(cp))
	case j.gen != old.gen():
		// The record writes another tally: a held one, or the one
		// installed now.
		c.recycle(old, w)
		f.place(j, w, dst)
	default:
		// The record writes old: the copy takes the values it leaves
		// there, and old waits aside until the next record begins.
		j.placeIn(cp, s)
		f.counted(old, w)
	}
	dst.addTally(cp)
}

// collectPrev adds to dst the tallies that old's writer put old in front
// of: the bare one the last Interval installed, which goes back to the
// bare headers, and full ones, of narrower windows than old's or of
// narrow counts, which go to the garbage collector: the writer's next
// tally takes old's window, and a writer widening its window span by span
// would fill the pool with windows too narrow for any.
func (c *Collector) collectPrev(old *Tally, dst *Dist) {
	for p := old.prev; p != nil; {
		next := p.prev
		dst.addTally(p)
		p.prev = nil
		if cap(p.store) == 0 {
			c.recycle(p, nil)
		}
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

// abandon is end for an Interval whose caller will not read it: what begin
// set aside and the tallies it took go to c.pending, for the next.
func (c *Collector) abandon() {
	for _, tk := range c.taken {
		c.collect(tk, c.pend())
	}
	c.settle()
}

// settle is an Interval's last step: it empties its lists and lets c's
// Interval go.
func (c *Collector) settle() {
	clear(c.taken)
	c.taken = shrunk(c.taken[:0], len(c.writers))
	c.bare = shrunk(c.bare, len(c.writers))
	c.interval.Unlock()
}

// Close gives w up: what it recorded goes to the next Interval, and the
// Interval after takes w off c's list and gives its tallies back. The
// writer has no record in flight: the caller is its goroutine, or it is
// unreachable, so that its last record has ended. Close stores one word,
// w's seq as it leaves it: it never waits. A writer recorded into after
// Close is recorded as before (its seq moves past that word), or, where an
// Interval took it off the list, attaches itself again (see attach).
func (w *Writer) Close() { w.closedAt.Store(atomic.LoadUint64(&w.seq) + 1) }

// ended reports whether the record that began with seq = s has ended, as
// its last store, done, says: then every store of it is visible. (The
// handoverstep build's tests may distrust done, and take the path the
// journal alone makes exact.)
func (w *Writer) ended(s uint64) bool { return !distrustDone && atomic.LoadUint64(&w.done) == s }

// closedAfter reports whether Close followed the record that began with
// seq = s, and so whether that record has ended: where Close was called
// after it and before any other began.
func (w *Writer) closedAfter(s uint64) bool { return w.closedAt.Load() == s+1 }
