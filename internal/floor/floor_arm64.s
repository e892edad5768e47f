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
