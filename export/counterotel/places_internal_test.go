package counterotel

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// TestPlaces places every bucket of spans from 1 to 2⁶² ticks, in a
// shuffled order and three times over: each look-up, the first or a
// remembered one, is the bucket that export.Exponential.Index gives the
// bucket's middle, at each of two rates and each scale the Producer takes.
// Bucket 0, of the span 0, is never placed (see places.fill).
func TestPlaces(t *testing.T) {
	h := counter.NewHistogram()
	for d := counter.Tickdelta(1); d < 1<<62; d += d/512 + 1 {
		h.Record(d)
	}
	var s counter.Snapshot
	h.Interval(&s)
	var buckets []counter.Bucket
	for b := range s.Buckets() {
		buckets = append(buckets, b)
	}
	if len(buckets) < export.NumBuckets-200 {
		t.Fatalf("%d buckets; want nearly all %d", len(buckets), export.NumBuckets)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, hz := range []uint64{1_000_000_000, 2_999_999_999} {
		rate, err := counter.NewTickRate(hz)
		if err != nil {
			t.Fatal(err)
		}
		for _, scale := range []int32{-10, -4, 0, 3, 7, 8} {
			l := newLayout(DefaultMaxSize, scale)
			pl := newPlaces(rate)
			for round := range 3 {
				r.Shuffle(len(buckets), func(i, j int) { buckets[i], buckets[j] = buckets[j], buckets[i] })
				for _, b := range buckets {
					want := l.exp.Index(export.Seconds(export.Middle(b), rate))
					if got := pl.index(export.BucketIndex(b), &l); got != want {
						t.Fatalf("%d Hz, scale %d, round %d: bucket [%d, %d] placed at %d; want %d",
							hz, scale, round, b.Min, b.Max, got, want)
					}
				}
			}
		}
	}
}

// TestPlacesBytes checks the memory the package doc gives a rate's places:
// a table of a pointer a doubling (464 bytes with the rate, on a 64-bit
// platform), and a row of 512 bytes for each doubling of the buckets it
// placed, and no other.
func TestPlacesBytes(t *testing.T) {
	rate, err := counter.NewTickRate(1_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	l := newLayout(DefaultMaxSize, DefaultMaxScale)
	pl := newPlaces(rate)
	ptr := int(unsafe.Sizeof(uintptr(0)))
	if got, want := int(unsafe.Sizeof(*pl)), ptr+export.NumBuckets/128*ptr; got != want {
		t.Fatalf("places take %d bytes; want %d", got, want)
	}
	if got := int(unsafe.Sizeof(*pl.rows[0])); got != 512 {
		t.Fatalf("a row takes %d bytes; want 512", got)
	}
	// Spans from 1 µs to 1 ms, three decades: the buckets of ten or eleven
	// doublings.
	h := counter.NewHistogram()
	for d := counter.Tickdelta(1000); d <= 1_000_000; d += d / 300 {
		h.Record(d)
	}
	var s counter.Snapshot
	h.Interval(&s)
	doublings := map[int]bool{}
	for b := range s.Buckets() {
		i := export.BucketIndex(b)
		pl.index(i, &l)
		doublings[i/128] = true
	}
	rows := 0
	for _, r := range pl.rows {
		if r != nil {
			rows++
		}
	}
	if rows != len(doublings) || rows > 11 {
		t.Fatalf("%d rows for spans of %d doublings; want one each, at most 11", rows, len(doublings))
	}
}
