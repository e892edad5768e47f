//go:build !purego

#include "textflag.h"

// func unrolled() uint64
TEXT ·unrolled(SB), NOSPLIT|NOFRAME, $0-8
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MRS  CNTVCT_EL0, R0
	MOVD R0, ret+0(FP)
	RET

// func unrolledOrdered() uint64
TEXT ·unrolledOrdered(SB), NOSPLIT|NOFRAME, $0-8
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	ISB  $15 // the ordered read of Counter.Now: wait for every earlier instruction
	MRS  CNTVCT_EL0, R0
	MOVD R0, ret+0(FP)
	RET
