package counter_test

import (
	"runtime"
	"testing"

	"github.com/tickstamp/counter"
)

// A read is one way of taking a reading, named for the failure messages.
type read struct {
	name string
	n    int // reads in the monotonicity test
	f    func() counter.Tickstamp
}

// reads lists every read of a running clock the package offers, each through
// a Counter made by New and, for the marks that depend on it, through the
// zero Counter too. The raw clock, a system call a read, gets fewer.
func reads(t testing.TB) []read {
	c := counter.New(counter.Gigahertz())
	var zero counter.Counter
	n := 2_000_000
	if testing.Short() {
		n = 200_000
	}
	return []read{
		{"Now", n, c.Now},
		{"Begin", n, c.Begin},
		{"End", n, c.End},
		{"NowCPU", n, func() counter.Tickstamp { ts, _ := c.NowCPU(); return ts }},
		{"zero/Now", n, zero.Now},
		{"zero/End", n, zero.End},
		{"MonotonicClock", n, counter.MonotonicClock{}.Now},
		{"RawMonotonicClock", n / 20, counter.RawMonotonicClock{}.Now},
	}
}

// TestReadsNeverGoBack takes millions of readings of each kind on one
// goroutine and fails at the first one earlier than the one before it.
func TestReadsNeverGoBack(t *testing.T) {
	for _, r := range reads(t) {
		t.Run(r.name, func(t *testing.T) {
			prev := r.f()
			first := prev
			for i := range r.n {
				got := r.f()
				if d := got.Sub(prev); d < 0 {
					t.Fatalf("read %d: %v after %v, %v back; want no step back", i, got, prev, -d)
				}
				prev = got
			}
			t.Logf("%d reads over %v", r.n, prev.Sub(first))
		})
	}
}

// TestMixedReadsNeverGoBack interleaves the kinds of read of one Counter,
// which all read one counter, so that no kind is ahead of another.
func TestMixedReadsNeverGoBack(t *testing.T) {
	c := counter.New(counter.Gigahertz())
	prev := c.Now()
	for i := range 500_000 {
		var got [4]counter.Tickstamp
		got[0] = c.Now()
		got[1] = c.Begin()
		got[2] = c.End()
		got[3], _ = c.NowCPU()
		for k, ts := range got {
			if d := ts.Sub(prev); d < 0 {
				t.Fatalf("round %d, read %d: %v after %v; want no step back", i, k, ts, prev)
			}
			prev = ts
		}
	}
}

func TestReadsDoNotAllocate(t *testing.T) {
	var sink counter.Tickstamp
	for _, r := range reads(t) {
		t.Run(r.name, func(t *testing.T) {
			if got := testing.AllocsPerRun(1000, func() { sink = r.f() }); got != 0 {
				t.Fatalf("%v allocations a read; want 0", got)
			}
		})
	}
	c := counter.New(counter.Gigahertz())
	var cpu int
	if got := testing.AllocsPerRun(1000, func() { sink, cpu = c.NowCPU() }); got != 0 {
		t.Fatalf("NowCPU: %v allocations a read; want 0", got)
	}
	manual := counter.NewManualClock(1e6, counter.Gigahertz())
	if got := testing.AllocsPerRun(1000, func() { sink = manual.Now() }); got != 0 {
		t.Fatalf("ManualClock.Now: %v allocations a read; want 0", got)
	}
	var clk counter.Clock = c
	if got := testing.AllocsPerRun(1000, func() { sink = clk.Now() }); got != 0 {
		t.Fatalf("Clock.Now: %v allocations a read; want 0", got)
	}
	_, _ = sink, cpu
}

func TestNewKeepsRate(t *testing.T) {
	for _, tc := range []struct {
		name string
		rate string
	}{
		{"1 GHz", "1 GHz"},
		{"TSC", "2.3 GHz"},
		{"qemu", "62.5 MHz"},
		{"Apple", "24 MHz"},
		{"implausible", "1 Hz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := counter.ParseTickRate(tc.rate)
			if err != nil {
				t.Fatal(err)
			}
			if got := counter.New(r).Rate(); got != r {
				t.Fatalf("New(%v).Rate() = %v; want %v", r, got, r)
			}
		})
	}
	if got := counter.New(counter.TickRate{}).Rate(); got != (counter.TickRate{}) {
		t.Fatalf("New(zero rate).Rate() = %v; want the zero rate, unchecked", got)
	}
	if got := (counter.Counter{}).Rate(); got != (counter.TickRate{}) {
		t.Fatalf("Counter{}.Rate() = %v; want the zero rate", got)
	}
}

// TestNowCPURange checks that NowCPU reports -1 or a CPU number that fits
// TSC_AUX's 12 bits, and -1 everywhere but Linux on amd64.
func TestNowCPURange(t *testing.T) {
	c := counter.New(counter.Gigahertz())
	_, cpu := c.NowCPU()
	t.Logf("NowCPU on %s/%s: CPU %d", runtime.GOOS, runtime.GOARCH, cpu)
	if cpu < -1 || cpu > 0xfff {
		t.Fatalf("NowCPU CPU = %v; want -1 or 0 to 4095", cpu)
	}
	if (runtime.GOOS != "linux" || runtime.GOARCH != "amd64") && cpu != -1 {
		t.Fatalf("NowCPU CPU = %v on %s/%s; want -1", cpu, runtime.GOOS, runtime.GOARCH)
	}
}
