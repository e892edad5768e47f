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
