package export

import (
	"unsafe"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/handover"
)

// A Memo remembers a value an exporter works out for each bucket of a
// [counter.Snapshot], such as the bucket of another histogram that holds
// its middle, by the bucket's [BucketIndex]: the same bucket in any
// Snapshot, at any time, has the same place. It keeps the values of a row
// of buckets, a doubling's 128, and a bit for each, from the first Put of
// one of them, so that its memory follows the range of the spans it saw:
// a pointer for each of the 57 rows (456 bytes of 64-bit pointers), and
// 16 + 128·size(T) bytes a row it holds. Adding an Interval's buckets to
// an exporter's own then costs a look-up each where the buckets were seen
// before, as most of an Interval's were in the one before. The zero Memo
// remembers nothing yet.
type Memo[T any] struct {
	rows [memoRows]*memoRow[T]
}

// memoRowBuckets is how many buckets a row of a Memo holds, a doubling's.
const memoRowBuckets = handover.SubBuckets

// memoRows is how many rows the buckets take.
const memoRows = (NumBuckets + memoRowBuckets - 1) / memoRowBuckets

// A memoRow is the values of a row's buckets, and a bit for each, set
// where the value was Put.
type memoRow[T any] struct {
	set [memoRowBuckets / 64]uint64
	at  [memoRowBuckets]T
}

// Lookup returns the value remembered for b's place, and false where
// there is none.
func (m *Memo[T]) Lookup(b counter.Bucket) (v T, ok bool) {
	i := BucketIndex(b)
	r := m.rows[i/memoRowBuckets]
	if r == nil {
		return v, false
	}
	j := i % memoRowBuckets
	if r.set[j/64]&(1<<(j%64)) == 0 {
		return v, false
	}
	return r.at[j], true
}

// Put remembers v for b's place, which must be the value of every bucket
// of that place.
func (m *Memo[T]) Put(b counter.Bucket, v T) {
	i := BucketIndex(b)
	r := m.rows[i/memoRowBuckets]
	if r == nil {
		r = new(memoRow[T])
		m.rows[i/memoRowBuckets] = r
	}
	j := i % memoRowBuckets
	r.at[j] = v
	r.set[j/64] |= 1 << (j % 64)
}

// Bytes returns the bytes the Memo takes: its rows of buckets and itself.
func (m *Memo[T]) Bytes() int {
	n := int(unsafe.Sizeof(*m))
	for _, r := range m.rows {
		if r != nil {
			n += int(unsafe.Sizeof(*r))
		}
	}
	return n
}
