package counter

import (
	"math"
	"math/bits"
	"sync/atomic"
)

// A Recorder counts spans into its [Histogram] from one goroutine at a time,
// with plain loads and stores: no atomic instruction, no lock and no
// allocation while it records. It holds what it counts in a tally of its
// own (about 29 KB) until [Histogram.Interval] asks for it, and hands it
// over when its goroutine next calls Record, RecordCPU, Flush or Close.
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
	recording   = iota // counting into t
	askedToHand        // Interval waits for t
	detached           // closed: t is nil, and the next use reattaches
)

// Recorder returns a new Recorder that counts into h. It allocates its tally,
// or takes a spare one h already has.
func (h *Histogram) Recorder() *Recorder {
	r := &Recorder{h: h}
	r.state.Store(detached)
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
// a goroutine about to wait for a long time.
func (r *Recorder) Flush() { r.handOver() }

// Close hands over what the Recorder holds and detaches it from its
// Histogram, which lets its tally go to other Recorders. A Recorder used
// after Close attaches itself again.
func (r *Recorder) Close() {
	h := r.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.state.Load() == detached {
		return
	}
	r.give()
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

// handOver gives the Histogram the Recorder's tally, takes an empty one, and
// answers Interval's request; a detached Recorder attaches.
func (r *Recorder) handOver() {
	h := r.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.state.Load() == detached {
		r.attach()
		return
	}
	r.give()
	r.t = h.takeSpare()
	r.state.Store(recording)
}

// give moves the Recorder's tally, if it holds anything, to the handed-over
// list, and leaves r.t nil. h.mu is held.
func (r *Recorder) give() {
	h := r.h
	if r.t.empty() {
		h.spare = append(h.spare, r.t)
	} else {
		h.handed = append(h.handed, r.t)
	}
	r.t = nil
}

// attach gives a detached Recorder an empty tally and a place among the
// Histogram's Recorders. h.mu is held.
func (r *Recorder) attach() {
	h := r.h
	r.t = h.takeSpare()
	h.recorders = append(h.recorders, r)
	r.state.Store(recording)
}
