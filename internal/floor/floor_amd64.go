//go:build !purego

package floor

const (
	available   = true
	instruction = "RDTSC"
)

// unrolled is RDTSC a hundred times, in floor_amd64.s.
func unrolled() uint64
