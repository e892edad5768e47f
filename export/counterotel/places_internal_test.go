package counterotel

import (
	"math/rand/v2"
	"testing"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// TestPlaces places every bucket of spans from 1 to 2⁶² ticks, in a
// shuffled order and three times over: each look-up, the first or a
// remembered one, is the bucket that export.Exponential.Index gives the
// bucket's middle, at each of two rates and each scale the Producer takes.
// Bucket 0, of the span 0, is never placed (see newPlaces).
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
			pl := newPlaces(rate, &l)
			for round := range 3 {
				r.Shuffle(len(buckets), func(i, j int) { buckets[i], buckets[j] = buckets[j], buckets[i] })
				for _, b := range buckets {
					want := l.exp.Index(export.Seconds(export.Middle(b), rate))
					if got := pl.Value(export.BucketIndex(b)); got != want {
						t.Fatalf("%d Hz, scale %d, round %d: bucket [%d, %d] placed at %d; want %d",
							hz, scale, round, b.Min, b.Max, got, want)
					}
				}
			}
		}
	}
}
