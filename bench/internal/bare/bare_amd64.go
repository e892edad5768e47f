//go:build !purego

package bare

const (
	available          = true
	instruction        = "RDTSC"
	orderedInstruction = "LFENCE; RDTSC"
)

// unrolled is RDTSC, its halves joined and added up, a hundred times, in
// bare_amd64.s.
func unrolled() uint64

// unrolledOrdered is LFENCE; RDTSC, its halves joined and added up, a
// hundred times, in bare_amd64.s.
func unrolledOrdered() uint64

// called calls stubUnordered, a copy of the counter package's
// stampUnordered, a hundred times from assembly, in bare_amd64.s.
func called() uint64

// calledOrdered calls stubOrdered, a copy of the counter package's stampNow,
// a hundred times from assembly, in bare_amd64.s.
func calledOrdered() uint64

// stubUnordered and stubOrdered are the stubs that called and calledOrdered
// call, declared here for their frames; nothing in Go calls them.
//
//lint:ignore U1000 called calls it from assembly, which staticcheck does not see
func stubUnordered(mono bool) uint64

//lint:ignore U1000 calledOrdered calls it from assembly, which staticcheck does not see
func stubOrdered(mono bool) uint64

// unrolledRDTSCP is RDTSCP, its halves joined and added up, a hundred times,
// in bare_amd64.s.
func unrolledRDTSCP() uint64

// calledRDTSCP calls stubRDTSCP, a copy of the counter package's stampNow
// on a CPU with RDTSCP, a hundred times from assembly, in bare_amd64.s.
func calledRDTSCP() uint64

//lint:ignore U1000 calledRDTSCP calls it from assembly, which staticcheck does not see
func stubRDTSCP(mono bool) uint64

// hasRDTSCP stands in for the counter package's flag of that name, which
// stampNow tests before it executes RDTSCP, so that stubRDTSCP runs the same
// instructions. It is always 1: UnrolledRDTSCP and CalledRDTSCP are only for
// CPUs that have RDTSCP.
//
//lint:ignore U1000 stubRDTSCP reads it from assembly, which staticcheck does not see
var hasRDTSCP uint32 = 1
