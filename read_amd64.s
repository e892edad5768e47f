//go:build !purego

#include "textflag.h"

// func readStamp() uint64
TEXT ·readStamp(SB), NOSPLIT|NOFRAME, $0-8
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET

// func readBegin() uint64
TEXT ·readBegin(SB), NOSPLIT|NOFRAME, $0-8
	LFENCE // let every earlier instruction finish before the counter is read
	RDTSC
	LFENCE // let no later instruction start before the counter is read
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET

// func readEnd() uint64
TEXT ·readEnd(SB), NOSPLIT|NOFRAME, $0-8
	CMPL ·hasRDTSCP(SB), $0
	JEQ  fenced
	RDTSCP // waits by itself for every earlier instruction; CX gets TSC_AUX, unused
	JMP  read
fenced:
	LFENCE // no RDTSCP on this CPU: let every earlier instruction finish here instead
	RDTSC
read:
	LFENCE // neither RDTSC nor RDTSCP holds later instructions back: this does
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET

// func readCPU() (ticks Tickstamp, cpu int)
TEXT ·readCPU(SB), NOSPLIT|NOFRAME, $0-16
	CMPL ·cpuInAux(SB), $0
	JEQ  plain
	RDTSCP
	ANDQ $0xfff, CX // Linux's TSC_AUX: the CPU in the low 12 bits, the NUMA node above
	MOVQ CX, cpu+8(FP)
	JMP  read
plain:
	RDTSC
	MOVQ $-1, cpu+8(FP)
read:
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ticks+0(FP)
	RET

// func cpuid(leaf, subleaf uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT|NOFRAME, $0-24
	MOVL leaf+0(FP), AX
	MOVL subleaf+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET
