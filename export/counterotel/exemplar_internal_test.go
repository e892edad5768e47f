package counterotel

import (
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// TestExemplarSlots checks slotOf against what a Snapshot keeps: a span v
// with an exemplar and a slower span q with another, recorded in one
// Interval, leave only q's where slotOf puts them in one slot, and both
// where it does not. v runs over the ends of each doubling up to 2⁴⁴ ticks
// and q over a span in each slot, far slower.
func TestExemplarSlots(t *testing.T) {
	h := counter.NewHistogram()
	var s counter.Snapshot
	vs := []counter.Tickdelta{0, 1, 2, 3, 100}
	for k := 6; k <= 44; k++ {
		vs = append(vs, 1<<k-1, 1<<k, 1<<k+1)
	}
	ev := counter.Exemplar{TraceID: [16]byte{1}, SpanID: [8]byte{1}}
	eq := counter.Exemplar{TraceID: [16]byte{2}, SpanID: [8]byte{2}}
	for k := range slots {
		q := counter.Tickdelta(1) << (46 + k) // of the doubling 40+k above 128 ticks
		if got := slotOf(q); got != k {
			t.Fatalf("slotOf(%d) = %d; want %d", q, got, k)
		}
		for _, v := range vs {
			h.RecordExemplar(v, ev)
			h.RecordExemplar(q, eq)
			h.Interval(&s)
			n := 0
			for range s.Exemplars() {
				n++
			}
			want := 2
			if slotOf(v) == k {
				want = 1
			}
			if n != want {
				t.Errorf("spans %d (slotOf %d) and %d (slot %d): the Snapshot keeps %d exemplars; want %d", v, slotOf(v), q, k, n, want)
			}
		}
	}
}

// TestExemplarPathAllocs checks that what take adds for exemplars
// allocates nothing for an Interval without one, with an anchor or not,
// and that a point's exemplars take two allocations, however many.
func TestExemplarPathAllocs(t *testing.T) {
	rate, err := counter.NewTickRate(2_496_000_000)
	if err != nil {
		t.Fatal(err)
	}
	a, err := counter.NewAnchor(counter.Monotonic())
	if err != nil {
		t.Fatal(err)
	}
	h := counter.NewHistogram()
	for d := range counter.Tickdelta(1000) {
		h.Record(d * 997)
	}
	var none counter.Snapshot
	h.Interval(&none)
	now := time.Now()
	var x exemplarSlots
	for _, p := range []*Producer{NewProducer(), NewProducer(WithAnchor(a))} {
		var buf, sorted [slots]kept
		if n := testing.AllocsPerRun(100, func() {
			ks := p.taken(&none, now, &buf)
			x.keep(ks)
			if exemplarsOf(ks, rate) != nil || exemplarsOf(x.sorted(&sorted), rate) != nil {
				panic("exemplars of none")
			}
		}); n != 0 {
			t.Errorf("anchor %v: %v allocations for an Interval without exemplars; want 0", p.anchor != nil, n)
		}
	}

	var full counter.Snapshot
	for k := range slots {
		d := counter.Tickdelta(1) << (7 + k)
		h.RecordExemplar(d, counter.Exemplar{TraceID: [16]byte{byte(k + 1)}, SpanID: [8]byte{byte(k + 1)}, At: 1})
	}
	h.Interval(&full)
	p := NewProducer(WithAnchor(a))
	var buf [slots]kept
	ks := p.taken(&full, now, &buf)
	if len(ks) != slots {
		t.Fatalf("%d exemplars taken; want %d", len(ks), slots)
	}
	if n := testing.AllocsPerRun(100, func() { _ = exemplarsOf(ks, rate) }); n != 2 {
		t.Errorf("%v allocations for a point's %d exemplars; want 2", n, len(ks))
	}
	for i, e := range exemplarsOf(ks, rate) {
		if len(e.TraceID) != 16 || len(e.SpanID) != 8 || cap(e.TraceID) != 16 || cap(e.SpanID) != 8 {
			t.Errorf("exemplar %d: ids of %d and %d bytes, room for %d and %d; want 16 and 8, no more", i, len(e.TraceID), len(e.SpanID), cap(e.TraceID), cap(e.SpanID))
		}
		if want := export.Seconds(ks[i].d, rate); e.Value != want {
			t.Errorf("exemplar %d: %g s; want %g s", i, e.Value, want)
		}
	}
}
