//go:build !purego

package counter

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// This file asks the processor itself: the CPUID instruction, for
// discovery's decision (cpuid.go) and for the features the reads branch on,
// detected once per process. Its stub is in cpuid_amd64.s.

// cpuid executes CPUID with EAX = leaf and ECX = subleaf. In a virtual
// machine it exits to the hypervisor, tens of microseconds: never on a read
// path.
func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)

// tscAuxIsCPU reports whether the OS writes the CPU number into the low 12
// bits of TSC_AUX. Linux does; what other systems put there is their own.
const tscAuxIsCPU = runtime.GOOS == "linux"

// The features the reads branch on, 1 for yes, written once by
// detectFeatures with atomic stores and read by the stubs with plain loads
// (atomic on amd64). They are 0 until detectFeatures has run, so a Counter
// never made by New uses the sequences every amd64 CPU has.
var (
	// hasRDTSCP is 1 where the CPU has RDTSCP.
	hasRDTSCP uint32

	// cpuInAux is 1 where NowCPU reads the CPU from TSC_AUX: where the CPU
	// has RDTSCP and the OS keeps the CPU number in TSC_AUX.
	cpuInAux uint32

	detectOnce sync.Once
)

// detectFeatures fills hasRDTSCP and cpuInAux, once per process: CPUID
// leafExtFeatures's bitRDTSCP, read only where the highest extended leaf
// reaches it. New calls it, and so does discovery; init does not, since
// CPUID in a virtual machine costs a VM exit.
func detectFeatures() {
	detectOnce.Do(func() {
		maxExt, _, _, _ := cpuid(leafExtended, 0)
		if maxExt < leafExtFeatures {
			return
		}
		_, _, _, edx := cpuid(leafExtFeatures, 0)
		if edx&bitRDTSCP == 0 {
			return
		}
		if tscAuxIsCPU {
			atomic.StoreUint32(&cpuInAux, 1)
		}
		atomic.StoreUint32(&hasRDTSCP, 1)
	})
}
