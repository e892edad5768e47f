//go:build !purego

package counter

// backend names the implementation of the reads that this build runs.
const backend = "cntvct"

// The stubs, in read_arm64.s. Each takes the Counter's mono flag and, where
// it is set, jumps to [monoStamp] or [monoStampCPU] instead of reading the
// counter. CNTVCTSS_EL0, the self-synchronised read of Armv8.6, is not used:
// it faults where FEAT_ECV is absent.

// stampNow returns the generic timer's virtual count read after every
// earlier instruction, loads included, has finished: ISB; MRS CNTVCT_EL0.
// Later instructions may start before it reads.
func stampNow(mono bool) uint64

// stampUnordered returns the virtual count, unordered: MRS CNTVCT_EL0.
func stampUnordered(mono bool) uint64

// stampBegin returns the virtual count read after every earlier instruction
// has finished and before any later one starts: ISB; MRS CNTVCT_EL0; ISB.
func stampBegin(mono bool) uint64

// stampCPU returns the read of stampNow and -1: the generic timer says
// nothing about where it was read.
func stampCPU(mono bool) (ticks Tickstamp, cpu int)

// readFrequency returns CNTFRQ_EL0, the rate in hertz that the firmware
// wrote for the generic timer, for discovery to judge.
func readFrequency() uint64

// detectFeatures has nothing to detect on arm64: every read uses
// instructions that every arm64 CPU has.
func detectFeatures() {}

// stampEnd is stampBegin: the two ISBs order the read on both sides.
func stampEnd(mono bool) uint64 { return stampBegin(mono) }

// stampFenced is stampNow: arm64 has one ordered read.
func stampFenced(mono bool) uint64 { return stampNow(mono) }
