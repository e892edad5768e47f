package handover

import (
	"math"
	"testing"
)

func TestBucketsTileTheRange(t *testing.T) {
	var next uint64
	for i := range NumBuckets {
		lo, width := BucketBounds(i)
		if lo != next {
			t.Fatalf("bucket %d starts at %d; want %d, where bucket %d ended", i, lo, next, i-1)
		}
		if width > 1 && lo < SubBuckets*width {
			t.Fatalf("bucket %d: [%d, +%d) is wider than 1/%d of its start", i, lo, width, SubBuckets)
		}
		for _, v := range []uint64{lo, lo + width/2, lo + width - 1} {
			if got := BucketOf(v); got != uint64(i) {
				t.Fatalf("BucketOf(%d) = %d; want %d, the bucket [%d, +%d)", v, got, i, lo, width)
			}
		}
		next = lo + width
	}
	if next != 1<<63 {
		t.Fatalf("the last bucket ends at %d; want 2⁶³", next)
	}
	for _, v := range []uint64{1 << 63, 1<<63 + 1, math.MaxUint64} {
		if got := BucketOf(v); got < NumBuckets {
			t.Fatalf("BucketOf(%d), a negative span, = %d; want ≥ %d", v, got, NumBuckets)
		}
	}
}
