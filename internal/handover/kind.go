package handover

// A Kind is what a record counts; the journal keeps it (jkind) for a
// record of another kind than a span.
type Kind uint64

const (
	// KindSpan is a span in the distribution.
	KindSpan Kind = iota
	// KindUnknown is a span in the distribution, also counted as
	// UnknownCPU: its reads could not say their CPU.
	KindUnknown
	// KindNegative is a negative span, counted apart.
	KindNegative
	// KindMigrated is a span whose reads came from two CPUs, counted apart
	// whatever its sign.
	KindMigrated
)

// summed reports whether a record of kind k is in the distribution: in
// the sum and bounds besides its bucket.
func (k Kind) summed() bool { return k <= KindUnknown }

// The places of placeOf that are not buckets.
const (
	placeNegative = -1
	placeMigrated = -2
)

// placeOf returns where a record of kind k and span d counts: the bucket
// of d, or placeNegative or placeMigrated for the counts apart. It is the
// one place that maps a kind to its count, for a Tally (Tally.of) and a
// Dist (Dist.Add) alike; wordsSince is its inverse. A span of a summed kind
// below zero counts as negative (the writer's slow path makes it
// KindNegative before it stores anything; see Writer.slow).
func placeOf(k Kind, d int64) int {
	switch {
	case k == KindMigrated:
		return placeMigrated
	case k == KindNegative || d < 0:
		return placeNegative
	}
	return int(BucketOf(uint64(d)))
}
