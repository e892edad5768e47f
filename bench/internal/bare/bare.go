// Package bare holds the counter's reads with nothing around them, for the
// bench module's read benchmarks to set beside Counter's: each read's whole
// instruction sequence (on amd64 the read and the join of its two halves),
// with each reading added into a register as a caller would use it,
// unrolled [Reads] times inside one assembly function, so that its time
// divided by [Reads] is what one read costs with no call around it.
// [Unrolled] is the bare read of Counter.NowUnordered, [UnrolledOrdered]
// the ordered read of Counter.Now where the CPU has no RDTSCP, and
// [UnrolledRDTSCP] its read where it has. [Called], [CalledOrdered] and
// [CalledRDTSCP] call a copy of each read's stub instead, from assembly, so
// that what a call costs can be set apart from what Go code around it
// costs. It lives in the bench module so that no user of the counter
// package links it.
package bare

import (
	"runtime"

	"github.com/klauspost/cpuid/v2"
)

// bare_amd64.s and bare_arm64.s are written by baregen from its table of
// reads, which a test checks against the counter package's read_GOARCH.s.
//go:generate go run ./baregen

// Reads is how many times each function of the package executes its
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

// HasRDTSCP reports whether [UnrolledRDTSCP] and [CalledRDTSCP] may run:
// where [Available] is true on amd64 and the CPU has RDTSCP, as the counter
// package asks CPUID before Counter.Now reads with it.
func HasRDTSCP() bool {
	return Available && runtime.GOARCH == "amd64" && cpuid.CPU.Has(cpuid.RDTSCP)
}

// Unrolled executes the counter's bare read sequence [Reads] times in a row,
// adding up the readings, and returns the last reading. Where [Available] is
// false it reads nothing and returns 0.
func Unrolled() uint64 { return unrolled() }

// UnrolledOrdered executes the counter's ordered read sequence [Reads] times
// in a row, adding up the readings, and returns the last reading. Where
// [Available] is false it reads nothing and returns 0.
func UnrolledOrdered() uint64 { return unrolledOrdered() }

// Called calls a copy of the counter package's stub of Counter.NowUnordered
// [Reads] times from assembly, as compiled Go calls it (ABI0: the argument
// and the reading passed on the stack), adding up the readings, and returns
// the last reading. Its time above [Unrolled]'s is what the call itself
// costs, with no Go code around it. Where [Available] is false it reads
// nothing and returns 0.
func Called() uint64 { return called() }

// CalledOrdered is [Called] for the stub of Counter.Now, the ordered read:
// its time above [UnrolledOrdered]'s is what the call itself costs.
func CalledOrdered() uint64 { return calledOrdered() }

// UnrolledRDTSCP executes RDTSCP and the join of its halves [Reads] times,
// adding up the readings, and returns the last reading: the bare read of
// Counter.Now on a CPU that has RDTSCP, where Now reads with it. Call it only
// where [HasRDTSCP] reports true. On arm64, and where [Available] is false,
// it reads nothing and returns 0.
func UnrolledRDTSCP() uint64 { return unrolledRDTSCP() }

// CalledRDTSCP is [Called] for Counter.Now's stub on a CPU that has RDTSCP:
// its time above [UnrolledRDTSCP]'s is what the call itself costs. Call it
// only where [HasRDTSCP] reports true.
func CalledRDTSCP() uint64 { return calledRDTSCP() }
