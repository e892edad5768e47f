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

// counted is the shape a Tally (C = uint32) and a Dist (C = uint64) share:
// a count a bucket, a 128-bit sum, the bounds, and the counts apart.
type counted[C uint32 | uint64] struct {
	counts [NumBuckets]C
	// lo and hi are the 128-bit sum of the spans in counts.
	lo, hi uint64
	// min and max are the smallest and largest span in counts.
	min, max int64
	// negative counts spans below zero, migrated the spans whose reads
	// came from two CPUs, and unknownCPU the spans of counts whose CPU was
	// -1.
	negative, migrated, unknownCPU C
}

// of returns the count that a record of kind k and span d adds one to: the
// one place that maps a kind to its field. A span of a summed kind below
// zero counts as negative (the writer's slow path makes it KindNegative
// before it stores anything; see Writer.slow). wordsSince is its inverse.
func (c *counted[C]) of(k Kind, d int64) *C {
	switch {
	case k == KindMigrated:
		return &c.migrated
	case k == KindNegative || d < 0:
		return &c.negative
	}
	return &c.counts[BucketOf(uint64(d))]
}
