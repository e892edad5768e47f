//go:build !purego

package counter

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// readsFault reports whether the kernel makes RDTSC raise SIGSEGV in this
// process, as prctl(PR_SET_TSC, PR_TSC_SIGSEGV) asks. A kernel that does not
// know the call lets RDTSC run.
func readsFault() bool {
	var mode int32
	if err := unix.Prctl(unix.PR_GET_TSC, uintptr(unsafe.Pointer(&mode)), 0, 0, 0); err != nil {
		return false
	}
	return mode == unix.PR_TSC_SIGSEGV
}
