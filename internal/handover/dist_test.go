package handover

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
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
// of every size, narrow and wide (widened by a count past 255 first, kept
// through Reset), and checks its bits and its buckets after each step.
func TestDistWidensStepByStep(t *testing.T) {
	for _, wide := range []bool{false, true} {
		var s Dist
		if wide {
			for range 300 {
				s.Add(KindSpan, 1000)
			}
			s.Reset()
		}
		m := newDistModel()
		m.wide = wide
		for k := range 400 {
			for _, d := range []int64{int64(1000 * math.Pow(1.01, float64(k))), int64(1000 * math.Pow(0.995, float64(k)))} {
				s.Add(KindSpan, d)
				m.add(int(BucketOf(uint64(d))), 1)
				m.merge(1, d, d)
			}
			m.check(t, &s, fmt.Sprintf("wide %v, step %d", wide, k))
		}
		s.Reset()
		m.reset()
		m.check(t, &s, fmt.Sprintf("wide %v, Reset", wide))
	}
}

// TestNarrowCountsWiden brings a narrow count to 255 and past it, one span
// at a time, by a Merge of two narrow Dists, by two narrow tallies, and
// past 2³²−1 by two wide tallies: each sum is exact, the counts widen
// exactly when one passes what their width holds, and the other buckets
// keep their counts.
func TestNarrowCountsWiden(t *testing.T) {
	const d = 5000
	i := int(BucketOf(d))
	check := func(s *Dist, what string, want uint64, wide, high bool) {
		t.Helper()
		s.checkUsed(t)
		if got := s.countOf(i); got != want {
			t.Fatalf("%s: the bucket counts %d; want %d", what, got, want)
		}
		if got := s.countOf(i + 3); got != 1 {
			t.Fatalf("%s: the bucket beside counts %d; want 1", what, got)
		}
		if s.low != nil != wide || s.high != nil != high {
			t.Fatalf("%s: counts wide %v, with high halves %v; want %v, %v", what, s.low != nil, s.high != nil, wide, high)
		}
	}
	var s Dist
	lo, _ := BucketBounds(i + 3)
	s.Add(KindSpan, int64(lo))
	for range 255 {
		s.Add(KindSpan, d)
	}
	check(&s, "255 spans", 255, false, false)
	s.Add(KindSpan, d)
	check(&s, "256 spans", 256, true, false)

	var a, b Dist
	a.Add(KindSpan, int64(lo))
	for range 200 {
		a.Add(KindSpan, d)
		b.Add(KindSpan, d)
	}
	a.Merge(&b)
	check(&a, "a Merge of 200 spans into 200", 400, true, false)

	tally := func(c uint32, wide bool) *Tally {
		tl := &Tally{min: math.MaxInt64, max: -1}
		tl.fit(uint64(i), uint64(i)+1, wide)
		tl.setCount(i, c)
		tl.touched = touchBit(uint64(i) - tl.off)
		tl.min, tl.max = d, d
		return tl
	}
	var n Dist
	n.Add(KindSpan, int64(lo))
	n.addTally(tally(200, false))
	check(&n, "a narrow tally of 200 spans", 200, false, false)
	n.addTally(tally(200, false))
	check(&n, "two narrow tallies of 200 spans", 400, true, false)
	n.addTally(tally(math.MaxUint32, true))
	check(&n, "and a wide one of 2³²−1", 400+math.MaxUint32, true, true)

	var w Dist
	w.Add(KindSpan, int64(lo))
	w.addTally(tally(math.MaxUint32, true))
	check(&w, "a wide tally of 2³²−1 spans", math.MaxUint32, true, false)
	w.addTally(tally(1, true))
	check(&w, "and one of 1", 1<<32, true, true)
}

// TestDistEqualAcrossWidths compares Dists of narrow counts with Dists of
// the same counts widened before (by a count past 255, or past 2³²−1,
// then Reset): equal where their counts are, and not where two spans lie
// in other buckets, at the same count, sum, minimum and maximum.
func TestDistEqualAcrossWidths(t *testing.T) {
	fill := func(s *Dist, extra ...int64) {
		for _, d := range append([]int64{900, 2000, 1000, 1000, 1500}, extra...) {
			s.Add(KindSpan, d)
		}
	}
	for _, past := range []uint64{math.MaxUint8, math.MaxUint32} {
		var w Dist
		w.Add(KindSpan, 1000)
		w.addAt(int(BucketOf(1000)-w.off), past)
		w.Reset()
		var n Dist
		fill(&w, 1000, 1012)
		fill(&n, 1000, 1012)
		if w.low == nil || (past == math.MaxUint32) != (w.high != nil) {
			t.Fatalf("past %d: a widened Dist is wide %v, with high halves %v, after Reset", past, w.low != nil, w.high != nil)
		}
		if n.low != nil {
			t.Fatal("a Dist of a few spans has wide counts")
		}
		if !w.Equal(&n) || !n.Equal(&w) {
			t.Fatalf("past %d: a widened Dist and a narrow one of the same spans are not Equal", past)
		}
		var o Dist
		fill(&o, 1004, 1008) // the same sum, in other buckets
		if BucketOf(1004) == BucketOf(1000) || BucketOf(1008) == BucketOf(1012) {
			t.Fatal("the spans moved share their buckets")
		}
		if w.Equal(&o) || o.Equal(&w) {
			t.Fatalf("past %d: a widened Dist and a narrow one with two spans in other buckets are Equal", past)
		}
	}
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

// distModel is a Dist as a reference keeps it: each bucket's count in
// math/big, so that a count that a Dist wrapped or lost shows, and the
// widths its counts must have reached.
type distModel struct {
	counts   map[int]*big.Int
	count    big.Int
	min, max int64
	// wide and high say that a count passed 255 and 2³²−1 since the Dist
	// was made: its counts are 32 bits, and it has high halves.
	wide, high bool
}

func newDistModel() *distModel { return &distModel{counts: map[int]*big.Int{}} }

// add adds n spans in bucket i.
func (m *distModel) add(i int, n uint64) {
	c := m.counts[i]
	if c == nil {
		c = new(big.Int)
		m.counts[i] = c
	}
	c.Add(c, new(big.Int).SetUint64(n))
	m.wide = m.wide || c.Cmp(big.NewInt(math.MaxUint8)) > 0
	m.high = m.high || c.Cmp(big.NewInt(math.MaxUint32)) > 0
}

// merge adds n spans from least to most to the figures, as Dist.merge.
func (m *distModel) merge(n uint64, least, most int64) {
	if m.count.Sign() == 0 {
		m.min, m.max = least, most
	} else {
		m.min, m.max = min(m.min, least), max(m.max, most)
	}
	m.count.Add(&m.count, new(big.Int).SetUint64(n))
}

// reset empties m as Dist.Reset does: the widths stay.
func (m *distModel) reset() {
	clear(m.counts)
	m.count.SetUint64(0)
}

// mergeInto adds m's counts and figures to o.
func (m *distModel) mergeInto(o *distModel) {
	if m.count.Sign() == 0 {
		return
	}
	for i, c := range m.counts {
		o.add(i, c.Uint64())
	}
	o.merge(m.count.Uint64(), m.min, m.max)
}

// check fails t unless s holds m's counts and figures, at the widths m's
// counts reached, and Bytes reports the bytes of its storage at that
// width.
func (m *distModel) check(t *testing.T, s *Dist, what string) {
	t.Helper()
	s.checkUsed(t)
	n := 0
	for i, c := range s.Buckets() {
		n++
		if want := m.counts[i]; want == nil || !want.IsUint64() || want.Uint64() != c {
			t.Fatalf("%s: bucket %d holds %d; want %v", what, i, c, want)
		}
	}
	if n != len(m.counts) {
		t.Fatalf("%s: %d buckets hold spans; want %d", what, n, len(m.counts))
	}
	if !m.count.IsUint64() || s.Count() != m.count.Uint64() {
		t.Fatalf("%s: count %d; want %v", what, s.Count(), &m.count)
	}
	if s.Count() != 0 && (s.Min() != m.min || s.Max() != m.max) {
		t.Fatalf("%s: spans from %d to %d; want %d to %d", what, s.Min(), s.Max(), m.min, m.max)
	}
	if wide, high := s.low != nil, s.high != nil; wide != m.wide || high != m.high {
		t.Fatalf("%s: counts wide %v, with high halves %v; want %v, %v", what, wide, high, m.wide, m.high)
	}
	w := 1
	switch {
	case m.high:
		w = 8
	case m.wide:
		w = 4
	}
	if want := w*s.room() + 8*cap(s.used); s.Bytes() != want {
		t.Fatalf("%s: Bytes %d; want %d, for room for %d counts of %d bytes and %d words of bits", what, s.Bytes(), want, s.room(), w, cap(s.used))
	}
}

// opReader hands out the bytes of a run of operations, then zeros.
type opReader []byte

func (r *opReader) next() int {
	if len(*r) == 0 {
		return 0
	}
	b := (*r)[0]
	*r = (*r)[1:]
	return int(b)
}

// bucket returns a bucket near one of a few places from the least to the
// most, so that windows widen down and up.
func (r *opReader) bucket() int {
	base := [...]int{200, 1300, 2600, 5000, NumBuckets - 100}[r.next()%5]
	return min(max(base+r.next()-128, 0), NumBuckets-1)
}

// runDistOps runs the operations that data spells on three Dists, each
// checked against a distModel after each operation: spans added one by
// one and many to a bucket (a narrow count passing 255), tallies narrow
// and wide added (a wide one's counts up to 2³²−1, so that two pass it),
// Merges between Dists of either width, a Merge of a count past 2³²−1,
// Reset, and Equal between a Dist and its copy by Merge into a fresh one,
// whose counts are as narrow as its own counts are, whatever the Dist's.
func runDistOps(t *testing.T, data []byte) {
	r := opReader(data)
	var ds [3]Dist
	ms := [3]*distModel{newDistModel(), newDistModel(), newDistModel()}
	for step := 0; len(r) > 0; step++ {
		op, x := r.next()%7, r.next()%3
		s, m := &ds[x], ms[x]
		what := ""
		switch op {
		case 0, 1: // spans one by one, or many of one bucket
			i := r.bucket()
			k := 1
			if op == 1 {
				k = 1 + r.next() + r.next()%2*r.next()
			}
			d, _ := BucketBounds(i)
			for range k {
				s.Add(KindSpan, int64(d))
			}
			m.add(i, uint64(k))
			m.merge(uint64(k), int64(d), int64(d))
			what = fmt.Sprintf("%d spans of bucket %d", k, i)
		case 2: // a tally
			wide := r.next()%2 == 1
			from := uint64(r.bucket())
			to := min(from+1+uint64(r.next()%200), NumBuckets)
			tl := &Tally{min: math.MaxInt64, max: -1}
			tl.fit(from, to, wide)
			lo, hi := int(tl.off+tl.size()), int(tl.off)
			var sum uint64
			for range 1 + r.next()%16 {
				j := int(tl.off) + r.next()*int(tl.size())/256
				var c uint32
				switch {
				case !wide:
					c = uint32(1 + r.next()%255)
				case r.next()%2 == 0:
					c = uint32(1 + r.next())
				default:
					c = math.MaxUint32 - uint32(r.next())
				}
				old, most, _ := tl.countOf(j)
				c = min(c, most-old)
				if c == 0 {
					continue
				}
				tl.setCount(j, old+c)
				tl.touched |= touchBit(uint64(j) - tl.off)
				m.add(j, uint64(c))
				sum += uint64(c)
				lo, hi = min(lo, j), max(hi, j)
			}
			if sum == 0 {
				continue
			}
			least, _ := BucketBounds(lo)
			most, _ := BucketBounds(hi)
			tl.min, tl.max = int64(least), int64(most)
			s.addTally(tl)
			m.merge(sum, tl.min, tl.max)
			what = fmt.Sprintf("a tally, wide %v, of %d spans from bucket %d to %d", wide, sum, lo, hi)
		case 3: // a Merge of another of the Dists
			y := (x + 1 + r.next()%2) % 3
			s.Merge(&ds[y])
			ms[y].mergeInto(m)
			what = fmt.Sprintf("a Merge of Dist %d (wide %v) into Dist %d (wide %v)", y, ds[y].low != nil, x, s.low != nil)
		case 4: // a Merge of a count past 2³²−1
			i := r.bucket()
			d, _ := BucketBounds(i)
			n := uint64(1)<<32 + uint64(r.next())
			var huge Dist
			huge.Add(KindSpan, int64(d))
			huge.addAt(i-int(huge.off), n-1)
			huge.count = n
			s.Merge(&huge)
			m.add(i, n)
			m.merge(n, int64(d), int64(d))
			what = fmt.Sprintf("a Merge of %d spans of bucket %d", n, i)
		case 5: // Reset, which keeps the storage and the counts' width
			bytes := s.Bytes()
			s.Reset()
			m.reset()
			if s.Bytes() != bytes {
				t.Fatalf("step %d: Reset of Dist %d: %d bytes; want the %d before", step, x, s.Bytes(), bytes)
			}
			what = "Reset"
		case 6: // Equal to a copy, as narrow as its counts
			var c Dist
			c.Merge(s)
			cm := newDistModel()
			m.mergeInto(cm)
			cm.check(t, &c, fmt.Sprintf("step %d: a copy of Dist %d", step, x))
			if !s.Equal(&c) || !c.Equal(s) {
				t.Fatalf("step %d: Dist %d (wide %v) and its copy (wide %v) are not Equal", step, x, s.low != nil, c.low != nil)
			}
			if s.Count() != 0 {
				c.Add(KindSpan, s.Min())
				if s.Equal(&c) || c.Equal(s) {
					t.Fatalf("step %d: Dist %d and its copy with one span more are Equal", step, x)
				}
			}
			what = "Equal"
		}
		m.check(t, s, fmt.Sprintf("step %d, Dist %d: %s", step, x, what))
	}
}

// TestDistOps runs random operations on Dists (runDistOps), in runs long
// and short, with most of their spans in few buckets, so that narrow
// counts pass 255, and checks them against math/big.
func TestDistOps(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		data := make([]byte, 1+r.IntN(400))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		runDistOps(t, data)
	}
}

// FuzzDistOps runs the operations of runDistOps that the fuzzer spells.
func FuzzDistOps(f *testing.F) {
	f.Add([]byte{1, 0, 0, 128, 255, 1, 1, 0, 0, 128, 255, 1})
	f.Add([]byte{2, 1, 1, 0, 1, 128, 100, 16, 10, 1, 255, 200, 1, 2, 5, 2, 1, 1, 0, 1, 128, 100, 16, 10, 1, 255})
	f.Add([]byte{4, 0, 1, 128, 7, 5, 0, 0, 0, 0, 4, 128, 3, 1, 1, 6, 1})
	f.Fuzz(runDistOps)
}

// TestIntervalWidensDist takes an Interval of two writers' narrow tallies
// of 200 spans in one bucket each: the Dist's count passes 255 and is
// exact, and the next Interval, of a few spans, keeps the width.
func TestIntervalWidensDist(t *testing.T) {
	c := NewCollector(NoBarrier)
	ws := []*Writer{c.NewWriter(), c.NewWriter()}
	for _, w := range ws {
		for range 200 {
			w.Record(5000)
		}
		if w.cur.Load().wide {
			t.Fatal("a writer's tally of 200 spans a bucket is wide")
		}
	}
	var d Dist
	c.Interval(&d)
	d.checkUsed(t)
	if got := d.countOf(int(BucketOf(5000))); got != 400 || d.Count() != 400 || d.low == nil {
		t.Fatalf("an Interval of 2 × 200 spans: the bucket counts %d of %d, wide %v; want 400 of 400, wide", got, d.Count(), d.low != nil)
	}
	ws[0].Record(5000)
	ws[1].Record(7000)
	c.Interval(&d)
	d.checkUsed(t)
	if d.countOf(int(BucketOf(5000))) != 1 || d.countOf(int(BucketOf(7000))) != 1 || d.Count() != 2 || d.low == nil {
		t.Fatalf("the next Interval holds %v, wide %v; want a span of 5000 and one of 7000, wide", maps.Collect(d.Buckets()), d.low != nil)
	}
}

// TestDistAddInlines builds this package with the compiler's inlining
// report: every call of addFits in dist.go, the reader's step for each
// count it adds, is inlined, so that a count that fits its width costs no
// call.
func TestDistAddInlines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package")
	}
	src, err := os.ReadFile("dist.go")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-gcflags=-m", ".")
	cmd.Env = append(os.Environ(), "GOFLAGS=", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	calls := 0
	for i, line := range strings.Split(string(src), "\n") {
		if !strings.Contains(line, "s.addFits(") {
			continue
		}
		calls++
		// The go command replays a cached build's report with the paths
		// of the directory it was first built from.
		at := regexp.MustCompile(`(?m)^(\./|\S*internal/handover/)dist\.go:` + strconv.Itoa(i+1) + `:\d+: inlining call to \(\*Dist\)\.addFits$`)
		if !at.Match(out) {
			t.Errorf("dist.go:%d: the call of addFits is not inlined", i+1)
		}
	}
	if calls == 0 {
		t.Error("no call of addFits in dist.go")
	}
}
