//go:build !purego

#include "textflag.h"

// func readStamp() uint64
TEXT ·readStamp(SB), NOSPLIT|NOFRAME, $0-8
	MRS  CNTVCT_EL0, R0
	MOVD R0, ret+0(FP)
	RET

// func readBegin() uint64
TEXT ·readBegin(SB), NOSPLIT|NOFRAME, $0-8
	ISB  $15 // let every earlier instruction finish, so the read cannot happen before them
	MRS  CNTVCT_EL0, R0
	ISB  $15 // let no later instruction start before the read
	MOVD R0, ret+0(FP)
	RET

// func readFrequency() uint64
TEXT ·readFrequency(SB), NOSPLIT|NOFRAME, $0-8
	MRS  CNTFRQ_EL0, R0
	MOVD R0, ret+0(FP)
	RET
