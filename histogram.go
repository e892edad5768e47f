package counter

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
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
//     at a time: its Record is plain loads and stores and one atomic load,
//     with no read-modify-write and no lock, for the loops where even two
//     are too many.
//
// A Histogram's memory is a tally of about 29 KB for each of its locks that
// a goroutine has used (it has 4·GOMAXPROCS locks as NewHistogram found
// it, rounded up to a power of two, at least 8 and at most 1024), two for
// each Recorder that has answered Interval (its own, and the spare it swaps
// it for), and a [Snapshot] of about 58 KB that gathers what Flush and
// Close hand over. Its methods allocate only to make a tally: for a new
// Recorder and for its first hand-over, for a lock on its first use, and
// where a bucket fills (2³²−1 spans of one bucket between two Intervals).
// The zero Histogram is not usable: make one with NewHistogram.
type Histogram struct {
	shards []shard
	// shift turns a 64-bit hash into a shard's index: 64 less log₂ of
	// the number of shards.
	shift uint8

	// interval is held by Interval throughout, so that intervals take turns.
	interval sync.Mutex
	// mu guards what follows. It is held briefly, and never together with a
	// shard's lock by Interval.
	mu sync.Mutex
	// recorders are the attached Recorders.
	recorders []*Recorder
	// handed are the tallies Recorders handed over since the last
	// Interval, in exchange for spare ones; handedNext is the list
	// Interval will swap in for it next, so that neither allocates.
	handed, handedNext, spare []*tally
	// pending holds the spans Flush and Close handed over since the
	// last Interval, added in.
	pending Snapshot
}

// A shard is one of the Histogram's locked Recorders, which Interval
// collects under the lock rather than asks; padded so that two shards never
// share a cache line.
type shard struct {
	// owner is the stack key of the goroutine that claimed the shard, 0
	// where none has since the last Interval. It has a cache line of its
	// own, written only when the shard changes hands, so that a goroutine
	// passing over a shard another claimed reads it without a miss.
	owner atomic.Uintptr
	_     [56]byte
	mu    sync.Mutex
	r     Recorder
	_     [64]byte
}

// NewHistogram returns an empty Histogram at the package's one precision,
// [QuantileError].
func NewHistogram() *Histogram {
	n, shift := 8, uint8(61)
	for n < runtime.GOMAXPROCS(0)*4 && n < 1024 {
		n, shift = n*2, shift-1
	}
	h := &Histogram{shards: make([]shard, n), shift: shift}
	for i := range h.shards {
		h.shards[i].r.h = h
		h.shards[i].r.state.Store(recording)
	}
	h.pending.reset()
	return h
}

// Record counts the span d, from any goroutine; a negative d is counted
// apart, as [Snapshot.Negative]. It never blocks for long: it tries the
// Histogram's locks that no other goroutine has claimed before it waits
// for one, and a lock is held only to count one span or, by
// [Histogram.Interval], to collect one tally.
func (h *Histogram) Record(d Tickdelta) {
	s := h.lock()
	if s.r.t == nil {
		h.first(s)
	}
	s.r.Record(d)
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

// first gives a locked shard its tally, on its first use: a Histogram has
// many shards so that goroutines seldom share one, and only those used take
// memory.
func (h *Histogram) first(s *shard) {
	h.mu.Lock()
	s.r.t = h.takeSpare()
	h.mu.Unlock()
}

// takeSpare returns an empty tally. h.mu is held.
func (h *Histogram) takeSpare() *tally {
	if n := len(h.spare); n > 0 {
		t := h.spare[n-1]
		h.spare = h.spare[:n-1]
		return t
	}
	return newTally()
}

// newTally returns an empty tally.
func newTally() *tally {
	t := new(tally)
	t.reset()
	return t
}

// handoverWait bounds how long Interval waits for Recorders to hand over.
const handoverWait = time.Millisecond

// Interval fills dst with the spans recorded since the previous Interval
// (since NewHistogram for the first): every span [Histogram.Record] counted
// before Interval was called (one counted while it runs may go to this
// snapshot or the next), and every span of each attached [Recorder] up to
// the point it hands over. Each span is in exactly one Interval's snapshot;
// none is lost and none is counted twice. The snapshot is not a cut at one
// instant: its spans were recorded at slightly different moments.
//
// A Recorder hands over what it holds when its goroutine next calls one of
// its methods after Interval asks it to. Interval asks every Recorder, then
// waits until each has handed over or until a millisecond has passed,
// whichever is first: a Recorder that is recording usually hands over
// within that time, and the spans of one that is idle, or whose goroutine
// is not running, go to the first Interval after its next Record,
// [Recorder.Flush] or [Recorder.Close]. A goroutine that stops recording
// for good calls Close, so that nothing it recorded waits.
//
// Interval may be called from any goroutine, and calls to it take turns.
// It does not allocate once dst and the Histogram's spare tallies exist.
func (h *Histogram) Interval(dst *Snapshot) {
	h.interval.Lock()
	defer h.interval.Unlock()
	dst.reset()
	h.mu.Lock()
	for _, r := range h.recorders {
		r.state.CompareAndSwap(recording, askedToHand)
	}
	h.mu.Unlock()
	// The Recorders run on while this collects the locked shards. The
	// shards' owners are forgotten, so that the goroutines recording now
	// claim them afresh: one that has ended holds none for long.
	for i := range h.shards {
		s := &h.shards[i]
		if s.owner.Load() != 0 {
			s.owner.Store(0)
		}
		s.mu.Lock()
		if t := s.r.t; t != nil && !t.empty() {
			dst.addTally(t)
			t.reset()
		}
		s.mu.Unlock()
	}
	h.waitForRecorders()
	// The handed-over tallies are added in without the lock, which
	// Recorders need to hand over.
	h.mu.Lock()
	handed := h.handed
	h.handed, h.handedNext = h.handedNext, nil
	dst.Merge(&h.pending)
	if h.pending.count != 0 || h.pending.negative != 0 || h.pending.migrated != 0 {
		h.pending.reset()
	}
	h.mu.Unlock()
	for _, t := range handed {
		dst.addTally(t)
		t.reset()
	}
	h.mu.Lock()
	h.spare = append(h.spare, handed...)
	clear(handed)
	h.handedNext = handed[:0]
	h.mu.Unlock()
}

// waitForRecorders waits until every Recorder has answered Interval's
// request or handoverWait has passed.
func (h *Histogram) waitForRecorders() {
	var deadline time.Time
	for spins := 0; h.anyAsked(); spins++ {
		if spins == 0 {
			deadline = time.Now().Add(handoverWait)
		} else if time.Now().After(deadline) {
			return
		}
		if spins < 16 {
			runtime.Gosched()
		} else {
			time.Sleep(20 * time.Microsecond)
		}
	}
}

// anyAsked reports whether a Recorder has yet to answer Interval's request.
func (h *Histogram) anyAsked() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.recorders {
		if r.state.Load() == askedToHand {
			return true
		}
	}
	return false
}
