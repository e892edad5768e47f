package counter

import (
	"math"
	"math/bits"
	"sync/atomic"
)

// A Recorder counts spans into its [Histogram] from one goroutine at a time,
// with plain loads and stores: one atomic load (a plain load on amd64), no
// read-modify-write, no lock and no allocation while it records. It holds
// what it counts in a tally of its own (29 KB of counts, a 32 KB
// allocation) until [Histogram.Interval] asks for it, and hands it over
// when its goroutine next calls Record, RecordCPU, Flush or Close. Record
// and RecordCPU swap the tally for a spare one the Histogram keeps, which
// the first such hand-over allocates; Flush and Close add it into the
// Histogram's and empty it. So a Recorder costs two tallies in all, and
// allocates nothing once it has answered Interval once. The zero Recorder
// is not usable: get one from [Histogram.Recorder].
//
// A Recorder must not be used by two goroutines at once; one goroutine may
// pass it to another through a channel, a mutex or anything else that orders
// the two. Each goroutine that records in a hot loop takes a Recorder of its
// own, and calls [Recorder.Close] when it stops recording for good.
type Recorder struct {
	h *Histogram
	// state is recording, askedToHand or detached: Interval moves it from
	// recording to askedToHand, the Recorder's goroutine everything else.
	state atomic.Uint32
	// t is the tally being filled, nil while detached. Only the Recorder's
	// goroutine touches it.
	t *tally
}

// The states of a Recorder.
const (
	detached    = iota // closed: t is nil, and the next use reattaches
	recording          // counting into t
	askedToHand        // Interval waits for t
)

// Recorder returns a new Recorder that counts into h. It allocates its
// tally, or takes a spare one h already has.
func (h *Histogram) Recorder() *Recorder {
	r := &Recorder{h: h}
	h.mu.Lock()
	r.attach()
	h.mu.Unlock()
	return r
}

// Record counts the span d; a negative d is counted apart, as
// [Snapshot.Negative]. Where Interval has asked for the Recorder's spans, it
// hands them over first.
func (r *Recorder) Record(d Tickdelta) {
	// The fast path, written out here so that it compiles to one call with
	// no other inside: a bucket, a sum, and the bounds, with one
	// unlikely branch to slow for everything else.
	if r.state.Load() != recording {
		r.slow(d)
		return
	}
	t := r.t
	i := bucketOf(uint64(d))
	if i >= numBuckets || t.counts[i] == math.MaxUint32 {
		r.slow(d)
		return
	}
	t.counts[i]++
	var carry uint64
	t.lo, carry = bits.Add64(t.lo, uint64(d), 0)
	t.hi += carry
	if d > t.max {
		t.max = d
	}
	if d < t.min {
		t.min = d
	}
}

// slow counts the span d where Record's fast path could not: it counts a
// negative span apart, and otherwise hands over first (which answers
// Interval, attaches a closed Recorder, or frees a full bucket) and
// counts into the empty tally it gets in exchange.
func (r *Recorder) slow(d Tickdelta) {
	if d < 0 {
		r.settle()
		r.t.negative++
		return
	}
	r.handOver()
	r.Record(d)
}

// RecordCPU counts a span d whose first read came from CPU from and whose
// last from CPU to, as [Counter.NowCPU] reports them:
//
//	t0, cpu0 := c.NowCPU()
//	work()
//	t1, cpu1 := c.NowCPU()
//	r.RecordCPU(t1.Sub(t0), cpu0, cpu1)
//
// A span whose CPUs differ, whatever its sign, is counted apart as
// [Snapshot.Migrated] and left out of the distribution: the thread moved
// during it, and the two CPUs' counters may not agree. A span with CPU -1 at
// both ends, where the hardware does not say (NowCPU's doc says where), is
// counted as Record counts it, and also as [Snapshot.UnknownCPU] where it is
// not negative, so that a reader knows migrations could not be seen.
func (r *Recorder) RecordCPU(d Tickdelta, from, to int) {
	switch {
	case from == to && from >= 0:
		r.Record(d)
	case from != to:
		r.settle()
		r.t.migrated++
	case d < 0:
		r.Record(d)
	default:
		r.Record(d)
		r.t.unknownCPU++
	}
}

// settle answers Interval's request and attaches a closed Recorder, so that
// r.t is the tally to count into.
func (r *Recorder) settle() {
	if r.state.Load() != recording {
		r.handOver()
	}
}

// Flush hands over what the Recorder holds now, so that the next
// [Histogram.Interval] has it even if the Recorder records nothing more: for
// a goroutine about to wait for a long time. It adds the tally into the
// Histogram's and empties it, so it allocates nothing, however often it is
// called; on a closed Recorder it does nothing.
func (r *Recorder) Flush() {
	h := r.histogram()
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.state.Load() == detached {
		return
	}
	r.fold()
	r.state.Store(recording)
}

// Close hands over what the Recorder holds, as Flush does, and detaches it
// from its Histogram, which keeps its tally for other Recorders. A Recorder
// used after Close attaches itself again.
func (r *Recorder) Close() {
	h := r.histogram()
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.state.Load() == detached {
		return
	}
	r.fold()
	if len(h.spare) < len(h.recorders)+len(h.shards) {
		h.spare = append(h.spare, r.t)
	}
	r.t = nil
	for i, o := range h.recorders {
		if o == r {
			last := len(h.recorders) - 1
			h.recorders[i] = h.recorders[last]
			h.recorders[last] = nil
			h.recorders = h.recorders[:last]
			break
		}
	}
	r.state.Store(detached)
}

// handOver swaps the Recorder's tally for a spare one, leaving the full one
// for Interval, and answers Interval's request; a detached Recorder
// attaches instead. It is the slow path of Record, and takes as long as a
// lock and two appends.
func (r *Recorder) handOver() {
	h := r.histogram()
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.state.Load() == detached {
		r.attach()
		return
	}
	if r.t.empty() {
		r.state.Store(recording)
		return
	}
	h.handed = append(h.handed, r.t)
	r.t = h.takeSpare()
	r.state.Store(recording)
}

// fold adds the Recorder's tally into the Histogram's pending spans and
// empties it. h.mu is held.
func (r *Recorder) fold() {
	if !r.t.empty() {
		r.h.pending.addTally(r.t)
		r.t.reset()
	}
}

// attach gives a detached Recorder an empty tally and a place among the
// Histogram's Recorders. h.mu is held.
func (r *Recorder) attach() {
	h := r.h
	r.t = h.takeSpare()
	h.recorders = append(h.recorders, r)
	r.state.Store(recording)
}

// histogram returns the Recorder's Histogram, and panics with a message
// that says what is wrong with a zero Recorder.
func (r *Recorder) histogram() *Histogram {
	if r.h == nil {
		panic("counter: the zero Recorder has no Histogram: get one from Histogram.Recorder")
	}
	return r.h
}
