//go:build !purego

#include "textflag.h"

// Each function executes its read's whole sequence Reads times, as the
// counter's stub executes it once, and adds each reading into R1, as a
// caller that uses it would. The last reading is returned.

// func unrolled() uint64
TEXT ·unrolled(SB), NOSPLIT|NOFRAME, $0-8
	MOVD $0, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MOVD R0, ret+0(FP)
	RET

// func unrolledOrdered() uint64
TEXT ·unrolledOrdered(SB), NOSPLIT|NOFRAME, $0-8
	MOVD $0, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ADD  R0, R1, R1
	MOVD R0, ret+0(FP)
	RET

// The called floors. Each calls a copy of a stub of the counter package
// (stampUnordered, stampNow in read_arm64.s) Reads times, as the Go compiler
// calls an assembly function: the mono argument stored to the stack, the
// reading read back from it after the call (ABI0, the only convention an
// assembly function outside the standard library may have), and added into
// R2. They hold no Go code, so what they cost above the unrolled floors is
// the call and its stack round trip alone. The last reading is returned.

// func called() uint64
TEXT ·called(SB), NOSPLIT, $24-8
	MOVD $0, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVD R0, ret+0(FP)
	RET

// func calledOrdered() uint64
TEXT ·calledOrdered(SB), NOSPLIT, $24-8
	MOVD $0, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVB ZR, 8(RSP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVD 16(RSP), R0
	ADD  R0, R2, R2
	MOVD R0, ret+0(FP)
	RET

// func stubUnordered(mono bool) uint64
TEXT ·stubUnordered(SB), NOSPLIT|NOFRAME, $0-16
	MOVBU mono+0(FP), R1
	CBNZ  R1, monotonic
	MRS   CNTVCT_EL0, R0
	MOVD  R0, ret+8(FP)
	RET
monotonic: // never taken: the callers above pass false
	MOVD ZR, ret+8(FP)
	RET

// func stubOrdered(mono bool) uint64
TEXT ·stubOrdered(SB), NOSPLIT|NOFRAME, $0-16
	MOVBU mono+0(FP), R1
	CBNZ  R1, monotonic
	ISB   $15
	MRS   CNTVCT_EL0, R0
	MOVD  R0, ret+8(FP)
	RET
monotonic: // never taken: the callers above pass false
	MOVD ZR, ret+8(FP)
	RET
