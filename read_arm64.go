//go:build !purego

package counter

// backend names the implementation of the reads that this build runs.
const backend = "cntvct"

// The stubs, in read_arm64.s. CNTVCTSS_EL0, the self-synchronised read of
// Armv8.6, is not used: it faults where FEAT_ECV is absent.

// readStamp returns the generic timer's virtual count, unordered:
// MRS CNTVCT_EL0.
func readStamp() uint64

// readBegin returns the virtual count read after every earlier instruction
// has finished and before any later one starts: ISB; MRS CNTVCT_EL0; ISB.
func readBegin() uint64

// readFrequency returns CNTFRQ_EL0, the rate in hertz that the firmware
// wrote for the generic timer, for discovery to judge.
func readFrequency() uint64

// detectFeatures has nothing to detect on arm64: every read uses
// instructions that every arm64 CPU has.
func detectFeatures() {}

// readEnd is readBegin: the two ISBs order the read on both sides.
func readEnd() uint64 { return readBegin() }

// readCPU reports no CPU: the generic timer says nothing about where it was
// read.
func readCPU() (Tickstamp, int) { return Tickstamp(readStamp()), -1 }
