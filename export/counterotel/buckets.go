package counterotel

import (
	"slices"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"

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

// newPlaces returns where the middles of a Snapshot's buckets, in seconds
// at the rate r, lie among the buckets of l's exp: the conversion and the
// search that [export.Exponential.Index] does, worked out for a doubling of
// buckets at the first bucket of it the Producer places ([export.Memo]),
// so that adding an Interval of n buckets costs n look-ups. A Producer
// keeps one for each rate its registrations have. The place of bucket 0,
// whose middle is 0 s, which Index does not take, is 0: no bucket between
// the ends is bucket 0, whose Min is no end's above.
func newPlaces(r counter.TickRate, l *layout) *export.Memo[int32] {
	m := export.NewMemo(func(b counter.Bucket) int32 {
		if b.Min == 0 {
			return 0
		}
		return l.exp.Index(export.Seconds(export.Middle(b), r))
	})
	return &m
}

// A tally counts the spans of a Snapshot, or of Snapshots merged one into
// another, in the positive buckets that hold their values of
// [export.Values], so that a Produce adds the spans of an Interval at a
// cost in proportion to its buckets, and not to all the buckets of the
// total: ends keeps the total's first bucket and its last, whose values
// depend on its Min and Max, while counts holds the middles of the others
// ([export.Ends]), at the finest scale, up to maxScale, at which they fit
// in maxSize buckets. A bucket between the ends stays between them as
// spans are added, and its middle lies between Min and Max, so the buckets
// of the point are those of counts widened by the ends' values: the
// point's scale is counts' or lower.
type tally struct {
	ends   export.Ends
	scale  int32
	offset int32    // the bucket of counts[0], at scale
	counts []uint64 // at most maxSize; the first and the last are not 0
	// known are the values of the ends that the last points placed, with
	// their buckets at the layout's scale, the latest first: the ends and
	// the total's Min and Max seldom move, so that a point mostly finds
	// its ends' buckets here rather than working them out again (indexOf).
	// A tally serves one rate between two resets.
	known [6]knownValue
}

// A knownValue is a value of an end, positive, and its bucket at the
// layout's scale; the zero knownValue holds none.
type knownValue struct {
	v counter.Tickdelta
	i int32
}

// indexOf returns the bucket, at the layout's scale, of v, positive, in
// seconds at the rate r, which is t's, from t.known where it is there.
func (t *tally) indexOf(v counter.Tickdelta, l *layout, r counter.TickRate) int32 {
	for _, k := range t.known {
		if k.v == v {
			return k.i
		}
	}
	i := l.exp.Index(export.Seconds(v, r))
	copy(t.known[1:], t.known[:len(t.known)-1])
	t.known[0] = knownValue{v, i}
	return i
}

// reset empties t.
func (t *tally) reset(l *layout) {
	*t = tally{scale: l.maxScale, counts: t.counts[:0]}
}

// add counts the spans of s, in seconds at pl's rate (newPlaces), as if s
// were merged into the Snapshot that t counts: each bucket that Take hands
// on, between the ends, at its middle, its only value of
// export.BucketValues, which is positive (its Min is above the first
// end's, which is at least 0). Most buckets of s lie between the ends,
// where it costs a look-up and an add.
func (t *tally) add(s *counter.Snapshot, l *layout, pl *export.Memo[int32]) {
	if s.Count() == 0 {
		return
	}
	shift := uint(l.exp.Scale() - t.scale)
	for k, n := range t.ends.Between(s) {
		i, ok := pl.Known(k)
		if !ok {
			i = pl.Value(k)
		}
		i >>= shift & 31 // shift is below 16 (see fit): the mask spares a check
		if j := i - t.offset; j >= 0 && int(j) < len(t.counts) {
			t.counts[j] += n
			continue
		}
		t.between(i, n, l)
		shift = uint(l.exp.Scale() - t.scale)
	}
}

// addTaken counts the spans of tk, a writer's tally that an Interval took
// ([export.Direct]), as add counts those of a Snapshot: as if they were
// merged into the Snapshot that t counts. PlaceTaken places most of its
// buckets, and hands back the few that an end, a row of pl not worked out
// yet, or a bucket outside counts makes place's.
func (t *tally) addTaken(tk *export.Taken, l *layout, pl *export.Memo[int32]) {
	for {
		k, n, ok := t.ends.PlaceTaken(tk, uint(l.exp.Scale()-t.scale), pl, t.offset, t.counts)
		if !ok {
			return
		}
		t.place(k, n, l, pl)
	}
}

// place is addTaken for one bucket k ([export.BucketIndex]) holding n
// spans.
func (t *tally) place(k int, n uint64, l *layout, pl *export.Memo[int32]) {
	k, n, ok := t.ends.TakeIndex(k, n)
	if !ok {
		return
	}
	i, ok := pl.Known(k)
	if !ok {
		i = pl.Value(k)
	}
	i >>= uint(l.exp.Scale()-t.scale) & 31
	if j := i - t.offset; j >= 0 && int(j) < len(t.counts) {
		t.counts[j] += n
		return
	}
	t.between(i, n, l)
}

// between counts n spans in bucket i at t's scale, which lies outside
// counts, lowering the scale where counts would be more than maxSize.
func (t *tally) between(i int32, n uint64, l *layout) {
	if len(t.counts) == 0 {
		t.offset, t.counts = i, append(t.counts, 0)
	}
	lo, hi := min(i, t.offset), max(i, t.offset+int32(len(t.counts))-1)
	if k := l.fit(lo, hi); k > 0 {
		t.downscale(k)
		i, lo, hi = i>>k, lo>>k, hi>>k
	}
	t.widen(lo, hi)
	t.counts[i-t.offset] += n
}

// downscale lowers t's scale by k, adding up the counts of each 2^k
// buckets, as the SDK's expoBuckets.downscale does.
func (t *tally) downscale(k int32) {
	lo := t.offset >> k
	n := 0
	for i, c := range t.counts {
		// j ≤ i: the count of j was read before it is written.
		if j := int((t.offset+int32(i))>>k - lo); j == n {
			t.counts[j] = c
			n++
		} else {
			t.counts[j] += c
		}
	}
	t.counts, t.offset, t.scale = t.counts[:n], lo, t.scale-k
}

// widen makes counts run from bucket lo to hi, lo ≤ offset and hi at least
// its last, with empty buckets.
func (t *tally) widen(lo, hi int32) {
	old, shift, n := len(t.counts), int(t.offset-lo), int(hi-lo+1)
	t.counts = slices.Grow(t.counts, n-old)[:n]
	if shift > 0 {
		copy(t.counts[shift:], t.counts[:old])
		clear(t.counts[:shift])
	}
	clear(t.counts[shift+old:])
	t.offset = lo
}

// point sets dp's Scale, ZeroCount and PositiveBucket to hold the spans t
// counts, at their [export.Values] where least and most are the Min and Max
// of the Snapshot t counts: at the finest scale, up to maxScale, at which
// the buckets from the one of its smallest positive value to the one of
// its largest are at most maxSize. The counts are cut from room, and the
// caller may keep them.
func (t *tally) point(dp *metricdata.ExponentialHistogramDataPoint[float64], least, most counter.Tickdelta, l *layout, r counter.TickRate, room *room) {
	type placed struct {
		i int32 // at t.scale
		n uint64
	}
	var ends [6]placed // BucketValues of each end: 3 at most
	m := 0
	var zero uint64
	lo, hi := t.offset, t.offset+int32(len(t.counts))-1
	for v, n := range t.ends.Values(least, most) {
		if v <= 0 {
			zero += n
			continue
		}
		i := t.indexOf(v, l, r) >> (l.exp.Scale() - t.scale)
		if m == 0 && len(t.counts) == 0 {
			lo, hi = i, i
		}
		lo, hi = min(lo, i), max(hi, i)
		ends[m] = placed{i, n}
		m++
	}
	dp.ZeroCount, dp.Scale = zero, t.scale
	dp.PositiveBucket = metricdata.ExponentialBucket{}
	if m == 0 && len(t.counts) == 0 {
		return
	}
	k := l.fit(lo, hi)
	lo, hi = lo>>k, hi>>k
	counts := room.take(int(hi - lo + 1))
	switch {
	case len(t.counts) == 0:
	case k == 0:
		copy(counts[t.offset-lo:], t.counts)
	default:
		for i, c := range t.counts {
			counts[(t.offset+int32(i))>>k-lo] += c
		}
	}
	for _, e := range ends[:m] {
		counts[e.i>>k-lo] += e.n
	}
	dp.Scale -= k
	dp.PositiveBucket = metricdata.ExponentialBucket{Offset: lo, Counts: counts}
}
