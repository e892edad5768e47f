//go:build !amd64 || purego

package counter

// nowCPUTagged reports whether NowCPU reads the CPU from TSC_AUX: only on
// amd64 with the assembly reads.
func nowCPUTagged() bool { return false }
