//go:build !purego

package bare

const (
	available          = true
	instruction        = "MRS CNTVCT_EL0"
	orderedInstruction = "ISB; MRS CNTVCT_EL0"
)

// unrolled is MRS CNTVCT_EL0, added up, a hundred times, in bare_arm64.s.
func unrolled() uint64

// unrolledOrdered is ISB; MRS CNTVCT_EL0, added up, a hundred times, in
// bare_arm64.s.
func unrolledOrdered() uint64

// called calls stubUnordered, a copy of the counter package's
// stampUnordered, a hundred times from assembly, in bare_arm64.s.
func called() uint64

// calledOrdered calls stubOrdered, a copy of the counter package's stampNow,
// a hundred times from assembly, in bare_arm64.s.
func calledOrdered() uint64

// stubUnordered and stubOrdered are the stubs that called and calledOrdered
// call, declared here for their frames; nothing in Go calls them.
//
//lint:ignore U1000 called calls it from assembly, which staticcheck does not see
func stubUnordered(mono bool) uint64

//lint:ignore U1000 calledOrdered calls it from assembly, which staticcheck does not see
func stubOrdered(mono bool) uint64

// There is no RDTSCP on arm64: these read nothing.
func unrolledRDTSCP() uint64 { return 0 }

func calledRDTSCP() uint64 { return 0 }
