//go:build !purego

package rawclock

import (
	"bytes"
	"unsafe"
)

// Hooks for the external tests of the vDSO read (vdso_linux_amd64_test.go).

// The vDSO's clock_gettime, by name and version.
const (
	VDSOClockName    = vdsoClockName
	VDSOClockVersion = vdsoClockVersion
)

var (
	// ELFFuncOffset is the look-up of a function in an ELF image in memory.
	ELFFuncOffset = elfFuncOffset
	// VDSOFunc is the look-up of a function in the vDSO the kernel mapped.
	VDSOFunc = vdsoFunc
	// Choose is Open's choice of the vDSO's clock_gettime that find
	// returns, for a thread that faults or not.
	Choose = choose
	// FindVDSOClock is the look-up of the vDSO's clock_gettime through the
	// auxiliary vector that auxv returns; a test gives it a vector without
	// the vDSO to force the system call.
	FindVDSOClock = findVDSOClock
	// Via is Read's read, through the vDSO's function at fn, or by the
	// system call where fn is 0.
	Via = via
	// VDSOClockGettime is the assembly call of the vDSO's function at fn.
	VDSOClockGettime = vdsoClockGettime
)

// Chosen returns the Clock's choice: the vDSO's clock_gettime, or 0 and why
// not.
func (c Clock) Chosen() (uintptr, error) { return c.fn, c.why }

// VDSOImage returns a copy of the vDSO's image whose ELF header is at base,
// its size taken as the look-up takes it.
func VDSOImage(base uintptr) ([]byte, error) {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&base))
	size, err := vdsoImageSize(unsafe.Slice((*byte)(p), elfHeaderSize))
	if err != nil {
		return nil, err
	}
	return bytes.Clone(unsafe.Slice((*byte)(p), size)), nil
}
