package rawclock_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/tickstamp/counter/internal/rawclock"
)

// TestHave checks that Have is true exactly on Linux and macOS, and that
// Kind and Cost say so where it is false.
func TestHave(t *testing.T) {
	want := runtime.GOOS == "linux" || runtime.GOOS == "darwin"
	if rawclock.Have != want {
		t.Fatalf("Have = %v on %s; want %v", rawclock.Have, runtime.GOOS, want)
	}
	kind, cost := rawclock.Kind(nil), rawclock.Cost(nil)
	switch {
	case !want && (kind != "runtime" || cost != 0):
		t.Errorf("Kind() = %q, Cost() = %v without a raw clock; want \"runtime\" and 0", kind, cost)
	case want && kind != "vdso" && kind != "system call":
		t.Errorf("Kind() = %q; want \"vdso\" or \"system call\"", kind)
	}
}

// TestClockAgreesWithTime times one sleep by Syscall, by Read and by
// time.Since: the raw clock is never slewed, the runtime's monotonic one by
// at most 500 ppm, so over 50 ms they differ by at most 25 µs plus the
// reads; the bound allows 2 ms for a loaded machine. Neither read may go
// back across the sleep.
func TestClockAgreesWithTime(t *testing.T) {
	t0 := time.Now()
	s0, r0 := rawclock.Syscall(), rawclock.Read(nil)
	time.Sleep(50 * time.Millisecond)
	r1, s1 := rawclock.Read(nil), rawclock.Syscall()
	since := time.Since(t0)
	for name, d := range map[string]time.Duration{"Syscall": time.Duration(s1 - s0), "Read": time.Duration(r1 - r0)} {
		if d < 0 || since-d < -2*time.Millisecond || since-d > 2*time.Millisecond {
			t.Errorf("%s spans %v across a 50 ms sleep that time.Since spans %v; want them within 2 ms", name, d, since)
		}
	}
}

// TestReadAllocatesNothing checks that Read, and the faults check it is
// given, make no allocation once settled.
func TestReadAllocatesNothing(t *testing.T) {
	faults := func() bool { return false }
	rawclock.Read(faults)
	if n := testing.AllocsPerRun(1000, func() { rawclock.Read(faults) }); n != 0 {
		t.Errorf("Read allocates %v times a call; want 0", n)
	}
}
