package main

import "slices"

// This file is the generator's one table: each architecture's functions, and
// each read's instruction sequence as the counter package's stub in
// read_GOARCH.s executes it. Instructions are written as the test reads the
// root's files: one space between fields, no alignment; the generator aligns
// them when it writes.

// A read is one of the counter package's reads, as its stub executes it on
// the counter's path: mono false and, where the stub tests a flag, the flag
// set. On that path the stub runs straight from its entry to its first RET.
type read struct {
	// unrolled, called and stub name the package's functions for this read:
	// the sequence unrolled, the stub's copy called, and that copy.
	unrolled, called, stub string
	// root is the counter package's stub that holds the read.
	root string
	// guard is what root executes before the read on the counter's path:
	// its checks of mono and of any flag, each a compare and a branch not
	// taken.
	guard []string
	// seq is the read's sequence: what the unrolled read repeats, and what
	// the stub and its copy execute between the guard and the store of the
	// reading.
	seq []string
	// never says why the copy's monotonic branch is never taken.
	never string
}

// A section is a run of functions of one kind, one for each of its reads,
// after a comment that introduces them, if any.
type section struct {
	comment string
	kind    kind
	reads   []*read
}

type kind int

const (
	unrolledKind kind = iota // the read's sequence repeated
	calledKind               // a call of the stub's copy repeated
	stubKind                 // the copy of the counter's stub
)

// An arch is what the generator writes into bare_GOARCH.s.
type arch struct {
	goarch   string
	sections []section
	// zero clears the register that the unrolled reads add readings into,
	// and add adds the reading into it; callZero and callAdd are the same
	// for the called reads.
	zero, add, callZero, callAdd string
	// ret returns the last reading from a function.
	ret string
	// callFrame is the called reads' frame: room for the stub's argument
	// and result.
	callFrame string
	// storeArg and loadResult surround a called read's CALL of a stub as
	// compiled Go surrounds it (ABI0): the argument stored to the stack, the
	// reading loaded from it.
	storeArg, loadResult string
	// monoCheck is every stub's test of mono, store returns the reading from
	// a stub, and storeZero is the copy's monotonic branch.
	monoCheck        []string
	store, storeZero string
}

// The reads of amd64, in read_amd64.s: the bare read of NowUnordered, the
// ordered read of Now where the CPU has no RDTSCP, and Now's read where it
// has.
var (
	amd64MonoCheck = []string{"CMPB mono+0(FP), $0", "JNE monotonic"}

	amd64Unordered = &read{
		unrolled: "unrolled", called: "called", stub: "stubUnordered",
		root:  "stampUnordered",
		guard: amd64MonoCheck,
		seq:   []string{"RDTSC", "SHLQ $32, DX", "ORQ DX, AX"},
		never: "the callers above pass false",
	}
	// stampNow checks mono and jumps here where the CPU has no RDTSCP.
	amd64Ordered = &read{
		unrolled: "unrolledOrdered", called: "calledOrdered", stub: "stubOrdered",
		root: "stampFenced",
		seq: []string{
			"LFENCE // the ordered read of Counter.Now: wait for every earlier instruction",
			"RDTSC", "SHLQ $32, DX", "ORQ DX, AX",
		},
		never: "the callers above pass false",
	}
	amd64RDTSCP = &read{
		unrolled: "unrolledRDTSCP", called: "calledRDTSCP", stub: "stubRDTSCP",
		root:  "stampNow",
		guard: slices.Concat(amd64MonoCheck, []string{"CMPL ·hasRDTSCP(SB), $0", "JEQ fenced"}),
		seq:   []string{"RDTSCP", "SHLQ $32, DX", "ORQ DX, AX"},
		never: "the callers above pass false, and run only where hasRDTSCP is set",
	}
)

var amd64 = &arch{
	goarch: "amd64",
	sections: []section{
		{`Each function executes its read's whole sequence Reads times, as the
counter's stub executes it once: the read, then the reading's halves
joined (SHLQ, ORQ). Each reading is then added into BX, as a caller that
uses it would, which also keeps the joins from going unused. The last
reading is returned.`, unrolledKind, []*read{amd64Unordered, amd64Ordered}},
		{`The called reads. Each calls a copy of a stub of the counter package
(stampUnordered, stampNow in read_amd64.s) Reads times, as the Go compiler
calls an assembly function: the mono argument stored to the stack, the
reading read back from it after the call (ABI0, the only convention an
assembly function outside the standard library may have), and added into
BX. They hold no Go code, so what they cost above the unrolled reads is
the call and its stack round trip alone. The last reading is returned.`, calledKind, []*read{amd64Unordered, amd64Ordered}},
		{"", stubKind, []*read{amd64Unordered, amd64Ordered}},
		{`The RDTSCP reads: the ordered read of Counter.Now on a CPU that has
RDTSCP, unrolled as above and called as above. CX gets TSC_AUX, unused.`, unrolledKind, []*read{amd64RDTSCP}},
		{"", calledKind, []*read{amd64RDTSCP}},
		{"", stubKind, []*read{amd64RDTSCP}},
	},
	zero: "XORQ BX, BX", add: "ADDQ AX, BX",
	callZero: "XORQ BX, BX", callAdd: "ADDQ AX, BX",
	ret:        "MOVQ AX, ret+0(FP)",
	callFrame:  "$16-8",
	storeArg:   "MOVB $0, 0(SP) // mono, false: read the counter",
	loadResult: "MOVQ 8(SP), AX",
	monoCheck:  amd64MonoCheck,
	store:      "MOVQ AX, ret+8(FP)",
	storeZero:  "MOVQ $0, ret+8(FP)",
}

// The reads of arm64, in read_arm64.s: the bare read of NowUnordered and the
// ordered read of Now.
var (
	arm64MonoCheck = []string{"MOVBU mono+0(FP), R1", "CBNZ R1, monotonic"}

	arm64Unordered = &read{
		unrolled: "unrolled", called: "called", stub: "stubUnordered",
		root:  "stampUnordered",
		guard: arm64MonoCheck,
		seq:   []string{"MRS CNTVCT_EL0, R0"},
		never: "the callers above pass false",
	}
	arm64Ordered = &read{
		unrolled: "unrolledOrdered", called: "calledOrdered", stub: "stubOrdered",
		root:  "stampNow",
		guard: arm64MonoCheck,
		seq: []string{
			"ISB $15 // the ordered read of Counter.Now: wait for every earlier instruction",
			"MRS CNTVCT_EL0, R0",
		},
		never: "the callers above pass false",
	}
)

var arm64 = &arch{
	goarch: "arm64",
	sections: []section{
		{`Each function executes its read's whole sequence Reads times, as the
counter's stub executes it once, and adds each reading into R1, as a
caller that uses it would. The last reading is returned.`, unrolledKind, []*read{arm64Unordered, arm64Ordered}},
		{`The called reads. Each calls a copy of a stub of the counter package
(stampUnordered, stampNow in read_arm64.s) Reads times, as the Go compiler
calls an assembly function: the mono argument stored to the stack, the
reading read back from it after the call (ABI0, the only convention an
assembly function outside the standard library may have), and added into
R2. They hold no Go code, so what they cost above the unrolled reads is
the call and its stack round trip alone. The last reading is returned.`, calledKind, []*read{arm64Unordered, arm64Ordered}},
		{"", stubKind, []*read{arm64Unordered, arm64Ordered}},
	},
	zero: "MOVD $0, R1", add: "ADD R0, R1, R1",
	callZero: "MOVD $0, R2", callAdd: "ADD R0, R2, R2",
	ret:        "MOVD R0, ret+0(FP)",
	callFrame:  "$24-8",
	storeArg:   "MOVB ZR, 8(RSP) // mono, false: read the counter",
	loadResult: "MOVD 16(RSP), R0",
	monoCheck:  arm64MonoCheck,
	store:      "MOVD R0, ret+8(FP)",
	storeZero:  "MOVD ZR, ret+8(FP)",
}

// arches are the architectures the generator writes, each to its file.
var arches = []*arch{amd64, arm64}
