package counter_test

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tickstamp/counter"
)

// exemplarOf is the exemplar of span d in these tests: its trace id, span
// id and At all say d, so that one torn between two records shows.
func exemplarOf(d counter.Tickdelta) counter.Exemplar {
	var e counter.Exemplar
	binary.LittleEndian.PutUint64(e.TraceID[:8], uint64(d))
	binary.LittleEndian.PutUint64(e.TraceID[8:], ^uint64(d))
	binary.LittleEndian.PutUint64(e.SpanID[:], uint64(d)*3+1)
	e.At = counter.Tickstamp(uint64(d) ^ 0x5555)
	return e
}

// checkWhole fails where an exemplar of s is not its span's.
func checkWhole(t *testing.T, s *counter.Snapshot) {
	t.Helper()
	for d, e := range s.Exemplars() {
		if e != exemplarOf(d) {
			t.Fatalf("the exemplar of a span of %d ticks is %x/%x/%d, another span's or torn", d, e.TraceID, e.SpanID, e.At)
		}
	}
}

// slotOf is the slot the Exemplar doc's rule gives a span: its doubling,
// modulo ten, spans below 128 ticks being one.
func slotOf(d counter.Tickdelta) int {
	if d < 128 {
		return 0
	}
	return (bits.Len64(uint64(d)) - 7) % 10
}

// wantExemplars returns the spans whose exemplars the rule keeps of spans
// ds recorded with one: the slowest of each slot, from the fastest.
func wantExemplars(ds []counter.Tickdelta) []counter.Tickdelta {
	var slots [10]counter.Tickdelta
	for i := range slots {
		slots[i] = -1
	}
	for _, d := range ds {
		if d >= 0 {
			slots[slotOf(d)] = max(slots[slotOf(d)], d)
		}
	}
	var out []counter.Tickdelta
	for _, d := range slots {
		if d >= 0 {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// spansOf returns the spans of s's exemplars, in the order it yields them.
func spansOf(s *counter.Snapshot) []counter.Tickdelta {
	var out []counter.Tickdelta
	for d := range s.Exemplars() {
		out = append(out, d)
	}
	return out
}

// TestExemplarsSlowestOfEachDoubling records spans over fifteen doublings,
// shuffled, some with an exemplar and some without, through each writer: a
// Recorder's first spans (which go to a lock), its later ones (its own
// tally, widened as spans arrive), Histogram.RecordExemplar, and several
// Intervals. Each Interval keeps the exemplar of the slowest span recorded
// with one in each doubling modulo ten, whole, yielded from the fastest;
// spans without one, negative spans and zero exemplars take no part.
func TestExemplarsSlowestOfEachDoubling(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, via := range []string{"Recorder, first spans", "Recorder", "Histogram"} {
		h := counter.NewHistogram()
		r := h.Recorder()
		if via == "Recorder" {
			for range 100 { // past the lock's spans
				r.Record(1)
			}
			h.Interval(new(counter.Snapshot))
		}
		for round := range 4 {
			var with []counter.Tickdelta
			n := 200
			if via == "Recorder, first spans" {
				n = 60
				r = h.Recorder()
			}
			for range n {
				d := counter.Tickdelta(rng.Uint64N(1 << (8 + rng.IntN(15))))
				switch k := rng.IntN(4); {
				case k == 0:
					if via == "Histogram" {
						h.Record(d)
					} else {
						r.Record(d)
					}
					continue
				case k == 1:
					// A zero exemplar is none; so is one of a negative span.
					e := counter.Exemplar{SpanID: [8]byte{1}}
					if rng.IntN(2) == 0 {
						d, e = -d-1, exemplarOf(d)
					}
					if via == "Histogram" {
						h.RecordExemplar(d, e)
					} else {
						r.RecordExemplar(d, e)
					}
					continue
				}
				with = append(with, d)
				if via == "Histogram" {
					h.RecordExemplar(d, exemplarOf(d))
				} else {
					r.RecordExemplar(d, exemplarOf(d))
				}
			}
			var s counter.Snapshot
			h.Interval(&s)
			checkWhole(t, &s)
			if got, want := spansOf(&s), wantExemplars(with); !slices.Equal(got, want) {
				t.Fatalf("%s, Interval %d: exemplars of the spans %v; want %v", via, round, got, want)
			}
		}
	}
}

// TestExemplarsMerge: Snapshot.Merge keeps, of each slot, the slower span's
// exemplar, as recording both sets into one Histogram would.
func TestExemplarsMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var all []counter.Tickdelta
	var merged counter.Snapshot
	for range 3 {
		h := counter.NewHistogram()
		for range 50 {
			d := counter.Tickdelta(rng.Uint64N(1 << (8 + rng.IntN(15))))
			all = append(all, d)
			h.RecordExemplar(d, exemplarOf(d))
		}
		var s counter.Snapshot
		h.Interval(&s)
		merged.Merge(&s)
	}
	checkWhole(t, &merged)
	if got, want := spansOf(&merged), wantExemplars(all); !slices.Equal(got, want) {
		t.Fatalf("merged exemplars of the spans %v; want %v", got, want)
	}
	merged.Reset()
	if got := spansOf(&merged); len(got) != 0 {
		t.Fatalf("a Snapshot Reset keeps the exemplars of %v", got)
	}
}

// TestExemplarsFollowTheirSpans records from several goroutines, each with
// its own Recorder and some through Histogram.RecordExemplar, while a
// reporter takes Intervals: spans without exemplars below 2²⁰ ticks and,
// now and then, a marker span with one, in [2³⁰, 2³¹), each slower than
// the last of its goroutine. Whatever Interval a marker's span lands in,
// its exemplar is there too, whole: an Interval whose largest span is a
// marker keeps that marker's exemplar as the slowest, and no exemplar
// outlives its span's Interval.
func TestExemplarsFollowTheirSpans(t *testing.T) {
	h := counter.NewHistogram()
	const writers = 4
	var next atomic.Uint64 // markers, numbered in order
	var stop atomic.Bool
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			r := h.Recorder()
			defer r.Close()
			rng := rand.New(rand.NewPCG(uint64(g), 9))
			for !stop.Load() {
				for range 100 {
					r.Record(counter.Tickdelta(1000 + rng.IntN(1<<19)))
				}
				m := counter.Tickdelta(1<<30 + next.Add(1))
				if g%2 == 0 {
					r.RecordExemplar(m, exemplarOf(m))
				} else {
					// A shared lock's tally: markers of several goroutines.
					// Each is numbered after the last taken, so slower.
					h.RecordExemplar(m, exemplarOf(m))
				}
			}
		})
	}
	deadline := time.Now().Add(300 * time.Millisecond)
	var s counter.Snapshot
	intervals, withMarker := 0, 0
	for time.Now().Before(deadline) || withMarker < 20 {
		time.Sleep(time.Duration(rand.IntN(500)) * time.Microsecond)
		h.Interval(&s)
		intervals++
		checkWhole(t, &s)
		if s.Max() < 1<<30 {
			if got := spansOf(&s); len(got) != 0 {
				t.Fatalf("Interval %d holds no marker but the exemplars of %v", intervals, got)
			}
			continue
		}
		withMarker++
		got := spansOf(&s)
		if len(got) == 0 || got[len(got)-1] != s.Max() {
			t.Fatalf("Interval %d: the slowest span is the marker %d; its exemplars are of %v", intervals, s.Max(), got)
		}
		if time.Now().After(deadline.Add(10 * time.Second)) {
			break
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d Intervals, %d with a marker, %d markers", intervals, withMarker, next.Load())
}

// TestSummaryAndDrawShowTheMaxTrace: the Summary of a Snapshot whose
// slowest span was recorded with an exemplar has its trace id, in String
// and Draw too; one whose slowest span was recorded without has none.
func TestSummaryAndDrawShowTheMaxTrace(t *testing.T) {
	rate, _ := counter.NewTickRate(1_000_000_000)
	h := counter.NewHistogram()
	e := counter.Exemplar{TraceID: [16]byte{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36}, SpanID: [8]byte{1}}
	h.RecordExemplar(1000, counter.Exemplar{TraceID: [16]byte{9}})
	h.RecordExemplar(2000, e)
	var s counter.Snapshot
	h.Interval(&s)
	m := s.Summary(rate)
	if m.MaxTraceID != e.TraceID {
		t.Fatalf("MaxTraceID %x; want %x", m.MaxTraceID, e.TraceID)
	}
	const want = "2 spans: mean 1.5µs, p50 1µs, p90 2µs, p99 2µs, p99.9 2µs, max 2µs, max trace 4bf92f3577b34da6a3ce929d0e0e4736"
	if got := m.String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	var b []byte
	buf := &appendWriter{&b}
	if err := s.Draw(buf, rate); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(splitLines(string(b)), "max trace 4bf92f3577b34da6a3ce929d0e0e4736") {
		t.Errorf("Draw wrote no line of the max's trace:\n%s", b)
	}

	h.RecordExemplar(1000, e)
	h.Record(3000) // the slowest, without an exemplar
	h.Interval(&s)
	if m := s.Summary(rate); m.MaxTraceID != [16]byte{} {
		t.Errorf("the slowest span has no exemplar, and MaxTraceID is %x", m.MaxTraceID)
	}
}

// appendWriter appends what it is given to a slice.
type appendWriter struct{ b *[]byte }

func (w *appendWriter) Write(p []byte) (int, error) {
	*w.b = append(*w.b, p...)
	return len(p), nil
}

// splitLines returns the lines of s, without their newlines.
func splitLines(s string) []string {
	var out []string
	start := 0
	for i := range len(s) {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
