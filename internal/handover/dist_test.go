package handover

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
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

// checkUsed fails t unless s's bits mark exactly its counts that are not
// 0, the words past them are zero, its counts are of one width, and their
// storage past the window is zero.
func (s *Dist) checkUsed(t *testing.T) {
	t.Helper()
	if s.small != nil && s.low != nil {
		t.Fatalf("counts of both widths: %d narrow, %d wide", len(s.small), len(s.low))
	}
	if s.high != nil && len(s.high) != len(s.low) {
		t.Fatalf("%d high halves for %d low ones", len(s.high), len(s.low))
	}
	n := s.size()
	if want := (n + 63) / 64; len(s.used) != want {
		t.Fatalf("%d words of bits for %d buckets; want %d", len(s.used), n, want)
	}
	for j := range n {
		c := s.countAt(j)
		if set := s.used[j/64]>>(j%64)&1 == 1; set != (c != 0) {
			t.Fatalf("bucket %d of the window: count %d, bit %v", j, c, set)
		}
	}
	for j := n; j < len(s.used)*64; j++ {
		if s.used[j/64]>>(j%64)&1 == 1 {
			t.Fatalf("bit %d past the window's %d buckets is set", j, n)
		}
	}
	if cap(s.used)*64 < s.room() {
		t.Fatalf("room for the bits of %d buckets, but the counts have room for %d: a Reset would allocate",
			cap(s.used)*64, s.room())
	}
	for _, w := range s.used[len(s.used):cap(s.used)] {
		if w != 0 {
			t.Fatalf("the bits' storage past their length is not zero")
		}
	}
	zero := func(c uint32) bool { return c == 0 }
	if !allOf(s.small[len(s.small):cap(s.small)], func(c uint8) bool { return c == 0 }) ||
		!allOf(s.low[len(s.low):cap(s.low)], zero) || !allOf(s.high[len(s.high):cap(s.high)], zero) {
		t.Fatalf("the counts' storage past the window is not zero")
	}
}

// allOf reports whether f holds for each of xs.
func allOf[T any](xs []T, f func(T) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
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
		s.checkUsed(t)
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
		if s.Bytes() > 4*2*NumBuckets+NumBuckets/8+64 {
			t.Fatalf("round %d: %d bytes of counts; want at most two halves of the whole range and its bits", round, s.Bytes())
		}
		s.checkUsed(t)
		m.checkUsed(t)
		big.checkUsed(t)
	}
}

// TestDistWidensStepByStep widens a Dist a few buckets at a time, up and
// down, so that its counts move within their storage and to new storage
// of every size, and checks its bits after each step.
func TestDistWidensStepByStep(t *testing.T) {
	var s Dist
	for k := range 400 {
		s.Add(KindSpan, int64(1000*math.Pow(1.01, float64(k))))
		s.Add(KindSpan, int64(1000*math.Pow(0.995, float64(k))))
		s.checkUsed(t)
	}
	s.Reset()
	s.checkUsed(t)
}

// TestDistAddTallyBits adds tallies, narrow and wide, whose walked buckets,
// from their minimum's to their maximum's, are odd and even in number and
// start at odd and even places, with counts at both ends, and checks the
// buckets and their bits.
func TestDistAddTallyBits(t *testing.T) {
	for _, wide := range []bool{false, true} {
		for _, first := range []uint64{300, 301} {
			for _, n := range []uint64{1, 2, 17, 18} {
				tl := &Tally{min: math.MaxInt64, max: -1}
				tl.fit(first-5, first+n+7, wide)
				want := map[int]uint64{}
				for _, i := range []uint64{first, first + n/2, first + n - 1} {
					c, _, _ := tl.countOf(int(i))
					tl.setCount(int(i), c+1)
					tl.touched |= touchBit(i - tl.off)
					want[int(i)]++
				}
				lo, _ := BucketBounds(int(first))
				hi, w := BucketBounds(int(first + n - 1))
				tl.min, tl.max = int64(lo), int64(hi+w-1)
				var s Dist
				s.addTally(tl)
				s.checkUsed(t)
				if got := maps.Collect(s.Buckets()); !maps.Equal(got, want) {
					t.Fatalf("wide %v, %d buckets from %d: got %v; want %v", wide, n, first, got, want)
				}
			}
		}
	}
}

// TestTakeTouched takes tallies, narrow and wide, whose counts not 0 lie
// at random in a span [i, k) of their window, sparse and dense, from every
// place modulo 8, in windows of fewer and of more than 64 chunks, with the
// touched bits of their chunks and a few more at random, and checks that
// takeTouched takes each count and returns their sum, and leaves the
// tally's counts empty.
func TestTakeTouched(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := range 4000 {
		wide := round%2 == 1
		n := 1 + r.IntN(300)
		if round%16 == 0 {
			n = 1 + r.IntN(6000) // past 64 chunks of touched
		}
		from := uint64(64*r.IntN(4) + r.IntN(8))
		tl := &Tally{min: math.MaxInt64, max: -1}
		tl.fit(from, from+uint64(n), wide)
		w := int(tl.size())
		i := r.IntN(w)
		k := i + 1 + r.IntN(w-i)
		want, sum := map[int]uint64{}, uint64(0)
		dense := r.IntN(3) == 0
		most := int64(255)
		if wide {
			most = 1<<32 - 1
		}
		for j := i; j < k; j++ {
			if dense && r.IntN(2) == 0 || r.IntN(20) == 0 || j == i && r.IntN(2) == 0 || j == k-1 && r.IntN(2) == 0 {
				c := uint32(1 + r.Int64N(min(int64(1)<<r.IntN(32), most)))
				tl.setCount(int(tl.off)+j, c)
				tl.touched |= touchBit(uint64(j))
				want[int(tl.off)+j] = uint64(c)
				sum += uint64(c)
			}
		}
		tl.touched |= r.Uint64() & r.Uint64() & r.Uint64()
		var s Dist
		s.cover(tl.off, tl.off+uint64(w))
		if got := s.takeTouched(tl, i, k); got != sum {
			t.Fatalf("wide %v, window %d, [%d, %d): took a sum of %d; want %d", wide, w, i, k, got, sum)
		}
		if got := maps.Collect(s.Buckets()); !maps.Equal(got, want) {
			t.Fatalf("wide %v, window %d, [%d, %d), touched %x: took %v; want %v", wide, w, i, k, tl.touched, got, want)
		}
		if slices.ContainsFunc(tl.store, func(c uint32) bool { return c != 0 }) {
			t.Fatal("a taken tally still holds counts")
		}
	}
}
