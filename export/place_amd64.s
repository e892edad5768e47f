//go:build !purego

#include "textflag.h"

// Registers: AX a count, BX the word's marks left, CX the shift, DX the
// bucket's index k, SI and DI scratch, R8 the index of the word's first
// bucket, R9 in's address less base counts (so that k indexes it), R10
// rows, R11 counts, R12 the total, R13 the word's index. first and ncounts
// stay in the frame: they are read as operands, not loaded.

// func placeWords(marks *uint64, in *uint32, counts *uint64, rows *[memoRows]*[memoRowBuckets]int32, w, end, base int, shift uint, first, ncounts int, sum uint64) (stop int, total uint64)
TEXT ·placeWords(SB), NOSPLIT|NOFRAME, $0-104
	MOVQ in+8(FP), R9
	MOVQ base+48(FP), DX
	SHLQ $2, DX
	SUBQ DX, R9
	MOVQ rows+24(FP), R10
	MOVQ counts+16(FP), R11
	MOVQ shift+56(FP), CX
	MOVQ sum+80(FP), R12
	MOVQ w+32(FP), R13

word:
	CMPQ R13, end+40(FP)
	JGE  done
	MOVQ marks+0(FP), DI
	MOVQ (DI)(R13*8), BX
	TESTQ BX, BX
	JZ   nextword
	MOVQ R13, R8
	SHLQ $6, R8
	ADDQ base+48(FP), R8

bit:
	BSFQ  BX, DX
	ADDQ  R8, DX
	MOVL  (R9)(DX*4), AX
	TESTL AX, AX
	JZ    nextbit
	MOVQ  DX, SI
	SHRQ  $7, SI
	MOVQ  (R10)(SI*8), SI // the bucket's row of places
	TESTQ SI, SI
	JZ    stop            // not worked out yet
	MOVQ  DX, DI
	ANDQ  $127, DI
	MOVLQSX (SI)(DI*4), SI
	SARQ  CX, SI
	SUBQ  first+64(FP), SI
	CMPQ  SI, ncounts+72(FP)
	JAE   stop            // the slot is outside counts
	ADDQ  AX, (R11)(SI*8)
	MOVL  $0, (R9)(DX*4)
	ADDQ  AX, R12

nextbit:
	LEAQ -1(BX), DI
	ANDQ DI, BX
	JNZ  bit
	MOVQ marks+0(FP), DI
	MOVQ $0, (DI)(R13*8)

nextword:
	INCQ R13
	JMP  word

stop:
	MOVQ marks+0(FP), DI
	MOVQ BX, (DI)(R13*8)

done:
	MOVQ R13, stop+88(FP)
	MOVQ R12, total+96(FP)
	RET
