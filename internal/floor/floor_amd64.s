//go:build !purego

#include "textflag.h"

// func unrolled() uint64
TEXT ·unrolled(SB), NOSPLIT|NOFRAME, $0-8
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET

// func unrolledOrdered() uint64
TEXT ·unrolledOrdered(SB), NOSPLIT|NOFRAME, $0-8
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET
