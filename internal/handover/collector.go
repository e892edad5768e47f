package handover

import (
	"sync"
	"sync/atomic"
)

// A Collector is the reader's side: the writers it collects, their spare
// tallies, and Interval, which takes what they recorded without their
// help. The root package's Histogram is one with its locked shards.
type Collector struct {
	// interval is held by Interval throughout, so that intervals take
	// turns, and by Writer.Close; it guards what follows up to mu, and
	// each writer's flight.
	interval sync.Mutex
	barrier  Barrier
	// pending holds the records of the writers closed since the last
	// Interval.
	pending Dist
	// copied is the tally Interval copies a writer's into; scan and taken
	// are its lists, kept to allocate nothing.
	copied *Tally
	scan   []*Writer
	taken  []taken

	// mu guards what follows. It is held briefly, and never while waiting
	// for anything else.
	mu sync.Mutex
	// writers are the writers Interval collects.
	writers []*Writer
	// spare are empty tallies for Interval and writers to install.
	spare []*Tally
}

// A taken tally is one Interval swapped out of w.
type taken struct {
	w   *Writer
	old *Tally
}

// NewCollector returns a Collector with no writers whose Interval passes
// barrier b.
func NewCollector(b Barrier) *Collector { return &Collector{barrier: b} }

// Barrier returns the barrier the next Interval passes.
func (c *Collector) Barrier() Barrier {
	c.interval.Lock()
	defer c.interval.Unlock()
	return c.barrier
}

// List makes w one of c's writers for good, with no tally until its first
// record: a writer that lives as long as c, as a Histogram's shard does.
func (c *Collector) List(w *Writer) {
	w.c = c
	w.cur.Store(closed)
	c.mu.Lock()
	w.listed, w.index = true, len(c.writers)
	c.writers = append(c.writers, w)
	c.mu.Unlock()
}

// NewWriter returns a writer of c with an empty tally, listed until its
// Close. It allocates the writer, and the tally where c has no spare.
func (c *Collector) NewWriter() *Writer {
	w := &Writer{c: c}
	w.cur.Store(closed)
	c.attach(w)
	return w
}

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
// one not used yet) an empty one, and a place among c's writers.
func (c *Collector) attach(w *Writer) {
	t := c.spareTally()
	c.mu.Lock()
	if !w.listed {
		w.listed, w.index = true, len(c.writers)
		c.writers = append(c.writers, w)
	}
	c.mu.Unlock()
	w.cur.Store(t)
}

// spareTally returns an empty tally.
func (c *Collector) spareTally() *Tally {
	c.mu.Lock()
	if n := len(c.spare); n > 0 {
		t := c.spare[n-1]
		c.spare = c.spare[:n-1]
		c.mu.Unlock()
		return t
	}
	c.mu.Unlock()
	return newTally()
}

// putSpare empties t and keeps it for spareTally, unless c already keeps
// one for each of its writers.
func (c *Collector) putSpare(t *Tally) {
	c.mu.Lock()
	keep := len(c.spare) < len(c.writers)
	c.mu.Unlock()
	if !keep {
		return
	}
	t.reset()
	c.mu.Lock()
	c.spare = append(c.spare, t)
	c.mu.Unlock()
}

// Interval fills dst with what c's writers recorded since the last
// Interval, as the package doc says: each record in exactly one Interval,
// whole, without the writers' help. It allocates nothing once c has a spare
// tally for each writer.
func (c *Collector) Interval(dst *Dist) {
	c.interval.Lock()
	defer c.interval.Unlock()
	dst.Reset()
	if !c.pending.Empty() {
		dst.Merge(&c.pending)
		c.pending.Reset()
	}
	c.mu.Lock()
	c.scan = append(c.scan[:0], c.writers...)
	c.mu.Unlock()
	for _, w := range c.scan {
		c.look(w, dst)
		s := atomic.LoadUint64(&w.seq)
		if w.flight.fresh(s) {
			continue
		}
		if old := c.swap(w); old != nil {
			w.flight.taken(s)
			c.taken = append(c.taken, taken{w, old})
		}
	}
	if len(c.taken) > 0 {
		c.barrier.pass()
	}
	for _, tk := range c.taken {
		c.collect(tk.w, tk.old, dst)
	}
	clear(c.taken)
	clear(c.scan)
	c.taken = shrunk(c.taken[:0], len(c.scan))
	c.scan = shrunk(c.scan[:0], len(c.scan))
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

// swap installs a spare tally in w and returns the one it replaced, or nil
// where w has none.
func (c *Collector) swap(w *Writer) *Tally {
	fresh := c.spareTally()
	for {
		old := w.cur.Load()
		if old == closed {
			c.putSpare(fresh)
			return nil
		}
		fresh.setGen(old.gen() + 1)
		if w.cur.CompareAndSwap(old, fresh) {
			trace(EventSwap)
			return old
		}
	}
}

// look looks again at the last record w was seen to begin, before the scan
// considers w's tally, and adds it to dst once it is known to write a
// tally already copied without it.
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

// collect adds to dst the tally old that Interval took from w, after the
// barrier (the package doc says why each case is exact).
func (c *Collector) collect(w *Writer, old *Tally, dst *Dist) {
	c.collectPrev(old, dst)
	s := atomic.LoadUint64(&w.seq)
	f := &w.flight
	f.begun(s, c, dst)
	if c.copied == nil {
		c.copied = new(Tally)
	}
	cp := c.copied.load(old)
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

// Close gives w up: what it recorded goes to the next Interval, and its
// tally to the spares. The writer has no record in flight: the caller is
// its goroutine, or it is unreachable. A writer recorded into after Close
// attaches itself again. Close waits for an Interval that is running to
// return.
func (w *Writer) Close() {
	c := w.c
	c.interval.Lock()
	defer c.interval.Unlock()
	c.mu.Lock()
	listed := w.listed
	if listed {
		w.listed = false
		last := len(c.writers) - 1
		c.writers[w.index], c.writers[last].index = c.writers[last], w.index
		c.writers[last] = nil
		c.writers = shrunk(c.writers[:last], last)
		c.spare = c.spare[:min(len(c.spare), len(c.writers))]
		c.spare = shrunk(c.spare, len(c.spare))
	}
	c.mu.Unlock()
	if !listed {
		return
	}
	w.flight.finish(c, &c.pending)
	if t := w.cur.Swap(closed); t != closed {
		c.collectPrev(t, &c.pending)
		c.pending.addTally(t)
		c.putSpare(t)
	}
	w.flight.retired(w.seq)
}
