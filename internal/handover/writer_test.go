package handover

import (
	"math"
	"math/big"
	"testing"
	"time"
)

// newTestCollector returns a Collector whose barrier is none: the tests
// of this file run the writer and the reader on one goroutine.
func newTestCollector() *Collector { return NewCollector(NoBarrier) }

// TestFullBucketHandsOver fills a bucket of a writer's narrow tally to
// 255, so that the next span widens the tally, and then to 2³²−1: the next
// spans go to a fresh tally, and the Interval still counts every span
// exactly once. It also carries a tally's sum past 2⁶⁴.
func TestFullBucketHandsOver(t *testing.T) {
	c := newTestCollector()
	w := c.NewWriter()
	w.Record(7)
	p := placeOf(KindSpan, 7)
	if w.cur.Load().wide {
		t.Fatal("a writer's first tally is wide; want counts of a byte")
	}
	w.cur.Load().setCount(p, math.MaxUint8)
	w.Record(7) // the narrow bucket is full: a tally of wide counts goes in front
	if tl := w.cur.Load(); !tl.wide || tl.prev == nil {
		t.Fatalf("after a narrow count passed 255: wide %v, a tally behind %v; want a wide one in front of the narrow", tl.wide, tl.prev != nil)
	}
	w.cur.Load().setCount(p, math.MaxUint32)
	w.Record(7) // the bucket is full: a fresh tally goes in front, then counts
	w.Record(7)
	var s Dist
	c.Interval(&s)
	// 255 in the narrow tally, 2³²−1 in the wide one, 2 in the last.
	const want = math.MaxUint8 + math.MaxUint32 + 2
	if s.Count() != want {
		t.Fatalf("count %d; want %d", s.Count(), uint64(want))
	}
	if got := s.countOf(int(BucketOf(7))); got != want {
		t.Fatalf("bucket of 7 holds %d; want %d", got, uint64(want))
	}

	// A tally's sum carries past 2⁶⁴ into 128 bits, as the Dist's does.
	w.Record(1 << 62)
	w.cur.Load().lo = math.MaxUint64 - 10
	w.Record(1 << 62)
	w.Record(5)
	w.Close()
	c.Interval(&s)
	if s.Count() != 3 {
		t.Fatalf("count %d; want 3", s.Count())
	}
	// (2⁶⁴ − 11) + 2⁶² + 5 = 2⁶⁴ + 2⁶² − 6.
	if hi, lo := s.Sum(); hi != 1 || lo != 1<<62-6 {
		t.Fatalf("sum %d:%d; want the 128-bit sum of the spans, 1:2⁶²−6", hi, lo)
	}
}

// TestBareKeepsTheWidth checks the tally a writer's first span after an
// Interval puts in front of the bare one installed: as narrow as the one
// taken, unless that one was wide. (A bare tally counts nothing, and its
// first span, inside its window, once widened the counts as a full narrow
// count does, so that every busy writer's tallies were wide after its
// first Interval.)
func TestBareKeepsTheWidth(t *testing.T) {
	c := newTestCollector()
	w := c.NewWriter()
	var s Dist
	for i := range 3 {
		w.Record(7)
		c.Interval(&s)
		w.Record(7)
		if tl := w.cur.Load(); tl.wide || tl.bare {
			t.Fatalf("Interval %d: the tally after the bare one: wide %v, bare %v; want a narrow one", i+1, tl.wide, tl.bare)
		}
	}
	w.cur.Load().setCount(placeOf(KindSpan, 7), math.MaxUint8)
	w.Record(7) // widens
	c.Interval(&s)
	w.Record(7)
	if tl := w.cur.Load(); !tl.wide {
		t.Fatal("after an Interval took a wide tally, the next is narrow; want it wide")
	}
	c.Interval(&s)
	if s.Count() != 1 || s.countOf(int(BucketOf(7))) != 1 {
		t.Fatalf("the last Interval holds %d spans; want the 1 recorded since the one before", s.Count())
	}
}

// TestHugeSpansKeepOneTally records spans near the top of the range, whose
// sum passes 2⁶⁴ every few spans: the writer keeps its one tally, and the
// Interval's sum is exact.
func TestHugeSpansKeepOneTally(t *testing.T) {
	c := newTestCollector()
	w := c.NewWriter()
	for range 256 { // past a count of a byte: the tally is wide now
		w.Record(math.MaxInt64)
	}
	tally := w.cur.Load()
	const n = 100_000 - 256
	for range n {
		w.Record(math.MaxInt64)
	}
	if w.cur.Load() != tally {
		t.Fatal("the writer put a fresh tally in front for a sum past 2⁶⁴; want none")
	}
	w.Close()
	var s Dist
	c.Interval(&s)
	want := new(big.Int).Mul(big.NewInt(n+256), big.NewInt(math.MaxInt64))
	hi, lo := s.Sum()
	got := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
	got.Add(got, new(big.Int).SetUint64(lo))
	if got.Cmp(want) != 0 || s.Count() != n+256 {
		t.Fatalf("sum %s, count %d; want %s, %d", got, s.Count(), want, n+256)
	}
}

// TestWriterLifecycle walks a writer through its life and checks the
// Collector's lists after each step: a new writer has no tally and is not
// listed; its first record lists it with a tally of its own; Close changes
// nothing but a flag, the next Interval takes its spans and the one after
// takes it off the list, its tally to the pool; a writer used after that
// lists itself again from the pool, and Close twice is fine.
func TestWriterLifecycle(t *testing.T) {
	c := newTestCollector()
	var shard Writer // listed for good, as a Histogram's shard is
	c.List(&shard)
	w := c.NewWriter()
	if c.Listed() != 1 || w.cur.Load() != closed || c.Spares() != 0 {
		t.Fatalf("a new writer: %d writers, closed %v, %d spare; want 1, true, 0", c.Listed(), w.cur.Load() == closed, c.Spares())
	}
	w.Record(1)
	if c.Listed() != 2 || w.cur.Load() == closed || c.Spares() != 0 {
		t.Fatalf("a writer after its first record: %d writers, closed %v, %d spare; want 2, false, 0", c.Listed(), w.cur.Load() == closed, c.Spares())
	}
	w.Close()
	if c.Listed() != 2 || w.cur.Load() == closed {
		t.Fatalf("after Close: %d writers, closed %v; want 2, false: Close only asks", c.Listed(), w.cur.Load() == closed)
	}
	var s Dist
	c.Interval(&s)
	if s.Count() != 1 || c.Listed() != 2 {
		t.Fatalf("the Interval after Close: count %d, %d writers; want 1, 2", s.Count(), c.Listed())
	}
	c.Interval(&s)
	if s.Count() != 0 || c.Listed() != 1 || w.cur.Load() != closed || c.Spares() != 1 {
		t.Fatalf("the second Interval: count %d, %d writers, closed %v, %d spare; want 0, 1, true, 1",
			s.Count(), c.Listed(), w.cur.Load() == closed, c.Spares())
	}
	w.Record(2) // lists itself again, taking the pool's tally
	if c.Listed() != 2 || c.Spares() != 0 {
		t.Fatalf("a writer used after Close: %d writers, %d spare; want 2, 0", c.Listed(), c.Spares())
	}
	w.Close()
	w.Close() // twice is fine
	c.Interval(&s)
	if s.Count() != 1 || s.Min() != 2 {
		t.Fatalf("count %d, min %d; want the one span of 2", s.Count(), s.Min())
	}
	c.Interval(&s)
	if n := c.Listed(); n != 1 {
		t.Fatalf("%d writers after the writer's second Close; want 1", n)
	}
}

// TestCloseNeverWaits closes writers while an Interval holds the
// Collector, between its two halves and while another caller holds it:
// Close returns at once, and the writer is off the list after at most two
// more Intervals, its spans in exactly one Interval. An idle writer that
// was never closed goes off the list too, after idleRetire more, and one
// listed for good never does.
func TestCloseNeverWaits(t *testing.T) {
	c := newTestCollector()
	var s Dist
	total := uint64(0)
	w := c.NewWriter()
	w.Record(5)
	if c.begin() {
		c.barrier.pass()
	}
	w.Close()
	c.end(&s)
	total += s.Count()

	v := c.NewWriter()
	v.Record(7)
	c.interval.Lock() // as a running Interval holds it
	done := make(chan struct{})
	go func() { v.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for the Interval")
	}
	c.interval.Unlock()
	for range 3 {
		c.Interval(&s)
		total += s.Count()
	}
	if n := c.Listed(); n != 0 {
		t.Fatalf("writers closed during an Interval: %d listed three Intervals on, want 0", n)
	}
	if total != 2 {
		t.Fatalf("%d spans in all the Intervals, want 2", total)
	}

	idle := c.NewWriter()
	idle.Record(9)
	var shard Writer
	c.List(&shard)
	shard.Record(3)
	for i := range idleRetire + 2 {
		c.Interval(&s)
		total += s.Count()
		if want := 2; i < idleRetire+1 && c.Listed() != want {
			t.Fatalf("Interval %d: %d listed; want %d: the idle writer stays for %d", i, c.Listed(), want, idleRetire+1)
		}
	}
	if n := c.Listed(); n != 1 || idle.cur.Load() != closed || shard.cur.Load() == closed {
		t.Fatalf("%d listed, the idle writer's tally closed %v, the shard's %v; want 1, true, false", n, idle.cur.Load() == closed, shard.cur.Load() == closed)
	}
	if total != 4 {
		t.Fatalf("%d spans in all the Intervals, want 4", total)
	}
}

// TestOneMapOfKinds checks that a Dist and a Tally count each kind in the
// same field, and that wordsSince reads back the kind a record changed.
func TestOneMapOfKinds(t *testing.T) {
	for _, tc := range []struct {
		k Kind
		d int64
	}{{KindSpan, 0}, {KindSpan, 900}, {KindUnknown, 77}, {KindNegative, -3}, {KindMigrated, 5}, {KindMigrated, -5}} {
		c := newTestCollector()
		w := c.NewWriter()
		c.attach(w, tc.k, tc.d, false)
		tl := w.cur.Load()
		was := wordsOf(tl)
		w.RecordKind(tc.d, tc.k)
		var want Dist
		want.Add(tc.k, tc.d)
		// The words first: addTally empties the counts it reads.
		k, d, ok := wordsSince(was, wordsOf(tl))
		var got Dist
		got.addTally(tl)
		if !got.Equal(&want) {
			t.Errorf("%v %d: the tally holds count %d, negative %d, migrated %d, unknown %d; the Dist %d, %d, %d, %d",
				tc.k, tc.d, got.count, got.negative, got.migrated, got.unknownCPU, want.count, want.negative, want.migrated, want.unknownCPU)
		}
		var back Dist
		back.Add(k, d)
		if !ok || !back.Equal(&want) {
			t.Errorf("%v %d: wordsSince says %v %d (%v); want the same record", tc.k, tc.d, k, d, ok)
		}
	}
}

// TestIdleWriterLetsGo: a writer whose last record has ended, as its done
// says, has its tally taken whole by the next Interval, which holds
// nothing aside and leaves the writer the emptied tally as its spare; the
// writer, idle, gives the spare back at the Interval after, and the one
// after takes it off the list. Its next record takes a tally again, and
// every record is in one Interval.
func TestIdleWriterLetsGo(t *testing.T) {
	c := newTestCollector()
	w := c.NewWriter()
	var s, total Dist
	for d := range int64(1000) {
		w.Record(d * 1000)
	}
	c.Interval(&s)
	total.Merge(&s)
	if w.flight.holding() || w.cur.Load().size() != 0 || w.spare.Load() == nil {
		t.Fatalf("after the first Interval: holding %v, %d counts installed, a spare %v; want false, 0 (a bare tally), true",
			w.flight.holding(), w.cur.Load().size(), w.spare.Load() != nil)
	}
	c.Interval(&s)
	total.Merge(&s)
	if w.spare.Load() != nil || c.Listed() != 1 {
		t.Fatalf("after the second Interval: a spare %v, %d listed; want false, 1", w.spare.Load() != nil, c.Listed())
	}
	c.Interval(&s)
	total.Merge(&s)
	if c.Listed() != 0 || w.cur.Load() != closed {
		t.Fatalf("after the third Interval: %d listed, closed %v; want 0, true", c.Listed(), w.cur.Load() == closed)
	}
	w.Record(5)
	c.Interval(&s)
	total.Merge(&s)
	var want Dist
	for d := range int64(1000) {
		want.Add(KindSpan, d*1000)
	}
	want.Add(KindSpan, 5)
	if !total.Equal(&want) {
		t.Fatalf("the Intervals hold count %d, sum %d; want %d, %d", total.count, total.lo, want.count, want.lo)
	}
}

// TestSpareOfTheWindow checks that a writer attaching takes, of the pool's
// tallies, one whose storage holds its window where one does, whatever the
// order: a narrow tally first does not cost the wide window an allocation.
func TestSpareOfTheWindow(t *testing.T) {
	c := NewCollector(NoBarrier)
	narrow, wide := new(Tally), new(Tally)
	narrow.fit(100, 116, true)
	wide.fit(0, 2048, true)
	c.poolPut(narrow)
	c.poolPut(wide)
	w := c.NewWriter()
	if got := w.spareTally(10, 2000, true); got != wide {
		t.Fatalf("a window of 1,990 buckets took the tally of %d; want the one of 2,048", cap(got.counts))
	}
	if got := w.spareTally(100, 116, true); got != narrow {
		t.Fatal("the narrow window did not take the narrow tally")
	}
	if got := w.spareTally(100, 116, true); got == narrow || got == wide {
		t.Fatal("the pool gave a tally twice")
	}
}
