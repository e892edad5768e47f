// Package floor holds the floors of the counter's benchmarks: each read's
// whole instruction sequence (on amd64 the read and the join of its two
// halves), with each reading added into a register as a caller would use
// it, unrolled [Reads] times inside one assembly function, so that its
// time divided by [Reads] is what one read costs with no call around it.
// [Unrolled] is the bare read of Counter.NowUnordered, [UnrolledOrdered]
// the ordered read of Counter.Now. It is internal so that no user of the
// counter package links it.
package floor

// Reads is how many times [Unrolled] and [UnrolledOrdered] execute their
// sequence.
const Reads = 100

// Available reports whether this build has the unrolled reads: on amd64 and
// arm64, without the purego build tag.
const Available = available

// Instruction names the read instruction of the sequence that [Unrolled]
// repeats (RDTSC, MRS CNTVCT_EL0), or is "" where [Available] is false.
const Instruction = instruction

// OrderedInstruction names the ordered read of the sequence that
// [UnrolledOrdered] repeats (LFENCE; RDTSC, ISB; MRS CNTVCT_EL0), or is ""
// where [Available] is false.
const OrderedInstruction = orderedInstruction

// Unrolled executes the counter's bare read sequence [Reads] times in a row,
// adding up the readings, and returns the last reading. Where [Available] is
// false it reads nothing and returns 0.
func Unrolled() uint64 { return unrolled() }

// UnrolledOrdered executes the counter's ordered read sequence [Reads] times
// in a row, adding up the readings, and returns the last reading. Where
// [Available] is false it reads nothing and returns 0.
func UnrolledOrdered() uint64 { return unrolledOrdered() }
