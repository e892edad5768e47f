package counterotel

import (
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
	i >>= l.exp.Scale() - b.scale
	if j := i - b.offset; j >= 0 && int(j) < len(b.counts) {
		b.counts[j] += n
		return
	}
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
