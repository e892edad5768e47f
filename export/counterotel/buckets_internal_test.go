package counterotel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// TestExpBuckets adds random buckets to expBuckets of random limits, in
// random order, and checks after each add the window against a model that
// keeps every bucket at the layout's scale: the finest scale, up to the
// maximum, at which the buckets from the least to the greatest number at
// most maxSize; each count at that scale; the first and last not 0; and
// no room for counts past maxSize. Emptied by reset, they start again at
// the maximum scale.
func TestExpBuckets(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for c := range 300 {
		sizes := []int32{2, 3, 5, 16, 160, 1000}
		l := newLayout(sizes[r.IntN(len(sizes))], int32(r.IntN(19))-10)
		var b expBuckets
		b.reset(&l)
		for range 2 {
			type added struct {
				i int32 // at the layout's scale
				n uint64
			}
			var model []added
			// Buckets near a centre, of a spread that may reach far.
			centre, spread := int32(r.IntN(20_000))-10_000, int32(1)<<r.IntN(16)
			for range 1 + r.IntN(200) {
				a := added{centre + int32(r.Int64N(int64(spread))) - spread/2, 1 + uint64(r.IntN(3))}
				model = append(model, a)
				b.add(a.i, a.n, &l)

				lo, hi := model[0].i, model[0].i
				for _, m := range model {
					lo, hi = min(lo, m.i), max(hi, m.i)
				}
				scale := l.maxScale
				shift := func() int32 { return l.exp.Scale() - scale }
				for (hi>>shift())-(lo>>shift()) >= l.maxSize {
					scale--
				}
				want := make([]uint64, hi>>shift()-lo>>shift()+1)
				for _, m := range model {
					want[m.i>>shift()-lo>>shift()] += m.n
				}
				if b.scale != scale || b.offset != lo>>shift() || len(b.counts) != len(want) {
					t.Fatalf("case %d, limits %d from %d: scale %d, buckets %d to %d; want %d, %d to %d",
						c, l.maxSize, l.maxScale, b.scale, b.offset, b.offset+int32(len(b.counts))-1, scale, lo>>shift(), hi>>shift())
				}
				for j := range want {
					if b.counts[j] != want[j] {
						t.Fatalf("case %d, limits %d from %d: bucket %d holds %d; want %d", c, l.maxSize, l.maxScale, b.offset+int32(j), b.counts[j], want[j])
					}
				}
				if b.counts[0] == 0 || b.counts[len(b.counts)-1] == 0 || cap(b.counts) > int(l.maxSize) {
					t.Fatalf("case %d: first count %d, last %d, room for %d; want none 0, room for at most %d",
						c, b.counts[0], b.counts[len(b.counts)-1], cap(b.counts), l.maxSize)
				}
			}
			b.reset(&l)
			if b.scale != l.maxScale || len(b.counts) != 0 || b.zero != 0 {
				t.Fatalf("case %d: reset to scale %d, %d buckets, %d zeros", c, b.scale, len(b.counts), b.zero)
			}
		}
	}
}

// TestPlaces checks that places.index gives every value the bucket that
// Index of its seconds gives, at each scale a layout takes and at rates
// that divide a span into seconds evenly or not: the middles of Snapshot
// buckets over the whole range (where the table serves), the values around
// them, and values below 256 ticks.
func TestPlaces(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, hz := range []uint64{1_000_000_000, 2_300_000_000, 2_096_015_123, 62_500_000, 1 << 30} {
		rate, err := counter.NewTickRate(hz)
		if err != nil {
			t.Fatal(err)
		}
		for maxScale := int32(-10); maxScale <= 8; maxScale++ {
			l := newLayout(160, maxScale)
			m := newPlaces(&l, rate)
			check := func(v counter.Tickdelta) {
				if got, want := m.index(v), l.exp.Index(export.Seconds(v, rate)); got != want {
					t.Fatalf("%d Hz, scale %d: index(%d) = %d; Index of its seconds %d", hz, l.exp.Scale(), v, got, want)
				}
			}
			for v := counter.Tickdelta(1); v < 600; v++ {
				check(v)
			}
			for shift := 1; shift < 55; shift++ {
				for range 40 {
					lo := counter.Tickdelta(128+r.IntN(128)) << shift
					mid := lo + 1<<(shift-1)
					check(mid)
					check(mid - 1)
					check(mid + 1)
					check(lo)
				}
			}
			for range 2000 {
				check(counter.Tickdelta(r.Int64N(math.MaxInt64) + 1))
			}
		}
	}
}
