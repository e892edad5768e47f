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

// A tally's window begins and ends at a multiple of grain buckets: 64
// bytes of 32-bit counts.
const grain = 16

// around returns the window of whole grains that holds the buckets
// [from, to) and margin more on each side, within the range.
func around(from, to, margin uint64) (uint64, uint64) {
	from -= min(from, margin)
	to = min(to+margin, NumBuckets)
	return from - from%grain, min((to+grain-1)/grain*grain, NumBuckets)
}

// widen returns the window of a tally put in front of one of window
// [from, to) to count bucket i: the old window and i, and a quarter of
// the old window's width (at least a grain) more on the side i is, so
// that spans spreading out widen a writer's window a few times, not at
// each span.
func widen(from, to, i uint64) (uint64, uint64) {
	if from == to {
		return around(i, i+1, grain)
	}
	m := max(grain, (to-from)/4)
	switch {
	case i < from:
		from = i - min(i, m)
	case i >= to:
		to = i + 1 + m
	}
	return around(from, to, 0)
}
