package handover

import (
	"maps"
	"math/rand/v2"
	"testing"
)

// countOf returns the count of bucket i.
func (s *Dist) countOf(i int) uint64 {
	for j, n := range s.Buckets() {
		if j == i {
			return n
		}
	}
	return 0
}

// TestDistWindows adds spans in an order that widens the window down, up
// and past 2³² in one bucket, merges, resets and reuses, and checks every
// bucket against a count kept apart.
func TestDistWindows(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s, m Dist
	for round := range 4 {
		want := map[int]uint64{}
		s.Reset()
		for range 2000 {
			d := int64(r.Uint64N(1 << r.UintN(62)))
			s.Add(KindSpan, d)
			want[int(BucketOf(uint64(d)))]++
		}
		// A count past 2³² in one bucket, by merging a Dist that holds it.
		var big Dist
		big.Add(KindSpan, 1000)
		big.addAt(int(BucketOf(1000)-big.off), 1<<33)
		big.count += 1 << 33
		s.Merge(&big)
		want[int(BucketOf(1000))] += 1<<33 + 1
		got := maps.Collect(s.Buckets())
		if !maps.Equal(got, want) {
			t.Fatalf("round %d: the buckets differ from the counts kept apart", round)
		}
		m.Reset()
		m.Merge(&s)
		if !m.Equal(&s) {
			t.Fatalf("round %d: a merge into an empty Dist is not the same", round)
		}
		if s.Bytes() > 4*2*NumBuckets+64 {
			t.Fatalf("round %d: %d bytes of counts; want at most two halves of the whole range", round, s.Bytes())
		}
	}
}
