package export

import (
	"maps"
	"math/bits"
	"slices"
	"testing"
	"unsafe"

	"pgregory.net/rapid"

	"github.com/tickstamp/counter"
)

// TestPlaceTaken checks PlaceTaken against a loop over BetweenTaken that
// places each bucket it hands on: over tallies of any window, sparse or
// dense, whose marks also name empty counts and counts past the window;
// with no end, one or two, inside the window, at its edges (bucket 0
// among them) or beyond it; with a memo of some rows worked out; at any
// shift. The caller places what comes back as counterotel's does: it
// widens its counts to the bucket's slot, and at times lowers its scale
// (a larger shift, each two slots one), so that PlaceTaken's next call has
// another shift, first slot and counts. It checks that the slots and the
// ends come out equal, and that the Taken is left as that loop leaves it
// (every count and mark cleared, its sum, done); where the caller stops
// calling, that the Taken holds exactly the counts not yet handed on, its
// sum those handed on, and that a range over the rest ends as the loop
// does; and that every bucket it returns is one it could not place: not
// strictly between the ends, of a row not worked out, or of a slot
// outside the counts.
func TestPlaceTaken(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		size := rapid.IntRange(1, 300).Draw(t, "window")
		off := rapid.IntRange(0, NumBuckets-size).Draw(t, "off")
		counts := make([]uint32, size)
		marks := make([]uint64, (size+63)/64+rapid.IntRange(0, 1).Draw(t, "extra word"))
		density := rapid.IntRange(1, 100).Draw(t, "density")
		var total uint64
		for j := range counts {
			if rapid.IntRange(1, 100).Draw(t, "p") <= density {
				counts[j] = uint32(rapid.IntRange(1, 1000).Draw(t, "count"))
				marks[j/64] |= 1 << (j % 64)
				total += uint64(counts[j])
			} else if rapid.IntRange(0, 9).Draw(t, "empty marked") == 0 {
				marks[j/64] |= 1 << (j % 64)
			}
		}
		if size%64 != 0 && rapid.Bool().Draw(t, "marks past the window") {
			marks[size/64] |= 1 << 63
		}
		if len(marks) > (size+63)/64 && rapid.Bool().Draw(t, "marks in the extra word") {
			marks[len(marks)-1] |= 1 << rapid.IntRange(0, 63).Draw(t, "bit")
		}
		var e Ends
		for range rapid.IntRange(0, 3).Draw(t, "ends") {
			// Near the window, or at its first or last count, or at one
			// of the tally's buckets.
			k := rapid.IntRange(max(off-20, 0), min(off+size+20, NumBuckets-1)).Draw(t, "end")
			switch rapid.IntRange(0, 3).Draw(t, "end at") {
			case 1:
				k = off
			case 2:
				k = off + size - 1
			case 3:
				k = off + rapid.IntRange(0, size-1).Draw(t, "end in the window")
			}
			b := BucketAt(k)
			b.Count = uint64(rapid.IntRange(1, 50).Draw(t, "end count"))
			e.Take(b)
		}
		// Places below 0 as well, as an exponential layout's of spans
		// under its unit, so that a shift that does not keep the sign
		// places them wrong.
		mul, bias := rapid.IntRange(1, 16).Draw(t, "mul"), rapid.IntRange(0, 3000).Draw(t, "bias")
		place := func(k int) int32 { return int32(k*mul>>4 - bias) }
		places := NewMemo(func(b counter.Bucket) int32 { return place(BucketIndex(b)) })
		for range rapid.IntRange(0, 4).Draw(t, "rows worked out") {
			places.Value(rapid.IntRange(off, off+size-1).Draw(t, "row of"))
		}
		shift := uint(rapid.IntRange(0, 3).Draw(t, "shift"))
		lo, hi := int(place(off))>>shift, int(place(off+size-1))>>shift
		first := rapid.IntRange(lo-5, hi+5).Draw(t, "first slot")
		slots := make([]uint64, rapid.IntRange(0, hi-lo+10).Draw(t, "slots"))
		stop := rapid.IntRange(-1, 4).Draw(t, "stop after")

		tk := &Taken{off: off, marks: slices.Clone(marks), counts: slices.Clone(counts)}
		ref := &Taken{off: off, marks: slices.Clone(marks), counts: slices.Clone(counts)}
		re := e
		// put places n spans in slot s at the shift, widening the slots
		// to it, and at times lowering the scale first, as counterotel's
		// tally does.
		put := func(s int, n uint64) {
			if rapid.IntRange(0, 4).Draw(t, "coarser") == 0 && shift < 6 {
				coarse := make([]uint64, (first+len(slots)-1)>>1-first>>1+1)
				for i, c := range slots {
					coarse[(first+i)>>1-first>>1] += c
				}
				slots, first, shift, s = coarse, first>>1, shift+1, s>>1
			}
			if len(slots) == 0 {
				slots, first = []uint64{0}, s
			}
			if s < first || s >= first+len(slots) {
				from, to := min(s, first), max(s, first+len(slots)-1)
				wide := make([]uint64, to-from+1)
				copy(wide[first-from:], slots)
				slots, first = wide, from
			}
			slots[s-first] += n
		}
		for returned := 0; ; returned++ {
			k, n, ok := e.PlaceTaken(tk, shift, &places, int32(first), slots)
			if !ok {
				break
			}
			v, known := places.Known(k)
			if s := int(v>>shift) - first; e.inside(k) && known && s >= 0 && s < len(slots) {
				t.Fatalf("PlaceTaken returned bucket %d (%d spans), which it could place in slot %d", k, n, s)
			}
			if n == 0 || k < off || k >= off+size {
				t.Fatalf("PlaceTaken returned bucket %d of %d spans; the window is %d to %d", k, n, off, off+size-1)
			}
			if k, n, ok := e.TakeIndex(k, n); ok {
				put(int(places.Value(k)>>shift), n)
			}
			if returned == stop {
				handed, left := tk.n, uint64(0) // handed: the spans placed and returned
				for _, c := range tk.counts {
					left += uint64(c)
				}
				if tk.done || handed+left != total {
					t.Fatalf("stopped after %d returns: the Taken handed on %d spans and holds %d, of %d; done %v",
						returned+1, handed, left, total, tk.done)
				}
				for k, n := range e.BetweenTaken(tk) {
					put(int(places.Value(k)>>shift), n)
				}
				break
			}
		}
		got, want := map[int]uint64{}, map[int]uint64{}
		for s, n := range slots {
			if n != 0 {
				got[first+s] += n
			}
		}
		for k, n := range re.BetweenTaken(ref) {
			want[int(place(k))>>shift] += n
		}
		if !maps.Equal(got, want) {
			t.Fatalf("PlaceTaken placed %v; a loop over BetweenTaken %v (at shift %d)", got, want, shift)
		}
		if e != re {
			t.Fatalf("PlaceTaken left the ends %+v; a loop over BetweenTaken %+v", e, re)
		}
		if !slices.Equal(tk.counts, ref.counts) || !slices.Equal(tk.marks, ref.marks) || tk.n != ref.n || tk.done != ref.done {
			t.Fatalf("PlaceTaken left the Taken with counts %v, marks %x, sum %d, done %v; BetweenTaken %v, %x, %d, %v",
				tk.counts, tk.marks, tk.n, tk.done, ref.counts, ref.marks, ref.n, ref.done)
		}
	})
}

// TestPlaceWords checks the assembly's placeWords against the loop in Go
// it stands for (placeWordsModel), on words whose rows are worked out or
// not, whose places lie below and above 0 and whose slots lie inside
// counts or past either end, at shifts of 0 to 20, with counts of 2³¹ or
// more and slots and sums past 32 bits: the same counts placed,
// in and marks left alike, the same word stopped at and the same total.
// TestPlaceTaken cannot see a kernel that stops at a bucket it could have
// placed, since the loop after it places that bucket; this test does.
func TestPlaceWords(t *testing.T) {
	if !placeWordsAsm {
		t.Skip("placeWords has no assembly on this platform: PlaceTaken's loop places every word")
	}
	rapid.Check(t, func(t *rapid.T) {
		words := rapid.IntRange(1, 4).Draw(t, "words")
		base := rapid.IntRange(0, NumBuckets-64*words).Draw(t, "base")
		in := make([]uint32, 64*words)
		marks := make([]uint64, words)
		for j := range in {
			switch rapid.IntRange(0, 3).Draw(t, "count") {
			case 0:
			case 1:
				marks[j/64] |= 1 << (j % 64) // marked, but empty
			default:
				in[j] = uint32(rapid.IntRange(1, 1<<20).Draw(t, "spans"))
				if rapid.IntRange(0, 7).Draw(t, "a count of 2³¹ or more") == 0 {
					in[j] = uint32(rapid.Uint64Range(1<<31, 1<<32-1).Draw(t, "many spans"))
				}
				marks[j/64] |= 1 << (j % 64)
			}
		}
		shift := uint(rapid.IntRange(0, 20).Draw(t, "shift"))
		first := rapid.IntRange(-1000, 1000).Draw(t, "first")
		counts := make([]uint64, rapid.IntRange(0, 64).Draw(t, "slots"))
		for i := range counts { // past 32 bits, as an exporter's slots grow
			counts[i] = rapid.Uint64Range(0, 1<<33).Draw(t, "slot's count")
		}
		var rows [memoRows]*[memoRowBuckets]int32
		for r := base / memoRowBuckets; r <= (base+len(in)-1)/memoRowBuckets; r++ {
			if rapid.IntRange(0, 4).Draw(t, "row not worked out") == 0 {
				continue
			}
			row := new([memoRowBuckets]int32)
			for i := range row {
				s := first + rapid.IntRange(-3, len(counts)+2).Draw(t, "slot")
				row[i] = int32(s<<shift | rapid.IntRange(0, 1<<shift-1).Draw(t, "low bits"))
			}
			rows[r] = row
		}
		w := rapid.IntRange(0, words).Draw(t, "from word")
		end := rapid.IntRange(w, words).Draw(t, "to word")
		sum := rapid.Uint64Range(0, 1<<33).Draw(t, "sum")

		wantIn, wantMarks, wantCounts := slices.Clone(in), slices.Clone(marks), slices.Clone(counts)
		wantStop, wantTotal := placeWordsModel(wantMarks, wantIn, wantCounts, &rows, w, end, base, shift, first, sum)
		stop, total := placeWords(unsafe.SliceData(marks), unsafe.SliceData(in), unsafe.SliceData(counts), &rows, w, end, base, shift, first, len(counts), sum)
		if stop != wantStop || total != wantTotal {
			t.Fatalf("placeWords stopped at word %d with a total of %d; the loop in Go at %d with %d", stop, total, wantStop, wantTotal)
		}
		if !slices.Equal(counts, wantCounts) {
			t.Fatalf("placeWords placed %v; the loop in Go %v", counts, wantCounts)
		}
		if !slices.Equal(in, wantIn) || !slices.Equal(marks, wantMarks) {
			t.Fatalf("placeWords left counts %v and marks %x; the loop in Go %v and %x", in, marks, wantIn, wantMarks)
		}
	})
}

// placeWordsModel is placeWords in Go, as its doc says it: the words of
// marks from w to end−1, each bucket k = base+j of in placed in slot
// rows[k/128][k%128]>>shift − first of counts, up to the first it cannot
// place.
func placeWordsModel(marks []uint64, in []uint32, counts []uint64, rows *[memoRows]*[memoRowBuckets]int32, w, end, base int, shift uint, first int, sum uint64) (stop int, total uint64) {
	for ; w < end; w++ {
		for b := marks[w]; b != 0; b &= b - 1 {
			j := w<<6 + bits.TrailingZeros64(b)
			c := in[j]
			if c == 0 {
				continue
			}
			k := base + j
			row := rows[k/memoRowBuckets]
			if row == nil {
				marks[w] = b
				return w, sum
			}
			s := int(row[k%memoRowBuckets]>>shift) - first
			if s < 0 || s >= len(counts) {
				marks[w] = b
				return w, sum
			}
			counts[s] += uint64(c)
			in[j] = 0
			sum += uint64(c)
		}
		marks[w] = 0
	}
	return w, sum
}

// BenchmarkPlaceTaken places a tally of 125 buckets over a window of
// 2,112, as a lock's tally of 128 spans over three decades holds, in
// buckets at a scale four below the Memo's, in counts that hold them all:
// through PlaceTaken, and through a loop over BetweenTaken that places
// each bucket as counterotel's did before it. Each round copies the
// tally's counts and marks back first, which both pay.
func BenchmarkPlaceTaken(b *testing.B) {
	const size, spans = 2112, 125
	base := 560
	counts, marks := make([]uint32, size), make([]uint64, (size+63)/64)
	for i := range spans {
		j := 8 + i*(size-16)/spans
		counts[j] = uint32(1 + i%3)
		marks[j/64] |= 1 << (j % 64)
	}
	var e Ends
	for _, k := range []int{base + 4, base + size - 4} {
		bk := BucketAt(k)
		bk.Count = 1
		e.Take(bk)
	}
	places := NewMemo(func(bk counter.Bucket) int32 { return int32(BucketIndex(bk)) })
	for k := base; k < base+size; k += 64 {
		places.Value(k)
	}
	const shift = 4
	first := int(places.Value(base)) >> shift
	slots := make([]uint64, (int(places.Value(base+size-1))>>shift)-first+1)
	tk := &Taken{off: base, counts: make([]uint32, size), marks: make([]uint64, len(marks))}
	reset := func() {
		copy(tk.counts, counts)
		copy(tk.marks, marks)
		tk.n, tk.w, tk.done = 0, 0, false
	}
	b.Run("PlaceTaken", func(b *testing.B) {
		for b.Loop() {
			reset()
			ends := e
			for {
				k, n, ok := ends.PlaceTaken(tk, shift, &places, int32(first), slots)
				if !ok {
					break
				}
				if k, n, ok := ends.TakeIndex(k, n); ok {
					slots[int(places.Value(k)>>shift)-first] += n
				}
			}
		}
	})
	b.Run("BetweenTaken", func(b *testing.B) {
		for b.Loop() {
			reset()
			ends := e
			for k, n := range ends.BetweenTaken(tk) {
				i, ok := places.Known(k)
				if !ok {
					i = places.Value(k)
				}
				if s := int(i>>shift) - first; s >= 0 && s < len(slots) {
					slots[s] += n
				}
			}
		}
	})
}
