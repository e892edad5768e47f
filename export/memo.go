package export

import (
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/handover"
)

// A Memo remembers a value an exporter works out for each bucket of a
// [counter.Snapshot], such as the bucket of another histogram that holds
// its middle, by the bucket's [BucketIndex]: the same bucket in any
// Snapshot, at any time, has the same place. At the first look-up of a
// bucket of a row, a doubling's 128 buckets, it works out the values of the
// whole row at once, so that its memory follows the range of the spans it
// saw: its function and a pointer for each of the 57 rows (464 bytes with
// 64-bit pointers), and 128·size(T) bytes a row it holds. Adding an
// Interval's buckets to an exporter's own then costs a look-up each, and a
// test of whether the bucket's row is there.
//
// The zero Memo has no function, and its first Value panics: make one with
// [NewMemo].
type Memo[T any] struct {
	work func(counter.Bucket) T
	rows [memoRows]*[memoRowBuckets]T
}

// memoRowBuckets is how many buckets a row of a Memo holds, a doubling's.
const memoRowBuckets = handover.SubBuckets

// memoRows is how many rows the buckets take.
const memoRows = (NumBuckets + memoRowBuckets - 1) / memoRowBuckets

// NewMemo returns a Memo of the values work gives. work is called once for
// each bucket of each row the Memo holds, in the order of the buckets,
// whether or not a Snapshot held that bucket yet; bucket 0 among them, the
// span 0 alone, whose middle is 0.
func NewMemo[T any](work func(counter.Bucket) T) Memo[T] {
	return Memo[T]{work: work}
}

// Value returns the value of the place of the bucket of index i
// ([BucketIndex]), from 0 to NumBuckets−1, working out its row where no
// look-up did yet.
func (m *Memo[T]) Value(i int) T {
	if v, ok := m.Known(i); ok {
		return v
	}
	return m.fill(i)
}

// Known returns the value of the place of the bucket of index i, from 0 to
// NumBuckets−1, and true, where a look-up worked out its row already; the
// zero T and false where none did, and then Value works it out. It is Value
// without the work: a look-up small enough for the compiler to inline into
// an exporter's loop over an Interval's buckets, which calls Value where
// Known reports false.
func (m *Memo[T]) Known(i int) (v T, ok bool) {
	if row := m.rows[uint(i)/memoRowBuckets]; row != nil {
		return row[uint(i)%memoRowBuckets], true
	}
	return v, false
}

// fill works out the row of bucket i and returns i's value.
func (m *Memo[T]) fill(i int) T {
	k := i / memoRowBuckets
	row := new([memoRowBuckets]T)
	for j := range min(memoRowBuckets, NumBuckets-k*memoRowBuckets) {
		row[j] = m.work(BucketAt(k*memoRowBuckets + j))
	}
	m.rows[k] = row
	return row[i%memoRowBuckets]
}
