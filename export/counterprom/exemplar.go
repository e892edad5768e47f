package counterprom

import (
	"encoding/hex"
	"math/bits"
	"sort"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// nativeSlots is how many exemplars a series keeps for its native
// buckets: client_golang's default NativeHistogramMaxExemplars, and as
// many as a Snapshot keeps.
const nativeSlots = 10

// A take is one Collect's taking of its Intervals: its number among the
// collector's, from 1, and the wall time of the take, with which it
// stamps an exemplar whose At it cannot convert, read on first use.
type take struct {
	n   uint64
	now time.Time
}

// time returns the wall time of t.
func (t *take) time() time.Time {
	if t.now.IsZero() {
		t.now = time.Now()
	}
	return t.now
}

// exemplars are the exemplars a series keeps, made on its first.
type exemplars struct {
	// classic[i] is the exemplar of classic bucket i, the +Inf one last.
	classic []kept
	// native[j] is the exemplar of the spans of slot j (nativeSlot),
	// where the series has native buckets; none where it does not.
	native []kept
	// sorted are the native ones that are kept, by their spans, as a
	// scrape sends them: made anew by each take that has exemplars, and
	// never changed, so that scrapes share it.
	sorted []*dto.Exemplar
}

// A kept is an exemplar a series keeps: its span, the take that took
// it (0: none), and the dto a scrape sends, made when it is taken and
// never changed, so that scrapes share it, as client_golang's share
// theirs.
type kept struct {
	d    counter.Tickdelta
	take uint64
	m    *dto.Exemplar
}

// nativeSlot returns the slot of the native exemplars of a span of d ≥ 0
// ticks: one a doubling, spans below 128 ticks being one doubling and
// doublings ten apart sharing a slot, as a Snapshot's exemplars are
// grouped, so that those of one Interval each have a slot of their own.
func nativeSlot(d counter.Tickdelta) int {
	return max(bits.Len64(uint64(d)), 7) % nativeSlots
}

// keep keeps the exemplars of in, one Interval that the take t took: each
// on the classic bucket its span's seconds fall in, and in its native slot
// where s is native, unless a span of t no faster is kept there already.
// So each classic bucket and slot keeps the exemplar of the slowest span
// of the last take that had one there.
func (s *series) keep(in *counter.Snapshot, sh *shape, t *take) {
	taken := false
	for d, e := range in.Exemplars() {
		if s.ex == nil {
			s.ex = newExemplars(len(sh.bounds)+1, sh.native)
		}
		taken = true
		sec := export.Seconds(d, sh.rate)
		var m *dto.Exemplar // made where the span is kept
		into := [2]*kept{&s.ex.classic[sort.SearchFloat64s(sh.bounds, sec)]}
		if sh.native {
			into[1] = &s.ex.native[nativeSlot(d)]
		}
		for _, k := range into {
			if k == nil || k.take == t.n && d <= k.d {
				continue
			}
			if m == nil {
				m = sh.exemplar(sec, &e, t)
			}
			*k = kept{d: d, take: t.n, m: m}
		}
	}
	if taken && sh.native {
		s.ex.sort()
	}
}

// newExemplars returns the storage of a series' exemplars: for n classic
// buckets, and for native ones where native is true.
func newExemplars(n int, native bool) *exemplars {
	all := make([]kept, n, n+nativeSlots)
	x := &exemplars{classic: all}
	if native {
		x.native = all[n : n+nativeSlots]
	}
	return x
}

// sort makes x.sorted anew from x.native.
func (x *exemplars) sort() {
	var order [nativeSlots]*kept
	n := 0
	for i := range x.native {
		if k := &x.native[i]; k.take != 0 {
			j := n
			for ; j > 0 && order[j-1].d > k.d; j-- {
				order[j] = order[j-1]
			}
			order[j] = k
			n++
		}
	}
	x.sorted = make([]*dto.Exemplar, n)
	for i, k := range order[:n] {
		x.sorted[i] = k.m
	}
}

// An exemplar is the dto of one exemplar with the storage of its fields.
type exemplar struct {
	m      dto.Exemplar
	labels [2]*dto.LabelPair
	pairs  [2]dto.LabelPair
	names  [2]string
	ids    [2]string
	value  float64
	ts     timestamppb.Timestamp
}

// exemplar returns e, of a span of sec seconds that t took, as a scrape
// sends it: labelled trace_id, and span_id where e has one, in lowercase
// hex, and stamped with At converted by the anchor, or with t's time where
// there is no anchor or At is zero.
func (sh *shape) exemplar(sec float64, e *counter.Exemplar, t *take) *dto.Exemplar {
	x := &exemplar{value: sec, names: [2]string{"trace_id", "span_id"}}
	var buf [2*len(e.TraceID) + 2*len(e.SpanID)]byte
	hex.Encode(buf[:], e.TraceID[:])
	hex.Encode(buf[2*len(e.TraceID):], e.SpanID[:])
	ids := string(buf[:])
	x.ids = [2]string{ids[:2*len(e.TraceID)], ids[2*len(e.TraceID):]}
	n := 2
	if e.SpanID == [len(e.SpanID)]byte{} {
		n = 1
	}
	for i := range n {
		x.pairs[i].Name, x.pairs[i].Value = &x.names[i], &x.ids[i]
		x.labels[i] = &x.pairs[i]
	}
	at := t.time()
	if sh.anchor != nil && e.At != 0 {
		// Time saturates some 292 years from the anchor: a valid
		// timestamp, which expfmt checks.
		at = sh.anchor.Time(e.At)
	}
	x.ts.Seconds, x.ts.Nanos = at.Unix(), int32(at.Nanosecond())
	x.m.Label, x.m.Value, x.m.Timestamp = x.labels[:n], &x.value, &x.ts
	return &x.m
}

// set puts x on m, one scrape's histogram of their series, whose classic
// buckets are x's, but the +Inf one where x keeps none there.
func (x *exemplars) set(m *dto.Histogram) {
	for i, b := range m.Bucket {
		b.Exemplar = x.classic[i].m
	}
	m.Exemplars = x.sorted
}

// infinite reports whether x keeps an exemplar on the +Inf bucket, which a
// scrape then sends, as client_golang does, with its count and its
// exemplar.
func (x *exemplars) infinite() bool { return x != nil && x.classic[len(x.classic)-1].take != 0 }

// converts reports whether a converts a Tickstamp: whether NewAnchor made
// it. The zero Anchor's methods panic, which a Collect would meet on the
// registry's goroutine, where nothing recovers it; so New asks once, here.
func converts(a *counter.Anchor) (ok bool) {
	defer func() { ok = recover() == nil }()
	a.Bound()
	return true
}
