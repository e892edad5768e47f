package counterotel

import (
	"math/bits"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// A layout is how a Producer numbers the positive buckets of a point: at
// most maxSize of them, at the finest scale, up to maxScale, at which they
// fit.
type layout struct {
	exp      export.Exponential // at maxScale, or −4, the least it takes
	maxScale int32              // from −10 to 8
	maxSize  int32              // 2 or more
}

func newLayout(maxSize, maxScale int32) layout {
	exp, _ := export.NewExponential(max(maxScale, -4)) // a scale it takes
	return layout{exp: exp, maxScale: maxScale, maxSize: maxSize}
}

// fit returns by how many scales to lower the buckets lo to hi, lo ≤ hi, so
// that they are at most maxSize: the least k for which
// (hi>>k) − (lo>>k) < maxSize, the rule of the SDK's exponential histogram
// (its scaleChange). With maxSize ≥ 2 it never takes the scale below −7,
// or maxScale where that is less: at −7, every second a Tickdelta makes,
// from 2⁻⁶⁴ s to 2⁶³ s, is in bucket −1 or 0.
func (l *layout) fit(lo, hi int32) int32 {
	var k int32
	for (hi>>k)-(lo>>k) >= l.maxSize {
		k++
	}
	return k
}

// A places finds the bucket, at a layout's scale, of a value of
// [export.Values] at one rate: Index of its seconds. Most values are the
// middle of a Snapshot bucket of 2^k ticks, k ≥ 1, which is 2^(k−1) times
// the middle of a bucket of 2 ticks (257, 259, …, 511), and doubling a
// value adds 2^scale to its bucket exactly at a scale of 0 or more (the
// seconds double exactly, and Index takes a float64 apart by its
// exponent). So a table of those 128 middles' buckets gives every middle's
// bucket, exactly as Index does, for a look-up and a shift.
type places struct {
	exp   export.Exponential
	rate  counter.TickRate
	table bool       // the scale is 0 or more, and first is filled
	first [128]int32 // the buckets of 257, 259, …, 511 ticks
}

func newPlaces(l *layout, rate counter.TickRate) *places {
	m := &places{exp: l.exp, rate: rate, table: l.exp.Scale() >= 0}
	if m.table {
		for j := range m.first {
			m.first[j] = l.exp.Index(export.Seconds(counter.Tickdelta(257+2*j), rate))
		}
	}
	return m
}

// index returns the bucket of v, positive, at the layout's scale.
func (m *places) index(v counter.Tickdelta) int32 {
	if u := uint64(v); m.table && u >= 256 {
		shift := uint(bits.Len64(u)) - 8    // the width of v's Snapshot bucket is 2^shift
		if u&(1<<shift-1) == 1<<(shift-1) { // v is its middle
			return m.first[u>>shift-128] + int32(shift-1)<<m.exp.Scale()
		}
	}
	return m.exp.Index(export.Seconds(v, m.rate))
}

// expBuckets are the buckets of an exponential histogram point: a count of
// zeros and one window of positive buckets, at the finest scale, up to the
// layout's maxScale, that holds every bucket counted in at most maxSize.
// As the SDK's exponential histogram does, a bucket that does not fit
// lowers the scale of the window (bucket i at scale s is bucket i>>k at
// s−k) by as little as makes room for it; the scale is never raised again
// but by reset. The zero expBuckets must be reset before use.
type expBuckets struct {
	scale  int32
	offset int32    // the bucket of counts[0], at scale
	counts []uint64 // at most maxSize, and no room past that; the first and the last are not 0
	zero   uint64
}

// reset empties b, keeping its counts' memory.
func (b *expBuckets) reset(l *layout) {
	*b = expBuckets{scale: l.maxScale, counts: b.counts[:0]}
}

// add counts n values in bucket i at the layout's scale (l.exp's).
func (b *expBuckets) add(i int32, n uint64, l *layout) {
	if !b.addWithin(i, n, l) {
		b.addOutside(i>>(l.exp.Scale()-b.scale), n, l)
	}
}

// addWithin is add where bucket i falls within the window, and reports
// whether it does: the common case, small enough to inline.
func (b *expBuckets) addWithin(i int32, n uint64, l *layout) bool {
	i >>= uint32(l.exp.Scale()-b.scale) & 31 // below 32: see fit
	if j := uint(i - b.offset); j < uint(len(b.counts)) {
		b.counts[j] += n
		return true
	}
	return false
}

// addOutside is add for a bucket i, at b's scale, outside the window.
func (b *expBuckets) addOutside(i int32, n uint64, l *layout) {
	lo, hi := i, i
	if len(b.counts) > 0 {
		lo, hi = min(i, b.offset), max(i, b.offset+int32(len(b.counts))-1)
	}
	if k := l.fit(lo, hi); k > 0 {
		b.downscale(k)
		i, lo, hi = i>>k, lo>>k, hi>>k
	}
	b.widen(lo, hi, l.maxSize)
	b.counts[i-b.offset] += n
}

// downscale lowers b's scale by k, adding up the counts of each 2^k
// buckets, as the SDK's expoBuckets.downscale does.
func (b *expBuckets) downscale(k int32) {
	lo := b.offset >> k
	n := 0
	for i, c := range b.counts {
		// j ≤ i: the count of j was read before it is written.
		if j := int((b.offset+int32(i))>>k - lo); j == n {
			b.counts[j] = c
			n++
		} else {
			b.counts[j] += c
		}
	}
	b.counts, b.offset, b.scale = b.counts[:n], lo, b.scale-k
}

// widen makes counts run from bucket lo to hi, at most maxSize of them,
// with empty buckets where there were none: lo at most the first bucket
// and hi at least the last, where counts is not empty. Where it grows the
// counts' memory, it at most doubles it, and never past maxSize.
func (b *expBuckets) widen(lo, hi, maxSize int32) {
	if len(b.counts) == 0 {
		b.offset = lo
	}
	old, shift, n := len(b.counts), int(b.offset-lo), int(hi-lo+1)
	if n > cap(b.counts) {
		c := make([]uint64, n, min(max(n, 2*cap(b.counts)), int(maxSize)))
		copy(c[shift:], b.counts)
		b.counts, b.offset = c, lo
		return
	}
	b.counts = b.counts[:n]
	copy(b.counts[shift:], b.counts[:old])
	clear(b.counts[:shift])
	clear(b.counts[shift+old:])
	b.offset = lo
}
