package rawclock_test

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

	"github.com/tickstamp/counter/internal/race"
	"github.com/tickstamp/counter/internal/rawclock"
)

// Read on Linux, whichever it is here (see Kind): through the vDSO, or by
// the system call.

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
	if rawclock.Open(false).Kind() != "vdso" {
		n /= 10
	}
	if race.Enabled {
		n /= 10
	}
	return n
}

// TestVdsoConcurrentProfiled reads the raw clock by Read from 64 fresh
// goroutines at once, each a few frames deep on its first, small stack,
// under a CPU profile at 10 kHz and the scheduler's asynchronous
// preemption: the signals land in the read, the stacks grow in it. Each
// goroutine's readings must never go back, and every 256th must lie between
// two readings of the system call taken around it.
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
	t.Logf("%d reads in all by %s", per*goroutines, rawclock.Open(false).Kind())
	if profiling {
		pprof.StopCPUProfile()
		// The runtime records a sample whose PC is in the vDSO as
		// runtime._VDSO: its name in the profile says signals landed there.
		// Only a long run is sure to be sampled there: CI's 10 M reads.
		if inVDSO := profileNames(t, &prof, "runtime._VDSO"); rawclock.Open(false).Kind() == "vdso" && total >= 4_000_000 && !inVDSO {
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
	last := raw.Read()
	for i := range n {
		if i%256 == 0 {
			s0 := rawclock.Syscall()
			v := raw.Read()
			s1 := rawclock.Syscall()
			if s0 < last || v < s0 || s1 < v {
				return fmt.Errorf("read %d: the system call read %d, then Read %d, then the system call %d, after %d", i, s0, v, s1, last)
			}
			last = s1
			continue
		}
		v := raw.Read()
		if v < last {
			return fmt.Errorf("read %d: %d after %d: the clock went back %d ns", i, v, last, last-v)
		}
		last = v
	}
	return nil
}

// TestVdsoAgreesWithSyscall brackets Read between two reads by the system
// call, the same clock read another way: it must lie between them, every
// time.
func TestVdsoAgreesWithSyscall(t *testing.T) {
	n := 20_000
	if testing.Short() {
		n = 2_000
	}
	for i := range n {
		s0 := rawclock.Syscall()
		v := raw.Read()
		s1 := rawclock.Syscall()
		if v < s0 || s1 < v {
			t.Fatalf("read %d: the system call read %d, then Read %d (%+d ns), then the system call %d", i, s0, v, v-s0, s1)
		}
	}
	t.Logf("%d reads by %s, each between two of the system call", n, rawclock.Open(false).Kind())
}

// raw is the tests' read of the raw clock, as the brackets open it on a
// thread where RDTSC does not fault.
var raw = rawclock.Open(false)
