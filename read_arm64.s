//go:build !purego

#include "textflag.h"

// Every read takes mono, the Counter's flag for the runtime's monotonic
// clock (see Monotonic). Where it is set the stub jumps to a Go function of
// the same frame, which reads nanotime and returns to the caller; the
// counter's path pays one predictable compare and branch.

// func stampNow(mono bool) uint64
TEXT ·stampNow(SB), NOSPLIT|NOFRAME, $0-16
	MOVBU mono+0(FP), R1
	CBNZ  R1, monotonic
	ISB   $15 // let every earlier instruction finish, loads included, so the read cannot precede them
	MRS   CNTVCT_EL0, R0
	MOVD  R0, ret+8(FP)
	RET
monotonic:
	JMP ·monoStamp(SB)

// func stampUnordered(mono bool) uint64
TEXT ·stampUnordered(SB), NOSPLIT|NOFRAME, $0-16
	MOVBU mono+0(FP), R1
	CBNZ  R1, monotonic
	MRS   CNTVCT_EL0, R0
	MOVD  R0, ret+8(FP)
	RET
monotonic:
	JMP ·monoStamp(SB)

// func stampBegin(mono bool) uint64
TEXT ·stampBegin(SB), NOSPLIT|NOFRAME, $0-16
	MOVBU mono+0(FP), R1
	CBNZ  R1, monotonic
	ISB   $15 // let every earlier instruction finish, so the read cannot happen before them
	MRS   CNTVCT_EL0, R0
	ISB   $15 // let no later instruction start before the read
	MOVD  R0, ret+8(FP)
	RET
monotonic:
	JMP ·monoStamp(SB)

// func stampCPU(mono bool) (ticks Tickstamp, cpu int)
TEXT ·stampCPU(SB), NOSPLIT|NOFRAME, $0-24
	MOVBU mono+0(FP), R1
	CBNZ  R1, monotonic
	ISB   $15 // the ordered read of Now: the generic timer names no CPU
	MRS   CNTVCT_EL0, R0
	MOVD  R0, ticks+8(FP)
	MOVD  $-1, R0
	MOVD  R0, cpu+16(FP)
	RET
monotonic:
	JMP ·monoStampCPU(SB)

// func readFrequency() uint64
TEXT ·readFrequency(SB), NOSPLIT|NOFRAME, $0-8
	MRS  CNTFRQ_EL0, R0
	MOVD R0, ret+0(FP)
	RET
