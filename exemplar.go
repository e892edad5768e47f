package counter

import (
	"iter"
	"runtime"
	"unsafe"

	"github.com/tickstamp/counter/internal/handover"
)

// An Exemplar names the request that a span timed, so that a slow span can
// be traced: the trace and span ids of a distributed trace (as W3C Trace
// Context and OpenTelemetry lay them out), and a reading of the counter
// taken during the span, such as its end, which an exporter turns into wall
// time with an [Anchor]. An Exemplar whose TraceID is all zero is none.
//
// A Histogram keeps, for each Interval, the exemplar of the slowest span
// recorded with one in each doubling of spans (spans below 128 ticks are
// one), doublings ten apart sharing one, so at most ten, and so the
// slowest of all: see [Snapshot.Exemplars]. Each writer's tally keeps
// them as it counts, so a kept exemplar reaches the Interval of its span,
// whole. One exception follows from that: a span whose record was under
// way as [Histogram.Interval] took its writer's tally counts in the next
// Interval, and keeps its exemplar only where it was the slowest of its
// doubling among the spans before it in that tally.
type Exemplar struct {
	TraceID [16]byte
	SpanID  [8]byte
	At      Tickstamp
}

// An Exemplar is laid out as handover.Exemplar's four words.
var _ = [1]struct{}{}[unsafe.Sizeof(Exemplar{})-unsafe.Sizeof(handover.Exemplar{})]

// words returns e as the hand-over's words.
func (e *Exemplar) words() *handover.Exemplar { return (*handover.Exemplar)(unsafe.Pointer(e)) }

// RecordExemplar counts the span d as [Recorder.Record] does, with its
// exemplar e: the Histogram keeps e where d is the slowest span of its
// doubling recorded with an exemplar since the last Interval, and it then
// reaches the same Interval as d, whole. A zero e is none; a negative d is
// counted apart without it. A record whose exemplar is not kept costs about
// what Record costs; one that is kept stores e twice more.
func (r *Recorder) RecordExemplar(d Tickdelta, e Exemplar) {
	r.writer().RecordExemplar(int64(d), (*handover.Exemplar)(unsafe.Pointer(&e))) // which keeps a zero e nowhere
	runtime.KeepAlive(r)                                                          // as in Record
}

// RecordExemplar counts the span d as [Histogram.Record] does, from any
// goroutine, with its exemplar e, kept as [Recorder.RecordExemplar] says.
func (h *Histogram) RecordExemplar(d Tickdelta, e Exemplar) {
	s := h.lock()
	s.w.RecordExemplar(int64(d), e.words())
	s.mu.Unlock()
}

// Exemplars returns each exemplar the Snapshot keeps, with its span, from
// the fastest span to the slowest: for each doubling of spans (spans 2¹⁰
// times apart share one), the exemplar of the slowest span recorded with
// one, so that the last is the exemplar of the slowest span of all that
// were recorded with one. Spans recorded without an exemplar take no part.
func (s *Snapshot) Exemplars() iter.Seq2[Tickdelta, Exemplar] {
	s.mustNotBeNil("Exemplars")
	return func(yield func(Tickdelta, Exemplar) bool) {
		for d, e := range s.d.Exemplars() {
			if !yield(Tickdelta(d), *(*Exemplar)(unsafe.Pointer(&e))) {
				return
			}
		}
	}
}

// maxExemplar returns the exemplar of the slowest span recorded with one,
// and that span, or false where no span was recorded with one.
func (s *Snapshot) maxExemplar() (Tickdelta, Exemplar, bool) {
	var (
		d  Tickdelta
		e  Exemplar
		ok bool
	)
	for d, e = range s.Exemplars() {
		ok = true
	}
	return d, e, ok
}
