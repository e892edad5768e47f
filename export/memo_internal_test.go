package export

import (
	"testing"
	"unsafe"

	"github.com/tickstamp/counter"
)

// TestMemoBytes checks the memory a Memo's doc gives: its function and a
// pointer a row, and 128·size(T) bytes for each row it holds, one for each
// doubling of the buckets looked up and no more.
func TestMemoBytes(t *testing.T) {
	ptr := int(unsafe.Sizeof(uintptr(0)))
	m := NewMemo(func(b counter.Bucket) int32 { return int32(b.Min) })
	if got, want := int(unsafe.Sizeof(m)), ptr+57*ptr; got != want {
		t.Fatalf("a Memo takes %d bytes; want %d", got, want)
	}
	if got := int(unsafe.Sizeof(*m.rows[0])); got != 128*4 {
		t.Fatalf("a row of int32 takes %d bytes; want %d", got, 128*4)
	}
	// Spans from 1 µs to 1 ms at 1 GHz, three decades: ten or eleven
	// doublings.
	h := counter.NewHistogram()
	for d := counter.Tickdelta(1000); d <= 1_000_000; d += d / 300 {
		h.Record(d)
	}
	var s counter.Snapshot
	h.Interval(&s)
	doublings := map[int]bool{}
	for b := range s.Buckets() {
		m.Value(BucketIndex(b))
		doublings[BucketIndex(b)/128] = true
	}
	rows := 0
	for _, r := range m.rows {
		if r != nil {
			rows++
		}
	}
	if rows != len(doublings) || rows > 11 {
		t.Fatalf("%d rows for spans of %d doublings; want one each, at most 11", rows, len(doublings))
	}
}
