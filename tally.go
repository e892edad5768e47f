package counter

// A tally is what one writer has recorded since it last handed over: one
// goroutine writes it at a time, with plain stores, and whoever owns it next
// learns of those stores through the lock or atomic that handed it over.
type tally struct {
	// counts holds the spans of each bucket. 32 bits keep a tally small
	// enough to stay in the level-1 cache; a bucket about to overflow makes
	// its writer hand the tally over (see Recorder.slow).
	counts [numBuckets]uint32
	// lo and hi are the 128-bit sum of the counted spans, which no count
	// of spans can overflow.
	lo, hi uint64
	// min and max are the smallest and largest counted span; an empty
	// tally has max < 0.
	min, max Tickdelta
	// negative counts spans below zero, migrated the spans whose reads came
	// from two CPUs, and unknownCPU the spans recorded with a CPU of -1.
	negative, migrated, unknownCPU uint64
}

func (t *tally) reset() {
	clear(t.counts[:])
	t.lo, t.hi = 0, 0
	t.min, t.max = maxTickdelta, -1
	t.negative, t.migrated, t.unknownCPU = 0, 0, 0
}

// empty reports whether the tally holds nothing.
func (t *tally) empty() bool {
	return t.max < 0 && t.negative == 0 && t.migrated == 0 && t.unknownCPU == 0
}
