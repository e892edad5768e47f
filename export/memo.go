package export

import "github.com/tickstamp/counter"

// A Memo remembers a value an exporter works out for each bucket of a
// [counter.Snapshot], such as the bucket of another histogram that holds
// its middle, by the bucket's [BucketIndex]: the same bucket in any
// Snapshot, at any time, has the same place. It holds NumBuckets values
// and a bit for each, allocated at its first Put, so that adding an
// Interval's buckets to an exporter's own costs a look-up each where the
// buckets were seen before, as most of an Interval's were in the one
// before. The zero Memo remembers nothing yet.
type Memo[T any] struct {
	at  *[NumBuckets]T
	set *[(NumBuckets + 63) / 64]uint64
}

// Lookup returns the value remembered for b's place, and false where
// there is none.
func (m *Memo[T]) Lookup(b counter.Bucket) (v T, ok bool) {
	if m.set == nil {
		return v, false
	}
	i := BucketIndex(b)
	if m.set[i>>6]&(1<<(i&63)) == 0 {
		return v, false
	}
	return m.at[i], true
}

// Put remembers v for b's place, which must be the value of every bucket
// of that place.
func (m *Memo[T]) Put(b counter.Bucket, v T) {
	if m.set == nil {
		m.at, m.set = new([NumBuckets]T), new([(NumBuckets + 63) / 64]uint64)
	}
	i := BucketIndex(b)
	m.at[i] = v
	m.set[i>>6] |= 1 << (i & 63)
}
