package counter_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tickstamp/counter"
)

// The brackets' read of the raw clock on Linux, whichever it is here (see
// counter.RawReadKind): through the vDSO, or by the system call.

// vdsoCalls returns how many reads TestVdsoConcurrentProfiled makes in
// all: COUNTER_VDSO_CALLS where it is set (CI sets 10,000,000), else a count
// that keeps the test well under a second, a tenth of it for the system call
// and again for the race detector.
func vdsoCalls(t *testing.T) int {
	if s := os.Getenv("COUNTER_VDSO_CALLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("COUNTER_VDSO_CALLS=%q: want a positive count", s)
		}
		return n
	}
	n := 1_000_000
	if counter.RawReadKind() != "vdso" {
		n /= 10
	}
	if raceEnabled {
		n /= 10
	}
	return n
}

// TestVdsoConcurrentProfiled reads the raw clock as the brackets do from 64
// fresh goroutines at once, each a few frames deep on its first, small
// stack, under a CPU profile at 10 kHz and the scheduler's asynchronous
// preemption: the signals land in the read, the stacks grow in it. Each
// goroutine's readings must never go back, and every 256th must lie
// between two readings of the system call taken around it.
func TestVdsoConcurrentProfiled(t *testing.T) {
	total := vdsoCalls(t)
	runtime.SetCPUProfileRate(10_000) // before StartCPUProfile, whose own rate it then keeps (with a warning)
	var prof bytes.Buffer
	profiling := pprof.StartCPUProfile(&prof) == nil
	if !profiling {
		t.Log("a CPU profile is running already: the signals come from it")
	}
	const goroutines = 64
	per := max(1, total/goroutines)
	errs := make([]error, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() { errs[g] = readDeep(g%5, per) })
	}
	wg.Wait()
	for g, err := range errs {
		if err != nil {
			t.Errorf("goroutine %d: %v", g, err)
		}
	}
	t.Logf("%d reads in all by %s", per*goroutines, counter.RawReadKind())
	if profiling {
		pprof.StopCPUProfile()
		// The runtime records a sample whose PC is in the vDSO as
		// runtime._VDSO: its name in the profile says signals landed there.
		// Only a long run is sure to be sampled there: CI's 10 M reads.
		if inVDSO := profileNames(t, &prof, "runtime._VDSO"); counter.RawReadKind() == "vdso" && total >= 4_000_000 && !inVDSO {
			t.Error("no profiling signal landed in the vDSO")
		}
	}
}

// profileNames reports whether the gzipped profile in prof names fn.
func profileNames(t *testing.T, prof *bytes.Buffer, fn string) bool {
	t.Helper()
	zr, err := gzip.NewReader(prof)
	if err != nil {
		t.Fatalf("the CPU profile: %v", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("the CPU profile: %v", err)
	}
	return bytes.Contains(raw, []byte(fn))
}

// readDeep calls itself depth frames deep, then makes n reads as
// TestVdsoConcurrentProfiled says.
//
//go:noinline
func readDeep(depth, n int) error {
	if depth > 0 {
		return readDeep(depth-1, n)
	}
	last := counter.BracketNanos()
	for i := range n {
		if i%256 == 0 {
			s0 := counter.SyscallNanos()
			v := counter.BracketNanos()
			s1 := counter.SyscallNanos()
			if s0 < last || v < s0 || s1 < v {
				return fmt.Errorf("read %d: the system call read %d, then the brackets' read %d, then the system call %d, after %d", i, s0, v, s1, last)
			}
			last = s1
			continue
		}
		v := counter.BracketNanos()
		if v < last {
			return fmt.Errorf("read %d: %d after %d: the clock went back %d ns", i, v, last, last-v)
		}
		last = v
	}
	return nil
}

// TestVdsoAgreesWithSyscall brackets the brackets' read of the raw clock
// between two reads by the system call, the same clock read another way: it
// must lie between them, every time.
func TestVdsoAgreesWithSyscall(t *testing.T) {
	n := 20_000
	if testing.Short() {
		n = 2_000
	}
	for i := range n {
		s0 := counter.SyscallNanos()
		v := counter.BracketNanos()
		s1 := counter.SyscallNanos()
		if v < s0 || s1 < v {
			t.Fatalf("read %d: the system call read %d, then the brackets' read %d (%+d ns), then the system call %d", i, s0, v, v-s0, s1)
		}
	}
	t.Logf("%d reads by %s, each between two of the system call", n, counter.RawReadKind())
}

// TestVdsoBracketWidth logs the narrowest bracket, in ticks of the counter,
// of the brackets' read and of the system call: the tightest of 64 brackets,
// the best of 16 tries. Where the brackets read through the vDSO, theirs
// must be the narrower.
func TestVdsoBracketWidth(t *testing.T) {
	kind := counter.RawReadKind()
	if kind == "runtime" {
		t.Skip("no raw clock here")
	}
	best := func(raw func() int64) counter.Tickdelta {
		w := counter.TightestBracket(raw)
		for range 15 {
			if x := counter.TightestBracket(raw); x >= 0 && (w < 0 || x < w) {
				w = x
			}
		}
		return w
	}
	bracket, syscall := best(counter.BracketNanos), best(counter.SyscallNanos)
	t.Logf("the tightest bracket of 64: %d ticks reading by %s, %d by the system call", bracket, kind, syscall)
	if kind == "vdso" && bracket >= syscall {
		t.Errorf("the vDSO's bracket (%d ticks) is no narrower than the system call's (%d)", bracket, syscall)
	}
}

// The raw clock's reads side by side with time.Now (BenchmarkTimeNow, in
// bench_read_test.go):
//
//	go test -run '^$' -bench 'RawClock|TimeNow' -count 5 .
//
// Each also reports the tightest of 64 brackets of its read, in ticks of the
// counter, as ticks/bracket.

// BenchmarkRawClockVDSO is the brackets' read where it goes through the
// vDSO.
func BenchmarkRawClockVDSO(b *testing.B) {
	if counter.RawReadKind() != "vdso" {
		b.Skip("the brackets read by " + counter.RawReadKind() + " here")
	}
	benchRaw(b, counter.BracketNanos)
}

// BenchmarkRawClockSyscall is the system call of RawMonotonicClock, the
// brackets' read where there is no vDSO.
func BenchmarkRawClockSyscall(b *testing.B) { benchRaw(b, counter.SyscallNanos) }

func benchRaw(b *testing.B, read func() int64) {
	width := counter.TightestBracket(read)
	b.ReportAllocs()
	var acc int64
	for b.Loop() {
		acc += read()
	}
	sinkInt += int(acc)
	b.ReportMetric(float64(width), "ticks/bracket")
}

// TestRawReadCost checks that RawReadCost measures the brackets' read: a
// positive cost, and where the brackets read through the vDSO, less than
// the system call's.
func TestRawReadCost(t *testing.T) {
	cost := counter.RawReadCost()
	if cost <= 0 {
		t.Fatalf("RawReadCost() = %v; want a positive cost", cost)
	}
	var syscall counter.RawMonotonicClock
	t0 := time.Now()
	for range 64 {
		syscall.Now()
	}
	sys := time.Since(t0) / 64
	t.Logf("brackets read by %s at %v; the system call %v", counter.RawReadKind(), cost, sys)
	if counter.RawReadKind() == "vdso" && cost >= sys {
		t.Errorf("the vDSO read costs %v, no less than the system call's %v", cost, sys)
	}
}
