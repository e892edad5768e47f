//go:build !purego

#include "textflag.h"

// Each function executes its read's whole sequence Reads times, as the
// counter's stub executes it once: the read, then the reading's halves
// joined (SHLQ, ORQ). Each reading is then added into BX, as a caller that
// uses it would, which also keeps the joins from going unused. The last
// reading is returned.

// func unrolled() uint64
TEXT ·unrolled(SB), NOSPLIT|NOFRAME, $0-8
	XORQ BX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	MOVQ AX, ret+0(FP)
	RET

// func unrolledOrdered() uint64
TEXT ·unrolledOrdered(SB), NOSPLIT|NOFRAME, $0-8
	XORQ BX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	LFENCE // the ordered read of Counter.Now: wait for every earlier instruction
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	MOVQ AX, ret+0(FP)
	RET

// The called floors. Each calls a copy of a stub of the counter package
// (stampUnordered, stampNow in read_amd64.s) Reads times, as the Go compiler
// calls an assembly function: the mono argument stored to the stack, the
// reading read back from it after the call (ABI0, the only convention an
// assembly function outside the standard library may have), and added into
// BX. They hold no Go code, so what they cost above the unrolled floors is
// the call and its stack round trip alone. The last reading is returned.

// func called() uint64
TEXT ·called(SB), NOSPLIT, $16-8
	XORQ BX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubUnordered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVQ AX, ret+0(FP)
	RET

// func calledOrdered() uint64
TEXT ·calledOrdered(SB), NOSPLIT, $16-8
	XORQ BX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubOrdered(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVQ AX, ret+0(FP)
	RET

// func stubUnordered(mono bool) uint64
TEXT ·stubUnordered(SB), NOSPLIT|NOFRAME, $0-16
	CMPB mono+0(FP), $0
	JNE  monotonic
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+8(FP)
	RET
monotonic: // never taken: the callers above pass false
	MOVQ $0, ret+8(FP)
	RET

// func stubOrdered(mono bool) uint64
TEXT ·stubOrdered(SB), NOSPLIT|NOFRAME, $0-16
	CMPB mono+0(FP), $0
	JNE  monotonic
	LFENCE
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+8(FP)
	RET
monotonic: // never taken: the callers above pass false
	MOVQ $0, ret+8(FP)
	RET

// The RDTSCP floors: the ordered read of Counter.Now on a CPU that has
// RDTSCP, unrolled as above and called as above. CX gets TSC_AUX, unused.

// func unrolledRDTSCP() uint64
TEXT ·unrolledRDTSCP(SB), NOSPLIT|NOFRAME, $0-8
	XORQ BX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	ADDQ AX, BX
	MOVQ AX, ret+0(FP)
	RET

// func calledRDTSCP() uint64
TEXT ·calledRDTSCP(SB), NOSPLIT, $16-8
	XORQ BX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVB $0, 0(SP) // mono, false: read the counter
	CALL ·stubRDTSCP(SB)
	MOVQ 8(SP), AX
	ADDQ AX, BX
	MOVQ AX, ret+0(FP)
	RET

// func stubRDTSCP(mono bool) uint64
TEXT ·stubRDTSCP(SB), NOSPLIT|NOFRAME, $0-16
	CMPB mono+0(FP), $0
	JNE  monotonic
	CMPL ·hasRDTSCP(SB), $0
	JEQ  monotonic
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+8(FP)
	RET
monotonic: // never taken: the callers above pass false, and run only where hasRDTSCP is set
	MOVQ $0, ret+8(FP)
	RET
