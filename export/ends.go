package export

import (
	"iter"

	"github.com/tickstamp/counter"
)

// Ends lets an exporter keep a running total's buckets of its own (an
// exponential histogram's, a list of bounds') and add each Interval to them
// at a cost in proportion to the Interval's buckets, not to the total's.
// [Values] counts every bucket's spans at its middle but for the first
// and the last, whose values hang on the total's Min and Max, which later
// spans may move. So Ends keeps those two buckets of the total as they are,
// and Take hands each other bucket to the caller once, as it becomes one
// between them: an exporter counts the buckets Take hands it at their
// middles (the one value [BucketValues] gives a bucket between the ends),
// and at each export adds the Values of the two ends that Ends gives. A
// bucket between the ends stays between them, and its middle lies between
// the total's Min and Max, so that this counts exactly Values of the total.
// [Ends.Between] runs Take over an Interval's buckets, by index. The zero
// Ends holds no bucket.
type Ends struct {
	first, last counter.Bucket // last.Count is 0 where the two are one
	// lo and hi are the BucketIndex of first and of last where there are
	// two ends, and both 0 where there are fewer, so that a bucket lies
	// strictly between the ends where its index lies strictly between them.
	lo, hi int
}

// Take adds b, a bucket of a Snapshot merged into the total, to the ends,
// and returns the bucket that is between the ends from now on, if any: b,
// or an end that b took the place of. The buckets of a Snapshot may come
// in any order.
func (e *Ends) Take(b counter.Bucket) (between counter.Bucket, ok bool) {
	switch {
	case e.first.Count == 0:
		e.first = b
	case b.Min == e.first.Min:
		e.first.Count += b.Count
	case e.last.Count == 0: // one end so far: b is the other
		if b.Min < e.first.Min {
			e.first, e.last = b, e.first
		} else {
			e.last = b
		}
		e.index()
	case b.Min == e.last.Min:
		e.last.Count += b.Count
	case b.Min < e.first.Min:
		between, e.first = e.first, b
		e.index()
		return between, true
	case b.Min > e.last.Min:
		between, e.last = e.last, b
		e.index()
		return between, true
	default:
		return b, true
	}
	return counter.Bucket{}, false
}

// index sets lo and hi from the two ends.
func (e *Ends) index() {
	e.lo, e.hi = BucketIndex(e.first), BucketIndex(e.last)
}

// Between takes the buckets of s, a Snapshot merged into the total, as
// Take takes each, and ranges over the buckets that lie between the ends
// from then on, as Take hands them on, by index ([BucketIndex]) and count:
// the loop an exporter runs over each Interval. Most buckets of an
// Interval lie strictly between the ends already (inside), and cost
// two comparisons; the others go through Take. A loop that stops early
// leaves the rest of s untaken.
func (e *Ends) Between(s *counter.Snapshot) iter.Seq2[int, uint64] {
	return func(yield func(int, uint64) bool) {
		for k, n := range IndexedBuckets(s) {
			if !e.inside(k) {
				var ok bool
				if k, n, ok = e.takeIndex(k, n); !ok {
					continue
				}
			}
			if !yield(k, n) {
				return
			}
		}
	}
}

// BetweenTaken is Between for the buckets of t, a writer's tally that a
// [Direct] hands over, as part of an Interval merged into the total.
func (e *Ends) BetweenTaken(t *Taken) iter.Seq2[int, uint64] {
	return func(yield func(int, uint64) bool) {
		for k, n := range t.Buckets() {
			if !e.inside(k) {
				var ok bool
				if k, n, ok = e.takeIndex(k, n); !ok {
					continue
				}
			}
			if !yield(k, n) {
				return
			}
		}
	}
}

// TakeIndex is Take for the bucket of index k ([BucketIndex]) holding n
// spans: it returns the bucket, by index and count, that is between the
// ends from now on, if any. It is Between for one bucket, for an exporter
// that places an Interval's buckets one by one, in more than one total: a
// bucket strictly between the ends costs two comparisons.
func (e *Ends) TakeIndex(k int, n uint64) (int, uint64, bool) {
	if e.inside(k) {
		return k, n, true
	}
	return e.takeIndex(k, n)
}

// takeIndex is TakeIndex for a bucket that is not inside.
func (e *Ends) takeIndex(k int, n uint64) (int, uint64, bool) {
	b := BucketAt(k)
	b.Count = n
	m, ok := e.Take(b)
	if !ok {
		return 0, 0, false
	}
	return BucketIndex(m), m.Count, true
}

// Values returns the values at which the ends' spans count, least and most
// being the total's Min and Max: [BucketValues] of the first end, then of
// the last.
func (e *Ends) Values(least, most counter.Tickdelta) iter.Seq2[counter.Tickdelta, uint64] {
	return func(yield func(counter.Tickdelta, uint64) bool) {
		for _, b := range [2]counter.Bucket{e.first, e.last} {
			if b.Count > 0 && !bucketValues(b, least, most, yield) {
				return
			}
		}
	}
}

// inside reports whether the bucket of index i ([BucketIndex]) lies
// strictly between the two ends, so that Take would hand it on as it is
// and keep the ends: a test of two comparisons, for the buckets of an
// Interval between its first and its last, most of which lie so. With
// fewer than two ends it is false.
func (e *Ends) inside(i int) bool {
	return e.lo < i && i < e.hi
}
