package counter

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// A Histogram collects spans as a distribution, in ticks, on the hot path,
// so that a reporter can read their median, 99th percentile and maximum
// later with [Histogram.Interval] and convert those to time there. It keeps
// every span from 0 to 2⁶³−1 ticks with a relative error of at most
// [QuantileError], counts, sums and bounds them exactly, and counts negative
// spans apart.
//
// Spans reach a Histogram in two ways:
//
//   - [Histogram.Record] may be called from any number of goroutines at
//     once. It takes one of a few locks, about four per CPU: the one the
//     calling goroutine claimed (known by its stack) or the first nobody
//     has, so that goroutines recording at once each have their own. It
//     costs two atomic read-modify-write instructions, to take the lock and
//     to give it back.
//   - A [Recorder], from [Histogram.Recorder], is a writer for one goroutine
//     at a time: its Record is plain loads and stores, with no
//     read-modify-write and no lock, for the loops where even two are too
//     many.
//
// A Histogram's memory is a tally of about 29 KB for each of its locks that
// a goroutine has used (it has 4·GOMAXPROCS locks as NewHistogram found
// it, rounded up to a power of two, at least 8 and at most 1024) and for
// each Recorder, as many spare tallies at most, which Interval exchanges for
// the ones it takes, a [Snapshot] of about 58 KB for what closed Recorders
// leave, and one more tally that Interval copies into. Its methods allocate only to
// make a tally: for a new Recorder, for a lock on its first use, for the
// first Intervals that take a tally from a writer, and where a bucket fills
// (2³²−1 spans of one bucket between two Intervals).
// The zero Histogram is not usable: make one with NewHistogram.
type Histogram struct {
	shards []shard
	// shift turns a 64-bit hash into a shard's index: 64 less log₂ of
	// the number of shards.
	shift uint8
	// barrier is how Interval makes the writers' stores visible and
	// orders them with its own (see rec).
	barrier barrier

	// interval is held by Interval throughout, so that intervals take
	// turns, and by Recorder.Close; it guards what follows up to mu.
	interval sync.Mutex
	// pending holds the spans of the Recorders given up since the last
	// Interval.
	pending Snapshot
	// copied is the tally Interval copies a writer's into; scan and taken
	// are its lists, kept to allocate nothing.
	copied *tally
	scan   []*rec
	taken  []taken

	// mu guards what follows. It is held briefly, and never while waiting
	// for anything else.
	mu sync.Mutex
	// recs are the writers Interval collects: the attached Recorders and
	// the shards.
	recs []*rec
	// spare are empty tallies for Interval and writers to install.
	spare []*tally
}

// A taken tally is one Interval swapped out of w.
type taken struct {
	w   *rec
	old *tally
}

// A shard is one of the Histogram's locked writers; padded so that two
// shards never share a cache line.
type shard struct {
	// owner is the stack key of the goroutine that claimed the shard, 0
	// where none has since the last Interval. It has a cache line of its
	// own, written only when the shard changes hands, so that a goroutine
	// passing over a shard another claimed reads it without a miss.
	owner atomic.Uintptr
	_     [56]byte
	mu    sync.Mutex
	w     rec
}

// A barrier is how Interval orders the writers' plain stores with its own
// accesses, after it swaps their tallies and before it reads their words.
type barrier uint8

const (
	// noBarrier: the writers' stores are atomic (publish_other.go), and so
	// ordered with Interval's already.
	noBarrier barrier = iota
	// membarrierBarrier: membarrier(2) runs a full barrier on each CPU that
	// runs one of the process's threads.
	membarrierBarrier
	// stopTheWorld: runtime.ReadMemStats stops the world, and every thread
	// that runs Go code passes through the scheduler's atomic instructions
	// to stop; a thread in a system call passed through them on its way in.
	stopTheWorld
)

// processBarrier is the barrier of every Histogram, decided by the first
// NewHistogram of the process.
var processBarrier = sync.OnceValue(func() barrier {
	switch {
	case !plainStores:
		return noBarrier
	case registerMembarrier():
		return membarrierBarrier
	}
	return stopTheWorld
})

// NewHistogram returns an empty Histogram at the package's one precision,
// [QuantileError]. The first call in a process on Linux on amd64 registers
// it for membarrier(2), which can take a fraction of a millisecond.
func NewHistogram() *Histogram {
	return newHistogram(processBarrier())
}

// pass makes every thread of the process pass through a full barrier, as
// b says.
func (b barrier) pass() {
	switch b {
	case membarrierBarrier:
		membarrier()
	case stopTheWorld:
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
	}
}

// newHistogram returns an empty Histogram whose Interval passes barrier b.
func newHistogram(b barrier) *Histogram {
	n, shift := 8, uint8(61)
	for n < runtime.GOMAXPROCS(0)*4 && n < 1024 {
		n, shift = n*2, shift-1
	}
	h := &Histogram{shards: make([]shard, n), shift: shift, barrier: b}
	h.recs = make([]*rec, n)
	for i := range h.shards {
		w := &h.shards[i].w
		w.h, w.listed, w.index = h, true, i
		w.cur.Store(closed)
		h.recs[i] = w
	}
	return h
}

// Record counts the span d, from any goroutine; a negative d is counted
// apart, as [Snapshot.Negative]. It never blocks for long: it tries the
// Histogram's locks that no other goroutine has claimed before it waits
// for one, and a lock is held only to count one span.
func (h *Histogram) Record(d Tickdelta) {
	s := h.lock()
	s.w.record(d)
	s.mu.Unlock()
}

// lock locks a shard for the calling goroutine and returns it (see
// lockFor).
func (h *Histogram) lock() *shard {
	if len(h.shards) == 0 {
		panic("counter: the zero Histogram has no shards: make one with NewHistogram")
	}
	var here byte
	// The stack's address tells goroutines apart well enough: their stacks
	// are at least 2 KB apart. A goroutine whose stack moves merely counts
	// as another.
	return h.lockFor(uintptr(unsafe.Pointer(&here)) >> 11)
}

// lockFor locks a shard for the goroutine whose stack key is key, and
// returns it. It starts at a shard picked by Fibonacci hashing of the key,
// and takes the first shard from there that it claimed itself or nobody has
// claimed, so that two goroutines whose keys hash alike do not share one: a
// shared shard's lock and tally would move between their CPUs at every
// span. Where every shard is claimed by others (more goroutines record than
// there are shards), it takes the one it started at.
func (h *Histogram) lockFor(key uintptr) *shard {
	start := uint64(key) * 0x9e3779b97f4a7c15 >> h.shift
	mask := uint64(len(h.shards) - 1)
	for k := range uint64(len(h.shards)) {
		s := &h.shards[(start+k)&mask]
		if o := s.owner.Load(); o != key && o != 0 {
			continue
		}
		if !s.mu.TryLock() {
			continue
		}
		switch s.owner.Load() {
		case key:
			return s
		case 0:
			s.owner.Store(key)
			return s
		}
		s.mu.Unlock() // claimed meanwhile by another
	}
	s := &h.shards[start]
	s.mu.Lock()
	return s
}

// attach gives a writer without a tally (a new or closed Recorder, or a
// shard not used yet) an empty one, and a place among the Histogram's
// writers.
func (h *Histogram) attach(w *rec) {
	t := h.spareTally()
	h.mu.Lock()
	if !w.listed {
		w.listed, w.index = true, len(h.recs)
		h.recs = append(h.recs, w)
	}
	h.mu.Unlock()
	w.cur.Store(t)
}

// spareTally returns an empty tally.
func (h *Histogram) spareTally() *tally {
	h.mu.Lock()
	if n := len(h.spare); n > 0 {
		t := h.spare[n-1]
		h.spare = h.spare[:n-1]
		h.mu.Unlock()
		return t
	}
	h.mu.Unlock()
	return newTally()
}

// putSpare empties t and keeps it for spareTally, unless the Histogram
// already keeps one for each of its writers.
func (h *Histogram) putSpare(t *tally) {
	h.mu.Lock()
	keep := len(h.spare) < len(h.recs)
	h.mu.Unlock()
	if !keep {
		return
	}
	t.reset()
	h.mu.Lock()
	h.spare = append(h.spare, t)
	h.mu.Unlock()
}

// Interval fills dst with the spans recorded since the previous Interval
// (since NewHistogram for the first): every span whose Record returned
// before Interval was called, whatever the goroutine that recorded it is
// doing now (recording, blocked, asleep, in a system call, ended, or
// calling Interval), and none that an earlier Interval had. A span recorded
// while Interval runs goes to this snapshot or the next. Each span is in
// exactly one Interval's snapshot, whole: its count, sum and bounds, or its
// count apart, are all in the same one.
//
// Interval waits for no writer: it swaps each busy writer's tally for a
// spare and reads the old one. A record caught in flight (its goroutine
// may even be stopped by the operating system in the middle of it) goes to
// this snapshot where its stores have begun, and otherwise to the first
// Interval after they have. On Linux on amd64, where Recorders publish with
// plain stores, an Interval that takes any tally issues one membarrier(2),
// which interrupts each CPU that runs one of the process's threads; where
// the kernel refuses it, Interval stops the world instead, as
// runtime.ReadMemStats does. BENCHMARKS.md gives both costs.
//
// Interval may be called from any goroutine, and calls to it take turns. It
// does not allocate once the Histogram has a spare tally for each writer.
func (h *Histogram) Interval(dst *Snapshot) {
	h.interval.Lock()
	defer h.interval.Unlock()
	dst.reset()
	if !h.pending.empty() {
		dst.Merge(&h.pending)
		h.pending.reset()
	}
	h.mu.Lock()
	h.scan = append(h.scan[:0], h.recs...)
	h.mu.Unlock()
	// The shards' owners are forgotten, so that the goroutines recording
	// now claim them afresh: one that has ended holds none for long.
	for i := range h.shards {
		if s := &h.shards[i]; s.owner.Load() != 0 {
			s.owner.Store(0)
		}
	}
	for _, w := range h.scan {
		h.resolveInFlight(w, dst)
		s := atomic.LoadUint64(&w.seq)
		if s == w.seen {
			continue
		}
		if old := h.swap(w); old != nil {
			w.seen = s
			h.taken = append(h.taken, taken{w, old})
		}
	}
	if len(h.taken) > 0 {
		h.barrier.pass()
	}
	for _, tk := range h.taken {
		h.collect(tk.w, tk.old, dst)
	}
	clear(h.taken)
	clear(h.scan)
	h.taken = shrunk(h.taken[:0], len(h.scan))
	h.scan = shrunk(h.scan[:0], len(h.scan))
}

// shrunk returns s, or a copy of it with less room where it has room for
// four times n and more than a few: the lists of a Histogram whose
// Recorders came and went need not stay as long as they once were.
func shrunk[S ~[]E, E any](s S, n int) S {
	if cap(s) > 64 && n < cap(s)/4 {
		return append(make(S, 0, 2*n), s...)
	}
	return s
}

// swap installs a spare tally in w and returns the one it replaced, or nil
// where w has none.
func (h *Histogram) swap(w *rec) *tally {
	fresh := h.spareTally()
	for {
		old := w.cur.Load()
		if old == closed {
			h.putSpare(fresh)
			return nil
		}
		fresh.setGen(old.gen() + 1)
		if w.cur.CompareAndSwap(old, fresh) {
			return old
		}
	}
}

// collect adds to dst the tally old that Interval took from w, after the
// barrier (see rec for why each case is exact).
func (h *Histogram) collect(w *rec, old *tally, dst *Snapshot) {
	h.collectPrev(old, dst)
	s := atomic.LoadUint64(&w.seq)
	f := &w.inFlight
	if f.seq != s {
		h.ended(f, dst)
		f.seq = s
	}
	if h.copied == nil {
		h.copied = new(tally)
	}
	c := h.copied.load(old)
	j, ok := readJournal(w, s)
	if !ok {
		// A later record has begun, after the barrier: the old tally is
		// complete.
		dst.addTally(old)
		h.putSpare(old)
		return
	}
	switch {
	case !j.marked:
		// None of the record's stores to a tally was visible: old waits
		// aside, as the record may still write it.
		f.held = append(f.held, heldTally{old, wordsOf(c)})
	case j.gen != old.gen():
		// The record writes another tally: a held one, or the one
		// installed now.
		h.putSpare(old)
		h.chosen(w, j, dst)
	default:
		// The record writes old: the copy takes the values it leaves
		// there, and old waits aside until the next record begins.
		*c.count(j.kind, j.d) = j.count
		if j.kind <= kindUnknown {
			c.lo = j.lo
			if s&3 == 3 {
				c.hi = j.hi // a record of s&3 == 1 leaves hi as it was
			}
			c.min, c.max = min(c.min, j.d), max(c.max, j.d)
			if j.kind == kindUnknown {
				c.unknownCPU = j.unknownCPU
			}
		}
		h.release(f)
		f.in = true
		f.held = append(f.held, heldTally{t: old})
	}
	dst.addTally(c)
}

// A journal is what a record says of itself (see rec).
type journal struct {
	// marked says whether the record's jmark was visible, and so the rest.
	marked     bool
	kind       uint64
	d          Tickdelta
	gen        uint64 // of the tally it writes
	count      uint32 // of its kind, after it
	lo, hi     uint64 // of the tally it writes, after it
	unknownCPU uint32 // likewise
}

// readJournal returns the journal of the record that began with seq = s,
// and false where a later record has begun since: its stores may have
// replaced some of the words read.
func readJournal(w *rec, s uint64) (j journal, ok bool) {
	jmark := atomic.LoadUint64(&w.jmark)
	j.marked = marks(jmark, s)
	j.gen, j.count = genOf(jmark), uint32(jmark>>32)
	j.kind = kindSpan
	if s&3 == 3 {
		j.kind = atomic.LoadUint64(&w.jkind)
	}
	j.d = Tickdelta(atomic.LoadInt64((*int64)(&w.jd)))
	j.lo = atomic.LoadUint64(&w.jlo)
	j.hi = atomic.LoadUint64(&w.jhi)
	j.unknownCPU = uint32(atomic.LoadUint64(&w.jx))
	return j, atomic.LoadUint64(&w.seq) == s
}

// collectPrev adds to dst the full tallies that old's writer put old in
// front of.
func (h *Histogram) collectPrev(old *tally, dst *Snapshot) {
	for p := old.prev; p != nil; {
		next := p.prev
		dst.addTally(p)
		h.putSpare(p)
		p = next
	}
	old.prev = nil
}

// resolveInFlight looks again at the last record w was seen to begin, and adds it to
// dst once it is known to write a tally already copied without it.
func (h *Histogram) resolveInFlight(w *rec, dst *Snapshot) {
	f := &w.inFlight
	if len(f.held) == 0 {
		return
	}
	if atomic.LoadUint64(&w.seq) != f.seq {
		h.ended(f, dst)
		return
	}
	if f.in {
		return
	}
	j, ok := readJournal(w, f.seq)
	if !ok {
		h.ended(f, dst)
		return
	}
	if !j.marked {
		return
	}
	h.chosen(w, j, dst)
}

// chosen acts on the journal j of w's record in flight, which names the
// tally the record writes: a held tally, so that the record goes to dst, or
// the tally installed now, which the next scan then takes.
func (h *Histogram) chosen(w *rec, j journal, dst *Snapshot) {
	f := &w.inFlight
	if f.in {
		return // and it writes the tally held for it
	}
	for i, ht := range f.held {
		if ht.t.gen() == j.gen {
			f.held[0], f.held[i] = ht, f.held[0]
			for _, o := range f.held[1:] {
				h.putSpare(o.t)
			}
			clear(f.held[1:])
			f.held = f.held[:1]
			f.in = true
			dst.add(j.kind, j.d)
			return
		}
	}
	h.release(f)
	w.seen = unseen
}

// unseen is a seen that no seq equals, so that the next scan takes the tally.
const unseen = ^uint64(0)

// ended adds the record f, which has ended, to dst where it wrote a tally
// that was copied before it did, and frees the tallies f held.
func (h *Histogram) ended(f *inFlight, dst *Snapshot) {
	for _, ht := range f.held {
		if kind, d, ok := ht.was.since(wordsOf(ht.t)); ok && !f.in {
			dst.add(kind, d)
		}
	}
	h.release(f)
	f.in = false
}

// release frees the tallies f holds, which its record does not write.
func (h *Histogram) release(f *inFlight) {
	for _, ht := range f.held {
		h.putSpare(ht.t)
	}
	clear(f.held)
	f.held = f.held[:0]
}

// count returns the count that a record of kind and span d adds one to in
// t; for a negative span of kindSpan, which record sends to slow without a
// store, a count of t's that no such record changes.
func (t *tally) count(kind uint64, d Tickdelta) *uint32 {
	switch {
	case kind == kindNegative:
		return &t.negative
	case kind == kindMigrated:
		return &t.migrated
	case d < 0:
		return &t.negative // a span record stores nothing there
	}
	return &t.counts[bucketOf(uint64(d))]
}

// release gives w up: what it holds goes to the pending spans, and its
// tallies to the spares. The writer has no record in flight: it is the
// caller, or it is unreachable.
func (w *rec) release() {
	h := w.h
	h.interval.Lock()
	defer h.interval.Unlock()
	h.mu.Lock()
	listed := w.listed
	if listed {
		w.listed = false
		last := len(h.recs) - 1
		h.recs[w.index], h.recs[last].index = h.recs[last], w.index
		h.recs[last] = nil
		h.recs = shrunk(h.recs[:last], last)
		h.spare = h.spare[:min(len(h.spare), len(h.recs))]
		h.spare = shrunk(h.spare, len(h.spare))
	}
	h.mu.Unlock()
	if !listed {
		return
	}
	h.ended(&w.inFlight, &h.pending)
	if t := w.cur.Swap(closed); t != closed {
		h.collectPrev(t, &h.pending)
		h.pending.addTally(t)
		h.putSpare(t)
	}
	w.seen = w.seq
}
