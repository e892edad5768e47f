package counter

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
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
//	Recorder(a, b) = 800 + 1.125·(1.5·n(a, b) + 64) bytes after an Interval,
//
// while no bucket of its counts more than 255 of its spans between two
// Intervals (a tally's counts are a byte each until one would pass 255,
// and then 32 bits, 800 + 4.5·(1.5·n(a, b) + 64)), and 400 bytes before
// it takes a tally ([Recorder] says when). A fresh [Snapshot] that an
// Interval fills with such spans holds at most
//
//	Snapshot(a, b) = 176 + 1.25·(w + ⅛)·n(a, b) + 72 bytes,
//
// w being the bytes of its counts: 1 while no bucket of it counts more
// than 255 spans, 4 once one does, and 8 once one counts more than 2³²−1.
//
// Locks follow contention, not the CPUs. An empty Histogram holds 256
// bytes and no lock; its first record makes one, and a record adds one
// only where it finds every lock held by another record, or by one
// Interval for a millisecond (its thread stopped, likely), up to S,
// 4·GOMAXPROCS as NewHistogram found it rounded up to a power of two from
// 8 to 1,024:
//
//	locks ≤ min(1 + c, S), c being the records that found every lock held.
//
// A lock is held only while one span is counted, so a goroutine that
// records alone keeps one lock (but for an Interval held up that long),
// and records find every lock held only where as many are in flight at
// once, or stopped halfway by the scheduler. A lock is 384 bytes, and a
// tally once used, as large as a Recorder's; after an Interval the locks
// hold one such tally among them, and each other lock makes one at its
// next record, so that a Histogram that one goroutine recorded into holds
// 640 + Recorder(a, b) − 800 bytes after an Interval, and one that many
// did no more counts, only the other locks' own state (locks that records
// collided on are few, and a lock that no record took for three Intervals
// gives its tally back until its next record). TestMemoryFormula checks
// these figures; DESIGN.md says how. A writer that records exemplars holds
// 480 bytes more for each tally it holds, and a Snapshot given any, 480
// more.
//
// The zero Histogram is not usable: make one with NewHistogram.
type Histogram struct {
	// shards are the locked writers that Record takes, published whole:
	// a shard is added by publishing a copy of the set with one more
	// (addShard), so that Record finds them with one atomic load. nil for
	// the zero Histogram.
	shards atomic.Pointer[shardSet]
	// most is the most shards the Histogram adds (S of its doc).
	most int
	// collecting counts the Intervals under way, which hold the shards'
	// locks in turn: a record that finds every lock held then waits for
	// one rather than adding a shard.
	collecting atomic.Int32
	// grow is held to add a shard, and sweeping by sweep.
	grow, sweeping sync.Mutex
	// c collects the shards and the Recorders, without their help
	// (internal/handover says how).
	c *handover.Collector
}

// A shardSet is a Histogram's shards, never changed once published. A
// goroutine's stack key picks where it starts looking among them (lockFor).
type shardSet struct{ shards []*shard }

// noShards is the shards of a Histogram before its first record.
var noShards = &shardSet{}

// A shard is one of the Histogram's locked writers, allocated apart and
// padded so that two shards never share a cache line (360 bytes take
// Go's size class of 384, a multiple of 64).
type shard struct {
	// owner is the stack key of the goroutine that claimed the shard, 0
	// where none has since the last Interval. It has a cache line of its
	// own, written only when the shard changes hands, so that a goroutine
	// passing over a shard another claimed reads it without a miss.
	owner atomic.Uintptr
	// idle counts the Intervals in a row that found owner 0, up to
	// idleIntervals, which it reaches as its writer is closed; under the
	// Histogram's sweeping.
	idle uint8
	_    [55]byte
	mu   shardLock
	w    handover.Writer
}

// intervalPatience is how long a record that finds every lock held by one
// Interval yields before it adds a lock all the same: far longer than an
// Interval holds a lock, as long as a scheduling delay.
const intervalPatience = time.Millisecond

// idleIntervals is how many Intervals in a row a shard records nothing
// before it gives its tally back.
const idleIntervals = 3

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
	return newHistogram(handover.ProcessBarrier(), mostShards())
}

// mostShards returns S of the Histogram's doc: 4·GOMAXPROCS rounded up to
// a power of two, at least 8 and at most 1024.
func mostShards() int {
	n := 8
	for n < 4*runtime.GOMAXPROCS(0) && n < 1024 {
		n *= 2
	}
	return n
}

// newHistogram returns an empty Histogram whose Interval passes barrier b,
// and that adds at most most shards.
func newHistogram(b handover.Barrier, most int) *Histogram {
	h := &Histogram{most: most, c: handover.NewCollector(b)}
	h.shards.Store(noShards)
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
		s.w.RecordExemplar(d, &e)
	case k == handover.KindSpan:
		s.w.Record(d)
	default:
		s.w.RecordKind(d, k)
	}
	s.mu.Unlock()
}

// Record counts the span d, from any goroutine; a negative d is counted
// apart, as [Snapshot.Negative]. It never blocks for long: it tries the
// Histogram's locks that no other goroutine has claimed, then any, before
// it adds one or waits for one, and a lock is held only to count one span,
// or by [Histogram.Interval] to swap the lock's tally for a spare.
func (h *Histogram) Record(d Tickdelta) {
	s := h.lock()
	s.w.Record(int64(d))
	s.mu.Unlock()
}

// lock locks a shard for the calling goroutine and returns it (see
// lockFor).
func (h *Histogram) lock() *shard {
	var here byte
	// The stack's address tells goroutines apart well enough: their stacks
	// are at least 2 KB apart. A goroutine whose stack moves merely counts
	// as another.
	return h.lockFor(uintptr(unsafe.Pointer(&here)) >> 11)
}

// lockFor locks a shard for the goroutine whose stack key is key, and
// returns it. It starts at a shard picked by Fibonacci hashing of the key
// onto the shards, and takes the first shard from there that it claimed
// itself or nobody has claimed, so that two goroutines whose keys hash
// alike do not share one: a shared shard's lock and tally would move
// between their CPUs at every span. Where it finds none free, lockShared
// goes on.
func (h *Histogram) lockFor(key uintptr) *shard {
	set := h.shards.Load()
	if set == nil {
		panic("counter: the zero Histogram has no shards: make one with NewHistogram")
	}
	shards := set.shards
	start := startOf(key, len(shards))
	for i, k := start, 0; k < len(shards); k++ {
		s := shards[i]
		if o := s.owner.Load(); (o == key || o == 0) && s.mu.TryLock() {
			switch s.owner.Load() {
			case key:
				return s
			case 0:
				s.owner.Store(key)
				return s
			}
			s.mu.Unlock() // claimed meanwhile by another
		}
		if i++; i == len(shards) {
			i = 0
		}
	}
	return h.lockShared(set, key, start)
}

// startOf returns the shard among n where the goroutine whose stack key
// is key starts looking: its key's Fibonacci hash scaled to n, so that a
// shard added among them moves each goroutine's start by at most one.
func startOf(key uintptr, n int) int {
	i, _ := bits.Mul64(uint64(key)*0x9e3779b97f4a7c15, uint64(n))
	return int(i)
}

// lockShared is lockFor's second step, for a goroutine that found every
// shard it may claim held, or claimed by others: it takes the first free
// shard from start, whoever claimed it. Where every shard is held, by
// other records, it adds a shard (addShard), up to h.most. While an
// Interval runs, which holds the locks in turn and briefly, it yields for
// one to come free, and adds one where the same Interval still holds them
// after intervalPatience: that Interval's thread may be stopped
// holding a lock, and a record waits for no Interval. At the bound, it
// waits for the shard at start.
func (h *Histogram) lockShared(set *shardSet, key uintptr, start int) *shard {
	if s := set.lockAny(key, start); s != nil {
		return s
	}
	if len(set.shards) < h.most {
		for since, round := time.Now(), h.c.Begun(); ; {
			// The same Interval holding the locks all along, its thread
			// is likely stopped: add one anyway. Intervals back to back
			// each hold them briefly.
			if r := h.c.Begun(); r != round {
				since, round = time.Now(), r
			}
			if s := h.addShard(set, key, start, time.Since(since) >= intervalPatience); s != nil {
				return s
			}
			if h.shards.Load() != set {
				return h.lockFor(key) // added meanwhile by another
			}
			runtime.Gosched()
			if s := set.lockAny(key, start); s != nil {
				return s
			}
		}
	}
	s := set.shards[start]
	s.mu.Lock()
	if s.owner.Load() == 0 {
		s.owner.Store(key)
	}
	return s
}

// lockAny locks the first free shard of set from start, whoever claimed
// it, claims it for key, and returns it; nil where every shard is held.
// The claim is taken from its owner, which may be a goroutine that has
// ended or whose stack has moved: so two goroutines that record at once
// settle on a shard each, where there are as many, rather than sharing
// one, whose lock and tally would move between their CPUs at every span;
// an owner that is still recording takes another shard in turn.
func (set *shardSet) lockAny(key uintptr, start int) *shard {
	shards := set.shards
	for i, k := start, 0; k < len(shards); k++ {
		if s := shards[i]; s.mu.TryLock() {
			if s.owner.Load() != key {
				s.owner.Store(key)
			}
			return s
		}
		if i++; i == len(shards) {
			i = 0
		}
	}
	return nil
}

// addShard returns a shard locked for key, set being h's shards, every
// one of which a record found held. Under h.grow it looks at them once
// more, as the collision may have passed, and otherwise adds a shard,
// claimed by key and locked, where key now starts, so that the goroutine
// finds it first. It returns nil where another changed h's shards
// meanwhile, or where an Interval runs and set has a shard to wait for.
func (h *Histogram) addShard(set *shardSet, key uintptr, start int, anyway bool) *shard {
	h.grow.Lock()
	defer h.grow.Unlock()
	if h.shards.Load() != set {
		return nil
	}
	// An Interval holds locks only while collecting counts it, and after
	// it has counted a round: so a lock that an Interval held as lockAny
	// looked shows in one of the four loads, even where that Interval has
	// ended since.
	collecting, round := h.collecting.Load(), h.c.Begun()
	if s := set.lockAny(key, start); s != nil {
		return s
	}
	interval := collecting != 0 || h.collecting.Load() != 0 || h.c.Begun() != round
	if len(set.shards) > 0 && interval && !anyway {
		return nil
	}
	s := new(shard)
	s.owner.Store(key)
	s.mu.held = 1 // no other goroutine sees it before the Store below
	h.c.ListLocked(&s.w, &s.mu.held)
	n := len(set.shards) + 1
	at := startOf(key, n)
	shards := make([]*shard, 0, n)
	shards = append(append(append(shards, set.shards[:at]...), s), set.shards[at:]...)
	h.shards.Store(&shardSet{shards})
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
// flight, and reads it without a copy; where
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
// last Interval or was closed meanwhile a walk of the chunks of 32
// buckets its spans touched; at most one barrier, and none where it took only locks' tallies,
// each holding its lock. It allocates only to widen dst's window (see
// [Snapshot]) and to grow its list of writers; a writer's first span after
// an Interval takes the tally the Interval emptied for it, so that in a
// steady state nothing allocates, but for the first span after each
// Interval of each lock beyond one that records collided on (see Memory,
// above). Interval and the writers share no lock
// (a Histogram's lock is tried, never waited for), so that neither waits
// for the other, whatever a thread is doing or the operating system does
// to it; but for the fallback's stop of the world, above.
func (h *Histogram) Interval(dst *Snapshot) {
	h.mustBeUsable("Interval")
	if dst == nil {
		panic("counter: Histogram.Interval: a nil dst; pass a *Snapshot to fill")
	}
	h.collecting.Add(1)
	defer h.collecting.Add(-1)
	defer h.sweep()
	h.c.Interval(&dst.d)
}

// sweep is the shards' step at the end of each Interval, which holds
// h.collecting meanwhile. It forgets their owners, so that the goroutines
// recording now claim them afresh: one that has ended holds none for
// long. And it gives back the tally of each shard that no record claimed
// for idleIntervals Intervals in a row: it closes the shard's writer
// holding its lock, so that no record is in flight, and the shard's next
// record takes a tally again.
func (h *Histogram) sweep() {
	h.sweeping.Lock()
	defer h.sweeping.Unlock()
	for _, s := range h.shards.Load().shards {
		switch {
		case s.owner.Load() != 0:
			s.owner.Store(0)
			s.idle = 0
		case s.idle < idleIntervals-1:
			s.idle++
		case s.idle == idleIntervals-1 && s.mu.TryLock():
			if s.owner.Load() == 0 {
				s.w.Close()
				s.idle = idleIntervals
			}
			s.mu.Unlock()
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
