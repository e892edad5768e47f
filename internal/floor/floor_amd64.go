//go:build !purego

package floor

const (
	available          = true
	instruction        = "RDTSC"
	orderedInstruction = "LFENCE; RDTSC"
)

// unrolled is RDTSC, its halves joined and added up, a hundred times, in
// floor_amd64.s.
func unrolled() uint64

// unrolledOrdered is LFENCE; RDTSC, its halves joined and added up, a
// hundred times, in floor_amd64.s.
func unrolledOrdered() uint64

// called calls stubUnordered, a copy of the counter package's
// stampUnordered, a hundred times from assembly, in floor_amd64.s.
func called() uint64

// calledOrdered calls stubOrdered, a copy of the counter package's stampNow,
// a hundred times from assembly, in floor_amd64.s.
func calledOrdered() uint64

// stubUnordered and stubOrdered are the stubs that called and calledOrdered
// call, declared here for their frames; nothing in Go calls them.
//
//lint:ignore U1000 called calls it from assembly, which staticcheck does not see
func stubUnordered(mono bool) uint64

//lint:ignore U1000 calledOrdered calls it from assembly, which staticcheck does not see
func stubOrdered(mono bool) uint64
