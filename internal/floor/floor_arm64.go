//go:build !purego

package floor

const (
	available          = true
	instruction        = "MRS CNTVCT_EL0"
	orderedInstruction = "ISB; MRS CNTVCT_EL0"
)

// unrolled is MRS CNTVCT_EL0, added up, a hundred times, in floor_arm64.s.
func unrolled() uint64

// unrolledOrdered is ISB; MRS CNTVCT_EL0, added up, a hundred times, in
// floor_arm64.s.
func unrolledOrdered() uint64
