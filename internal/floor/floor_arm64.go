//go:build !purego

package floor

const (
	available   = true
	instruction = "MRS CNTVCT_EL0"
)

// unrolled is MRS CNTVCT_EL0 a hundred times, in floor_arm64.s.
func unrolled() uint64
