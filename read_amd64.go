//go:build !purego

package counter

// backend names the implementation of the reads that this build runs.
const backend = "rdtsc"

// The stubs, in read_amd64.s. None of them is ever called on a CPU that lacks
// its instructions: RDTSC and LFENCE are on every amd64 CPU (LFENCE since
// SSE2, which amd64 requires), RDTSCP only where [detectFeatures] found it,
// and CPUID never on a read path.
//
// Each read is an assembly function of its own, which Counter's methods call
// directly, so that every read inlines to one call. Each takes the Counter's
// mono flag and, where it is set, jumps to [monoStamp] or [monoStampCPU]
// instead of reading the counter.

// stampNow returns the time-stamp counter read after every earlier
// instruction, loads included, has finished: RDTSCP where hasRDTSCP is set
// (as Linux's rdtsc_ordered prefers), else it jumps to stampFenced. Later instructions
// may start before it reads.
func stampNow(mono bool) uint64

// stampFenced is stampNow's read where the CPU has no RDTSCP (or before
// [New] has run): LFENCE; RDTSC, after a stampNow that has found mono unset,
// which it does not read again. On AMD, LFENCE waits like this (is dispatch
// serializing) on Zen 2 and later, and on earlier families where the OS set
// the MSR bit that makes it so, as Linux does.
func stampFenced(mono bool) uint64

// stampUnordered returns the time-stamp counter, unordered: RDTSC.
func stampUnordered(mono bool) uint64

// stampBegin returns the time-stamp counter read after every earlier
// instruction has finished and before any later one starts:
// LFENCE; RDTSC; LFENCE.
func stampBegin(mono bool) uint64

// stampEnd returns the time-stamp counter read after every earlier
// instruction has finished and before any later one starts: RDTSCP; LFENCE
// where hasRDTSCP is set, LFENCE; RDTSC; LFENCE where it is not. It reads the
// flag itself, so that End stays one inlined call.
func stampEnd(mono bool) uint64

// stampCPU returns, where cpuInAux is set, the time-stamp counter and the
// low 12 bits of TSC_AUX, read together by RDTSCP, which waits for every
// earlier instruction, loads included, to finish; where it is not, LFENCE;
// RDTSC, the read of stampFenced, and -1. It reads the flag itself, so that
// NowCPU stays one inlined call.
func stampCPU(mono bool) (ticks Tickstamp, cpu int)
