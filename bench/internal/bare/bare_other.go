//go:build (!amd64 && !arm64) || purego

package bare

const (
	available          = false
	instruction        = ""
	orderedInstruction = ""
)

func unrolled() uint64 { return 0 }

func unrolledOrdered() uint64 { return 0 }

func called() uint64 { return 0 }

func calledOrdered() uint64 { return 0 }

func unrolledRDTSCP() uint64 { return 0 }

func calledRDTSCP() uint64 { return 0 }
