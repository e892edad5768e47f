//go:build !purego

#include "textflag.h"

// Every read takes mono, the Counter's flag for the runtime's
// monotonic clock (see Monotonic). Where it is set the stub jumps to a Go
// function of the same frame, which reads nanotime and returns to the
// caller, and never executes RDTSC, which may fault or trap where the
// fallback is in use. The counter's path pays one predictable compare and
// branch; BENCHMARKS.md (Reads) gives what it was measured to cost.

// func stampNow(mono bool) uint64
TEXT ·stampNow(SB), NOSPLIT|NOFRAME, $0-16
	CMPB mono+0(FP), $0
	JNE  monotonic
	CMPL ·hasRDTSCP(SB), $0
	JEQ  fenced
	RDTSCP // waits by itself for every earlier instruction, loads included; CX gets TSC_AUX, unused
	SHLQ   $32, DX
	ORQ    DX, AX
	MOVQ   AX, ret+8(FP)
	RET
fenced:
	JMP ·stampFenced(SB)
monotonic:
	JMP ·monoStamp(SB)

// func stampFenced(mono bool) uint64
TEXT ·stampFenced(SB), NOSPLIT|NOFRAME, $0-16
	LFENCE // wait for every earlier instruction, loads included, so the read cannot precede them
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+8(FP)
	RET

// func stampUnordered(mono bool) uint64
TEXT ·stampUnordered(SB), NOSPLIT|NOFRAME, $0-16
	CMPB mono+0(FP), $0
	JNE  monotonic
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+8(FP)
	RET
monotonic:
	JMP ·monoStamp(SB)

// func stampBegin(mono bool) uint64
TEXT ·stampBegin(SB), NOSPLIT|NOFRAME, $0-16
	CMPB mono+0(FP), $0
	JNE  monotonic
	LFENCE // let every earlier instruction finish before the counter is read
	RDTSC
	LFENCE // let no later instruction start before the counter is read
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+8(FP)
	RET
monotonic:
	JMP ·monoStamp(SB)

// func stampEnd(mono bool) uint64
TEXT ·stampEnd(SB), NOSPLIT|NOFRAME, $0-16
	CMPB mono+0(FP), $0
	JNE  monotonic
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
	MOVQ AX, ret+8(FP)
	RET
monotonic:
	JMP ·monoStamp(SB)

// func stampCPU(mono bool) (ticks Tickstamp, cpu int)
TEXT ·stampCPU(SB), NOSPLIT|NOFRAME, $0-24
	CMPB mono+0(FP), $0
	JNE  monotonic
	CMPL ·cpuInAux(SB), $0
	JEQ  fenced
	RDTSCP // waits by itself for every earlier instruction, loads included
	ANDQ $0xfff, CX // Linux's TSC_AUX: the CPU in the low 12 bits, the NUMA node above
	MOVQ CX, cpu+16(FP)
	JMP  read
fenced:
	LFENCE // no CPU to report: the ordered read of Now, so NowCPU is never less ordered
	RDTSC
	MOVQ $-1, cpu+16(FP)
read:
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ticks+8(FP)
	RET
monotonic:
	JMP ·monoStampCPU(SB)
