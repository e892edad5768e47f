// Package floor holds the floor of the counter's benchmarks: the bare read
// instruction, unrolled [Reads] times inside one assembly function, so that
// its time divided by [Reads] is what one read costs with no call around it.
// It is internal so that no user of the counter package links it.
package floor

// Reads is how many times [Unrolled] executes the read instruction.
const Reads = 100

// Available reports whether this build has the unrolled read: on amd64
// (RDTSC) and arm64 (MRS CNTVCT_EL0), without the purego build tag.
const Available = available

// Instruction names the instruction that [Unrolled] repeats, or is "" where
// [Available] is false.
const Instruction = instruction

// Unrolled executes the counter's read instruction [Reads] times in a row and
// returns the last reading. Where [Available] is false it reads nothing and
// returns 0.
func Unrolled() uint64 { return unrolled() }
