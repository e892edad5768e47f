package handover

import "math/bits"

// The buckets are log-linear, as HdrHistogram's are: every span below
// 2·SubBuckets ticks has a bucket of its own, and each doubling of the span
// above that is cut into SubBuckets buckets of equal width. A bucket
// [lo, lo+w) with w > 1 has lo ≥ SubBuckets·w, so the middle of the bucket is
// within w/2 ≤ lo/(2·SubBuckets) of every span in it: the relative error of
// a quantile is at most 1/(2·SubBuckets), whatever the span.
const (
	SubBucketBits = 7
	SubBuckets    = 1 << SubBucketBits // buckets a doubling
	// NumBuckets covers 0 to 2⁶³−1: the exact spans below 2·SubBuckets,
	// then one row of SubBuckets for each doubling from
	// 2^(SubBucketBits+1) up to 2⁶³.
	NumBuckets = (64 - SubBucketBits) * SubBuckets
)

// BucketOf returns the bucket of a span read as unsigned: a span of 0 to
// 2⁶³−1 has a bucket below NumBuckets, and a negative span, whose top bit
// is set, one at or above it, so that one bounds check catches both.
func BucketOf(v uint64) uint64 {
	// The doubling above the exact range that v lies in, 0 for the exact
	// range itself: OR-ing in the exact range's bits keeps it from going
	// below.
	shift := uint64(64-SubBucketBits-1) - uint64(bits.LeadingZeros64(v|(2*SubBuckets-1)))
	return shift<<SubBucketBits + v>>shift
}

// BucketBounds returns the smallest span of bucket i and its width in ticks.
func BucketBounds(i int) (lo, width uint64) {
	if i < 2*SubBuckets {
		return uint64(i), 1
	}
	shift := uint64(i>>SubBucketBits) - 1
	return uint64(i-int(shift<<SubBucketBits)) << shift, 1 << shift
}
