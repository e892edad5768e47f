//go:build !purego

#include "textflag.h"
#include "funcdata.h"

// A call into the vDSO by the C calling convention, on the goroutine's own
// stack. The C function may use far more stack than Go leaves below a frame:
// a kernel built with stack probes (GCC's -fstack-check, as hardened
// distributions build) probes a page below its frame on entry, and writes
// there. Go's runtime switches to the thread's system stack for its own vDSO
// calls for that reason; this declares a frame of 8 KB instead, which the
// prologue grows the goroutine's stack to fit (the function is not NOSPLIT),
// and runs the C function with its stack pointer at the frame's top: a
// page's probe plus the probing function's own frame fit with most of a page
// to spare, and the stack guard below the frame adds to that. The frame
// costs nothing per call; a goroutine's stack grows once to hold it.
//
// Writing SP from a register marks the function for the runtime's unwinder,
// which then stops at it: a profiling signal that lands here, or in the vDSO,
// records a short stack rather than unwinding from the moved stack pointer.
// The signal handler finds the goroutine in the thread's TLS, which the vDSO
// leaves alone; this is why the call is made on amd64 only (see
// vdso_other.go).

// func vdsoClockGettime(fn uintptr, clock int32) (ns int64, ok bool)
TEXT ·vdsoClockGettime(SB), 0, $8192-25
	NO_LOCAL_POINTERS
	MOVQ	fn+0(FP), AX
	MOVL	clock+8(FP), DI     // the C ABI's first argument: the clock
	LEAQ	ts_sec-16(SP), SI   // its second: the timespec, at the top of the frame
	MOVQ	SP, R12             // Go's stack pointer; the C ABI has the callee keep R12
	MOVQ	SI, SP              // the C function's stack: the whole frame below the timespec
	ANDQ	$~15, SP            // aligned to 16 at the CALL, as the C ABI requires
	CALL	AX                  // keeps RBX, RBP, R12–R15 (R14 is Go's g); may change the rest
	MOVQ	R12, SP
	XORPS	X15, X15            // Go's zero register, which the C ABI lets the callee change
	TESTL	AX, AX              // clock_gettime's int: 0 where it read the clock
	JNE	failed
	MOVQ	ts_sec-16(SP), AX
	IMULQ	$1000000000, AX
	ADDQ	ts_nsec-8(SP), AX
	MOVQ	AX, ns+16(FP)
	MOVB	$1, ok+24(FP)
	RET
failed:
	MOVQ	$0, ns+16(FP)
	MOVB	$0, ok+24(FP)
	RET
