package counter_test

import "golang.org/x/sys/unix"

// stackPointer returns the stack pointer of a stopped tracee's registers.
func stackPointer(r *unix.PtraceRegs) uint64 { return r.Rsp }
