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
