package counterprom

import (
	"math/rand/v2"
	"testing"

	"github.com/tickstamp/counter"
	"pgregory.net/rapid"
)

// TestNativeSlot records spans from 0 ticks to the largest, some with
// exemplars, and checks that the exemplars of each Interval have native
// slots of their own, so that a scrape keeps them all.
func TestNativeSlot(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := counter.NewHistogram()
		var e counter.Exemplar
		for i := range rapid.IntRange(1, 200).Draw(t, "n") {
			e.TraceID[0] = byte(i) | 1
			h.RecordExemplar(counter.Tickdelta(rapid.Uint64Range(0, 1<<rapid.IntRange(0, 63).Draw(t, "doubling")-1).Draw(t, "d")), e)
		}
		var s counter.Snapshot
		h.Interval(&s)
		seen := map[int]counter.Tickdelta{}
		for d := range s.Exemplars() {
			if prev, ok := seen[nativeSlot(d)]; ok {
				t.Fatalf("spans of %d and %d ticks share slot %d", prev, d, nativeSlot(d))
			}
			seen[nativeSlot(d)] = d
		}
	})
}

// collector returns a Collector of a new Histogram at 2 GHz, with the
// bounds of the external tests, and native buckets where native.
func collector(t *testing.T, native bool) (*Collector, *counter.Histogram) {
	t.Helper()
	r, err := counter.NewTickRate(2_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	opts := Opts{Name: "x_seconds", Buckets: []float64{1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.05}}
	if native {
		opts.NativeHistogramBucketFactor = 1.01
	}
	h := counter.NewHistogram()
	c := New(h, r, opts)
	if c.err != nil {
		t.Fatal(c.err)
	}
	return c, h
}

// TestNoExemplarsNoCost checks that a series whose spans have no exemplars
// holds nothing for them, and that taking an Interval without exemplars
// allocates nothing (the native window being wide enough already); and that
// a series' kept exemplars add no allocation to a scrape.
func TestNoExemplarsNoCost(t *testing.T) {
	for _, native := range []bool{false, true} {
		c, h := collector(t, native)
		spans := make([]counter.Tickdelta, 5000)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range spans {
			spans[i] = counter.Tickdelta(rng.Int64N(1e8))
		}
		for _, d := range spans {
			h.Record(d)
		}
		var in counter.Snapshot
		h.Interval(&in)
		var s series
		s.init(&c.shape, nil)
		n := uint64(0)
		if allocs := testing.AllocsPerRun(100, func() {
			n++
			s.add(&in, &c.shape, &take{n: n})
		}); allocs != 0 || s.ex != nil {
			t.Errorf("native %v: %v allocations an Interval, exemplars %v; want none", native, allocs, s.ex)
		}

		scrape := func() float64 { return testing.AllocsPerRun(100, func() { c.metrics(&s) }) }
		without := scrape()
		h.RecordExemplar(1500, counter.Exemplar{TraceID: [16]byte{1}, SpanID: [8]byte{2}})
		h.RecordExemplar(400_000_000, counter.Exemplar{TraceID: [16]byte{3}}) // past the bounds
		h.Interval(&in)
		s.add(&in, &c.shape, &take{n: n + 1})
		if s.ex == nil || !s.ex.infinite() {
			t.Fatalf("native %v: exemplars %v; want two, one on +Inf", native, s.ex)
		}
		if with := scrape(); with != without {
			t.Errorf("native %v: a scrape with exemplars kept allocates %v; without, %v", native, with, without)
		}
	}
}
