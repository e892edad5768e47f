//go:build !purego

package counter

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// tscMode returns the calling thread's PR_GET_TSC answer: PR_TSC_ENABLE, or
// PR_TSC_SIGSEGV where RDTSC is to raise SIGSEGV. It is a raw system call,
// so that asking runs none of the scheduler's clock reads that a blocking
// call's return may run. Tests replace it to give the kernel's answer.
var tscMode = func() (int32, error) {
	var mode int32
	_, _, errno := unix.RawSyscall6(unix.SYS_PRCTL, unix.PR_GET_TSC, uintptr(unsafe.Pointer(&mode)), 0, 0, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return mode, nil
}

// readsFault reports whether the kernel has been asked to make RDTSC raise
// SIGSEGV on the calling thread. The flag is per thread: this says nothing
// of the process's other threads.
func readsFault() bool { return faultsFor(tscMode()) }

// faultsFor decides readsFault from the kernel's answer. Only
// PR_TSC_SIGSEGV faults. A kernel that refuses the question (one without
// the call, or a seccomp filter) is taken to let RDTSC run: a Go program on
// amd64 has executed RDTSC in its runtime's start-up before any of its code
// can ask, so a process that got this far had RDTSC working when it started.
func faultsFor(mode int32, err error) bool {
	return err == nil && mode == unix.PR_TSC_SIGSEGV
}
