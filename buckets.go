package counter

import "math/bits"

// The buckets of a [Histogram] are log-linear, as HdrHistogram's are: every
// span below 2·subBuckets ticks has a bucket of its own, and each doubling of
// the span above that is cut into subBuckets buckets of equal width. A bucket
// [lo, lo+w) with w > 1 has lo ≥ subBuckets·w, so the middle of the bucket is
// within w/2 ≤ lo/(2·subBuckets) of every span in it: the relative error of a
// quantile is at most 1/(2·subBuckets), whatever the span.
const (
	subBucketBits = 7
	subBuckets    = 1 << subBucketBits // buckets a doubling
	// numBuckets covers 0 to maxTickdelta: the exact spans below
	// 2·subBuckets, then one row of subBuckets for each doubling from
	// 2^(subBucketBits+1) up to 2^63.
	numBuckets = (64 - subBucketBits) * subBuckets
)

// QuantileError is the largest relative error of [Snapshot.Quantile] against
// the exact order statistic it estimates: a quantile q of a snapshot whose
// exact ⌈q·n⌉-th smallest span is x lies within x·QuantileError of x (it is
// exact for every x below 256 ticks).
const QuantileError = 1.0 / (2 * subBuckets)

// bucketOf returns the bucket of a span read as unsigned: a span of 0 to
// maxTickdelta has a bucket below numBuckets, and a negative span, whose top
// bit is set, one at or above it, so that one bounds check catches both.
func bucketOf(v uint64) uint64 {
	// The doubling above the exact range that v lies in, 0 for the exact
	// range itself: OR-ing in the exact range's bits keeps it from going
	// below.
	shift := uint64(64-subBucketBits-1) - uint64(bits.LeadingZeros64(v|(2*subBuckets-1)))
	return shift<<subBucketBits + v>>shift
}

// bucketBounds returns the smallest span of bucket i and its width in ticks.
func bucketBounds(i int) (lo, width uint64) {
	if i < 2*subBuckets {
		return uint64(i), 1
	}
	shift := uint64(i>>subBucketBits) - 1
	return uint64(i-int(shift<<subBucketBits)) << shift, 1 << shift
}
