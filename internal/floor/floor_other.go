//go:build (!amd64 && !arm64) || purego

package floor

const (
	available   = false
	instruction = ""
)

func unrolled() uint64 { return 0 }
