package handover

import (
	"math"
	"math/big"
	"testing"
)

// newTestCollector returns a Collector whose barrier is none: the tests
// of this file run the writer and the reader on one goroutine.
func newTestCollector() *Collector { return NewCollector(NoBarrier) }

// TestFullBucketHandsOver fills a bucket of a writer's tally to 2³²−1:
// the next spans go to a fresh tally, and the Interval still counts every
// span exactly once. It also carries a tally's sum past 2⁶⁴.
func TestFullBucketHandsOver(t *testing.T) {
	c := newTestCollector()
	w := c.NewWriter()
	w.Record(7)
	*w.cur.Load().of(KindSpan, 7) = math.MaxUint32
	w.Record(7) // the bucket is full: a fresh tally goes in front, then counts
	w.Record(7)
	var s Dist
	c.Interval(&s)
	if want := uint64(math.MaxUint32) + 2; s.Count() != want {
		t.Fatalf("count %d; want %d", s.Count(), want)
	}
	if got := s.countOf(int(BucketOf(7))); got != uint64(math.MaxUint32)+2 {
		t.Fatalf("bucket of 7 holds %d; want 2³²+1", got)
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

// TestHugeSpansKeepOneTally records spans near the top of the range, whose
// sum passes 2⁶⁴ every few spans: the writer keeps its one tally, and the
// Interval's sum is exact.
func TestHugeSpansKeepOneTally(t *testing.T) {
	c := newTestCollector()
	w := c.NewWriter()
	w.Record(math.MaxInt64)
	tally := w.cur.Load()
	const n = 100_000 - 1
	for range n {
		w.Record(math.MaxInt64)
	}
	if w.cur.Load() != tally || tally.prev != nil {
		t.Fatal("the writer put a fresh tally in front for a sum past 2⁶⁴; want none")
	}
	w.Close()
	var s Dist
	c.Interval(&s)
	want := new(big.Int).Mul(big.NewInt(n+1), big.NewInt(math.MaxInt64))
	hi, lo := s.Sum()
	got := new(big.Int).Lsh(new(big.Int).SetUint64(hi), 64)
	got.Add(got, new(big.Int).SetUint64(lo))
	if got.Cmp(want) != 0 || s.Count() != n+1 {
		t.Fatalf("sum %s, count %d; want %s, %d", got, s.Count(), want, n+1)
	}
}

// TestWriterLifecycle walks a writer through its life and checks the
// Collector's lists after each step: a new writer has no tally and is not
// listed; its first record lists it with a tally of its own; Close unlists it, hands its spans to the next Interval and
// keeps its tally as a spare; a writer used after Close lists itself
// again, and Close twice is fine.
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
	if c.Listed() != 1 || w.cur.Load() != closed || c.left.Count() != 1 || c.Spares() != 1 {
		t.Fatalf("after Close: %d writers, closed %v, %d left over, %d spare; want 1, true, 1, 1", c.Listed(), w.cur.Load() == closed, c.left.Count(), c.Spares())
	}
	var s Dist
	c.Interval(&s)
	if s.Count() != 1 || c.left.Count() != 0 {
		t.Fatalf("count %d, %d still left over; want 1 and 0", s.Count(), c.left.Count())
	}
	w.Record(2) // lists itself again, taking the spare
	if c.Listed() != 2 || c.Spares() != 0 {
		t.Fatalf("a writer used after Close: %d writers, %d spare; want 2, 0", c.Listed(), c.Spares())
	}
	w.Close()
	w.Close() // twice is fine
	c.Interval(&s)
	if s.Count() != 1 || s.Min() != 2 {
		t.Fatalf("count %d, min %d; want the one span of 2", s.Count(), s.Min())
	}
}

// TestCloseDuringIntervalRetires closes writers while an Interval holds
// the Collector, so that Close cannot take them off the list itself: one
// as the Interval runs (between its two halves),
// which that Interval's last step takes off, and one while the Interval is
// held by another caller, which the next Interval's first step takes off.
// Either way the writer is off the list when the Interval returns, and its
// spans are in exactly one Interval.
func TestCloseDuringIntervalRetires(t *testing.T) {
	c := newTestCollector()
	var s Dist
	w := c.NewWriter()
	w.Record(5)
	if c.begin() {
		c.barrier.pass()
	}
	w.Close()
	c.end(&s)
	if n := c.Listed(); n != 0 {
		t.Fatalf("a writer closed during an Interval: %d writers listed after it, want 0", n)
	}
	total := s.Count()

	v := c.NewWriter()
	v.Record(7)
	c.interval.Lock() // as a running Interval holds it
	v.Close()
	c.interval.Unlock()
	if n := c.Listed(); n != 1 {
		t.Fatalf("a writer closed while the Interval was held: %d listed before the next, want 1", n)
	}
	c.Interval(&s)
	if n := c.Listed(); n != 0 {
		t.Fatalf("a writer closed while the Interval was held: %d writers listed after the next, want 0", n)
	}
	total += s.Count()
	c.Interval(&s)
	if total += s.Count(); total != 2 {
		t.Fatalf("%d spans in all the Intervals, want 2", total)
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

// TestIdleWriterLetsGo: a writer whose last record an Interval took in
// flight (so that its tally waits aside, as the record may still write it)
// and which then records nothing holds that tally for one more Interval
// only: the second lets it go, and the writer then holds no counts. Its
// next record takes a tally again, and every record is in one Interval.
func TestIdleWriterLetsGo(t *testing.T) {
	c := newTestCollector()
	w := c.NewWriter()
	var s, total Dist
	for d := range int64(1000) {
		w.Record(d * 1000)
	}
	c.Interval(&s)
	total.Merge(&s)
	if !w.flight.holding() || c.heldIn.Load() != 1 || len(w.cur.Load().counts) != 0 {
		t.Fatalf("after the first Interval: holding %v, %d held in, %d counts installed; want true, 1, 0 (a bare tally)",
			w.flight.holding(), c.heldIn.Load(), len(w.cur.Load().counts))
	}
	c.Interval(&s)
	total.Merge(&s)
	if !w.flight.holding() {
		t.Fatal("the second Interval let the tally go; want it held one Interval more")
	}
	c.Interval(&s)
	total.Merge(&s)
	if w.flight.holding() || c.heldIn.Load() != 0 {
		t.Fatalf("after the third Interval: holding %v, %d held in; want false, 0", w.flight.holding(), c.heldIn.Load())
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

// TestSpareOfTheWindow checks that a tally of a wide window is made from a
// spare whose storage holds it, where one does, whatever the order of the
// spares: a narrow spare last does not cost an allocation.
func TestSpareOfTheWindow(t *testing.T) {
	c := NewCollector(NoBarrier)
	wide, narrow := newTally(0, 2048), newTally(100, 116)
	c.mu.Lock()
	c.writers = make([]*Writer, 8) // room for spares
	c.mu.Unlock()
	c.putSpare(wide)
	c.putSpare(narrow)
	if got := c.spareTally(10, 2000); got != wide {
		t.Fatalf("a window of 1,990 buckets took the spare of %d; want the one of 2,048", cap(got.counts))
	}
	if got := c.spareTally(100, 116); got != narrow {
		t.Fatal("the narrow window did not take the narrow spare")
	}
}
