package counterotel

import (
	"context"
	"math/bits"
	"time"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/trace"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// Exemplar returns the exemplar of the span in ctx, for
// [counter.Histogram.RecordExemplar] and [counter.Recorder.RecordExemplar]:
// its trace and span ids where its span context is valid and sampled, and
// the zero Exemplar, none, where ctx has no such span (a nil ctx has none),
// as the SDK's trace-based exemplar filter keeps a measurement only in a
// sampled span. Its At is 0, which a Producer exports as the time of the
// Produce that takes it; the caller may set At to a reading of the counter
// taken during the span, such as its end, which the Producer turns into
// wall time with the Anchor of [WithAnchor]. It allocates nothing.
func Exemplar(ctx context.Context) counter.Exemplar {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() || !sc.IsSampled() {
		return counter.Exemplar{}
	}
	return counter.Exemplar{TraceID: sc.TraceID(), SpanID: sc.SpanID()}
}

// slots is how many exemplars a Snapshot keeps: one for each doubling of
// spans, doublings 2¹⁰ apart sharing one.
const slots = 10

// slotOf returns the slot of the exemplar of a span d ≥ 0 as a Snapshot
// keeps them: the spans below 128 ticks are one doubling, each doubling
// above them the next, modulo slots. TestExemplarSlots checks it against
// what a Histogram keeps.
func slotOf(d counter.Tickdelta) int {
	return max(bits.Len64(uint64(d))-7, 0) % slots
}

// A kept is an exemplar of a span d as a point carries it: at the wall
// time at. Its TraceID is not zero.
type kept struct {
	d  counter.Tickdelta
	e  counter.Exemplar
	at time.Time
}

// exemplarSlots are the exemplars of a series' cumulative points: in each
// slot, the one of the latest Interval that had one there, the zero kept
// where none had. The slowest of the latest Interval that had any is among
// them, as no later Interval had one in its slot.
type exemplarSlots [slots]kept

// taken returns the exemplars of in, from the fastest span, in buf, each
// at the wall time of its At by the Producer's anchor, or at now where At
// is 0 or there is no anchor. It allocates nothing.
func (p *Producer) taken(in *counter.Snapshot, now time.Time, buf *[slots]kept) []kept {
	n := 0
	for d, e := range in.Exemplars() {
		at := now
		if p.anchor != nil && e.At != 0 {
			at = p.anchor.Time(e.At)
		}
		buf[n] = kept{d: d, e: e, at: at}
		n++
	}
	return buf[:n]
}

// keep puts each of ks, the exemplars of one Interval, in its slot,
// replacing what the slot held.
func (x *exemplarSlots) keep(ks []kept) {
	for _, k := range ks {
		x[slotOf(k.d)] = k
	}
}

// sorted returns the exemplars x holds, from the fastest span, in buf.
func (x *exemplarSlots) sorted(buf *[slots]kept) []kept {
	n := 0
	for _, k := range x {
		if k.e.TraceID == ([16]byte{}) {
			continue
		}
		i := n
		for ; i > 0 && buf[i-1].d > k.d; i-- {
			buf[i] = buf[i-1]
		}
		buf[i] = k
		n++
	}
	return buf[:n]
}

// idLen is the bytes of a trace id and a span id.
const idLen = 16 + 8

// exemplarsOf returns the exemplars ks of a point, in seconds at rate as
// [export.Seconds] converts them, in memory of their own: one slice of
// exemplars and one of their ids. It returns nil for none. A zero SpanID
// is left out.
func exemplarsOf(ks []kept, rate counter.TickRate) []metricdata.Exemplar[float64] {
	if len(ks) == 0 {
		return nil
	}
	out := make([]metricdata.Exemplar[float64], len(ks))
	ids := make([]byte, idLen*len(ks))
	for i, k := range ks {
		id := ids[idLen*i : idLen*(i+1) : idLen*(i+1)]
		copy(id, k.e.TraceID[:])
		copy(id[16:], k.e.SpanID[:])
		out[i] = metricdata.Exemplar[float64]{Time: k.at, Value: export.Seconds(k.d, rate), TraceID: id[:16:16]}
		if k.e.SpanID != ([8]byte{}) {
			out[i].SpanID = id[16:]
		}
	}
	return out
}
