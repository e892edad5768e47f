package counter

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/tickstamp/counter/internal/handover"
)

// A Histogram collects spans as a distribution, in ticks, on the hot path,
// so that a reporter can read their quantiles, count, sum and bounds later
// with [Histogram.Interval] and convert them to time there. It holds every
// span from 0 to 2⁶³−1 ticks with a relative error of at most
// [QuantileError]; its count, sum, minimum and maximum are exact, and it
// counts negative spans and spans that changed CPU apart.
//
// Spans reach it in two ways. [Histogram.Record] may be called from any
// number of goroutines at once: it takes one of a few locks, the one its
// goroutine claimed or the first free one, with one atomic
// read-modify-write. A [Recorder] is a writer for one goroutine at a time,
// whose Record is plain loads and stores.
//
// # Memory
//
// Memory follows what was recorded, not the range a Histogram can hold.
// Spans from a to b ticks (256 ≤ a ≤ b) cover
//
//	n(a, b) = ⌈128·log₂(b/a)⌉ + 1 buckets (1,277 for three decades),
//
// and a Recorder holds at most
//
//	Recorder(a, b) = 800 + 1.25·(1.5·n(a, b) + 64) bytes after an Interval,
//
// while no bucket of its counts more than 255 of its spans between two
// Intervals (a tally's counts are a byte each until one would pass 255,
// and then 32 bits, 800 + 4.75·(1.5·n(a, b) + 64)),
// and 400 bytes before it takes a tally ([Recorder] says when). A lock
// costs as much once used; a Histogram has 4·GOMAXPROCS of them, rounded up
// to a power of two from 8 to 1,024, of 384 bytes each. TestMemoryFormula
// checks this; DESIGN.md says how. A writer that records exemplars holds
// 480 bytes more for each tally it holds, and a Snapshot given any, 480
// more.
//
// The zero Histogram is not usable: make one with NewHistogram.
type Histogram struct {
	shards []shard
	// shift turns a 64-bit hash into a shard's index: 64 less log₂ of
	// the number of shards.
	shift uint8
	// c collects the shards and the Recorders, without their help
	// (internal/handover says how).
	c *handover.Collector
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
	mu    shardLock
	w     handover.Writer
}

// A shardLock is a shard's lock: a word, 1 while held, taken with a
// compare-and-swap and given back with handover.Release, a plain store on
// amd64 (an x86 store is ordered after every earlier load and store), so
// that a record pays one atomic read-modify-write, not two. A goroutine
// that waits for one yields the processor between tries.
type shardLock struct{ held uint32 }

// TryLock takes the lock where it is free, and reports whether it did.
func (l *shardLock) TryLock() bool {
	return atomic.LoadUint32(&l.held) == 0 && atomic.CompareAndSwapUint32(&l.held, 0, 1)
}

// Lock takes the lock, yielding the processor until it is free.
func (l *shardLock) Lock() {
	for !l.TryLock() {
		runtime.Gosched()
	}
}

// Unlock gives the lock back.
func (l *shardLock) Unlock() { handover.Release(&l.held) }

// NewHistogram returns an empty Histogram at the package's one precision,
// [QuantileError]. The first call in a process on Linux on amd64 registers
// it for membarrier(2), which can take a fraction of a millisecond.
func NewHistogram() *Histogram {
	return newHistogram(handover.ProcessBarrier(), max(runtime.GOMAXPROCS(0)*4, 8))
}

// newHistogram returns an empty Histogram whose Interval passes barrier b,
// with want shards rounded up to a power of two, at least 2 and at most
// 1024.
func newHistogram(b handover.Barrier, want int) *Histogram {
	n, shift := 2, uint8(63)
	for n < want && n < 1024 {
		n, shift = n*2, shift-1
	}
	h := &Histogram{shards: make([]shard, n), shift: shift, c: handover.NewCollector(b)}
	for i := range h.shards {
		h.c.ListLocked(&h.shards[i].w, &h.shards[i].mu.held)
	}
	h.c.Spill(h.spill)
	return h
}

// spill counts a new Recorder's first records (handover.Spill says how
// many) in a shard, as Record does, with their exemplars, so that a
// Recorder that records a few spans and is dropped takes no tally.
func (h *Histogram) spill(d int64, k handover.Kind, e handover.Exemplar, ex bool) {
	s := h.lock()
	switch {
	case ex:
		s.w.RecordExemplar(d, &e).Mark(k, d)
	case k == handover.KindSpan:
		s.w.Record(d).MarkSpan(d)
	default:
		s.w.RecordKind(d, k).Mark(k, d)
	}
	s.mu.Unlock()
}

// Record counts the span d, from any goroutine; a negative d is counted
// apart, as [Snapshot.Negative]. It never blocks for long: it tries the
// Histogram's locks that no other goroutine has claimed before it waits
// for one, and a lock is held only to count one span, or by
// [Histogram.Interval] to swap the lock's tally for a spare.
func (h *Histogram) Record(d Tickdelta) {
	s := h.lock()
	s.w.Record(int64(d)).MarkSpan(int64(d))
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

// Interval takes the spans recorded since the previous Interval, whoever
// called it, into dst, so a Histogram has one reader: two would each get
// part of the spans. To read one Histogram in several places, make an
// export.Feed of it and give each reader a Tap. A Feed or an exporter of a
// Histogram that another Feed or exporter reads is refused (the error
// wraps export.ErrSecondReader); calls of Interval are not checked.
//
// dst holds the spans recorded since the previous Interval (since
// NewHistogram for the first): every span whose Record returned before
// Interval was called, whatever the goroutine that recorded it is doing
// now (recording, blocked, asleep, in a system call, ended, or calling
// Interval), and none that an earlier Interval had. A span recorded
// while Interval runs goes to this snapshot or the next. Each span is in
// exactly one Interval's snapshot, whole: its count, sum and bounds, or its
// count apart, are all in the same one.
//
// Interval waits for no record to end: it swaps each busy writer's tally
// for a bare one and reads the old one. A record caught in flight (its
// goroutine may even be stopped by the operating system in the middle of
// it) goes to this snapshot where its stores have begun, and otherwise to
// the first Interval after they have. Where a lock of [Histogram.Record] is free,
// Interval takes that lock's tally holding it, so that no record is in
// flight, and reads it in proportion to the buckets its spans marked; where
// a goroutine holds it, Interval does not wait, and takes the tally as a
// Recorder's. On Linux on amd64, where Recorders record with plain stores,
// an Interval that takes any Recorder's tally, or a lock's while it is
// held, issues one membarrier(2), which interrupts each CPU that runs one
// of the process's threads and waits for no other. Where the kernel
// refuses it, at the first NewHistogram or at any call after (as a seccomp
// filter installed after start-up may), Interval stops the world instead,
// as runtime.ReadMemStats does, from then on. A stop of the world waits for
// any stop of the garbage collector's under way, then for every goroutine
// that holds a processor to reach a safe point (for one whose thread the
// operating system has descheduled, until it runs again), and holds every
// goroutine meanwhile: it pauses every writer as the collector's stops do,
// and where threads outnumber CPUs it takes a scheduling delay or more. It
// never panics for a refused barrier. BENCHMARKS.md gives both costs under
// load.
//
// Interval may be called from any goroutine, and calls to it take turns.
// Its work is a look at each writer, and for each that recorded since the
// last Interval or was closed meanwhile a walk of its tally's spans'
// buckets (of those its spans marked, for a lock's tally taken holding the
// lock); at most one barrier, and none where it took only locks' tallies,
// each holding its lock. It allocates only to widen dst's window (see
// [Snapshot]) and to grow its list of writers; a writer's first span after
// an Interval takes the tally the Interval emptied for it, so that in a
// steady state nothing allocates. Interval and the writers share no lock
// (a Histogram's lock is tried, never waited for), so that neither waits
// for the other, whatever a thread is doing or the operating system does
// to it; but for the fallback's stop of the world, above.
func (h *Histogram) Interval(dst *Snapshot) {
	h.mustBeUsable("Interval")
	if dst == nil {
		panic("counter: Histogram.Interval: a nil dst; pass a *Snapshot to fill")
	}
	h.forgetOwners()
	h.c.Interval(&dst.d)
}

// forgetOwners forgets the shards' owners, at each Interval, so that the
// goroutines recording now claim them afresh: one that has ended holds
// none for long.
func (h *Histogram) forgetOwners() {
	for i := range h.shards {
		if s := &h.shards[i]; s.owner.Load() != 0 {
			s.owner.Store(0)
		}
	}
}

// mustBeUsable panics, naming the method call, where h is nil or the zero
// Histogram, as the cold paths do; Record leaves a nil h to Go's
// nil-pointer panic, and lock says what is wrong with a zero one.
func (h *Histogram) mustBeUsable(call string) {
	switch {
	case h == nil:
		panic("counter: Histogram." + call + ": a nil *Histogram; make one with NewHistogram")
	case h.c == nil:
		panic("counter: Histogram." + call + ": the zero Histogram has no shards; make one with NewHistogram")
	}
}
