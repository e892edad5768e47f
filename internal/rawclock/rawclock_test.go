package rawclock_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/tickstamp/counter/internal/rawclock"
)

// TestHave checks that Have is true exactly on Linux and macOS, and that
// Kind says so where it is false.
func TestHave(t *testing.T) {
	want := runtime.GOOS == "linux" || runtime.GOOS == "darwin"
	if rawclock.Have != want {
		t.Fatalf("Have = %v on %s; want %v", rawclock.Have, runtime.GOOS, want)
	}
	c := rawclock.Open(false)
	kind := c.Kind()
	switch {
	case !want && kind != "runtime":
		t.Errorf("Kind() = %q without a raw clock; want \"runtime\"", kind)
	case want && kind != "vdso" && kind != "system call":
		t.Errorf("Kind() = %q; want \"vdso\" or \"system call\"", kind)
	}
}

// TestClockAgreesWithTime times one sleep by Syscall, by Read and by
// time.Since, the runtime's monotonic clock, which a time daemon slews by
// at most 500 ppm and the raw clock not at all. The raw reads lie inside
// time.Since's span and around the sleep, so each raw span must lie between
// the sleep less 500 ppm of it and time.Since's span plus 500 ppm of it
// (and a microsecond of rounding): bounds a loaded machine meets, however
// long the reads are held up.
func TestClockAgreesWithTime(t *testing.T) {
	const sleep = 50 * time.Millisecond
	t0 := time.Now()
	c := rawclock.Open(false)
	s0, r0 := rawclock.Syscall(), c.Read()
	time.Sleep(sleep)
	r1, s1 := c.Read(), rawclock.Syscall()
	since := time.Since(t0)
	lo, hi := sleep-sleep/2000, since+since/2000+time.Microsecond
	for name, d := range map[string]time.Duration{"Syscall": time.Duration(s1 - s0), "Read": time.Duration(r1 - r0)} {
		if d < lo || d > hi {
			t.Errorf("%s spans %v across a %v sleep that time.Since spans %v; want %v to %v", name, d, sleep, since, lo, hi)
		}
	}
}

// TestReadAllocatesNothing checks that Read makes no allocation, nor Open
// once the vDSO has been looked up.
func TestReadAllocatesNothing(t *testing.T) {
	c := rawclock.Open(false)
	if n := testing.AllocsPerRun(1000, func() { c.Read() }); n != 0 {
		t.Errorf("Read allocates %v times a call; want 0", n)
	}
	for _, faults := range []bool{false, true} {
		if n := testing.AllocsPerRun(1000, func() { rawclock.Open(faults).Read() }); n != 0 {
			t.Errorf("Open(%v) allocates %v times a call; want 0", faults, n)
		}
	}
}

// TestOpenFaulting checks that a Clock opened for a thread where RDTSC
// faults reads by the system call, and says so, whatever the vDSO offers.
func TestOpenFaulting(t *testing.T) {
	c := rawclock.Open(true)
	if k := c.Kind(); rawclock.Have && k != "system call" {
		t.Errorf("Kind() = %q for a faulting thread; want \"system call\"", k)
	}
	s0 := rawclock.Syscall()
	v := c.Read()
	if s1 := rawclock.Syscall(); rawclock.Have && (v < s0 || s1 < v) {
		t.Errorf("Read() = %d, not between the system call's %d and %d", v, s0, s1)
	}
}
