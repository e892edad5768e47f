package counter_test

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/tickstamp/counter"
)

// A read is one way of taking a reading, named for the failure messages.
type read struct {
	name string
	n    int // reads in the monotonicity test
	f    func() counter.Tickstamp
}

// reads lists every read of a running clock the package offers, each through
// a Counter made by New and one made by Monotonic and, for the marks that
// depend on New, through the zero Counter too. The raw clock, a system call
// a read, gets fewer.
func reads(t testing.TB) []read {
	c := counter.New(oneGHz)
	mono := counter.Monotonic()
	var zero counter.Counter
	n := 500_000
	if testing.Short() {
		n = 100_000
	}
	return []read{
		{"Now", n, c.Now},
		{"NowUnordered", n, c.NowUnordered},
		{"Begin", n, c.Begin},
		{"End", n, c.End},
		{"NowCPU", n, func() counter.Tickstamp { ts, _ := c.NowCPU(); return ts }},
		{"zero/Now", n, zero.Now},
		{"zero/End", n, zero.End},
		{"zero/NowCPU", n, func() counter.Tickstamp { ts, _ := zero.NowCPU(); return ts }},
		{"Monotonic/Now", n / 4, mono.Now},
		{"Monotonic/NowUnordered", n / 4, mono.NowUnordered},
		{"Monotonic/Begin", n / 4, mono.Begin},
		{"Monotonic/End", n / 4, mono.End},
		{"Monotonic/NowCPU", n / 4, func() counter.Tickstamp { ts, _ := mono.NowCPU(); return ts }},
		{"raw", n / 20, func() counter.Tickstamp { return counter.Tickstamp(counter.SyscallNanos()) }},
	}
}

// TestReadsNeverGoBack takes millions of readings of each kind on one
// goroutine and fails at the first one earlier than the one before it.
func TestReadsNeverGoBack(t *testing.T) {
	t.Parallel() // orders only: it holds however the CPUs are shared
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
	t.Parallel() // orders only: it holds however the CPUs are shared
	c := counter.New(oneGHz)
	prev := c.Now()
	for i := range 500_000 {
		var got [5]counter.Tickstamp
		got[0] = c.Now()
		got[1] = c.NowUnordered()
		got[2] = c.Begin()
		got[3] = c.End()
		got[4], _ = c.NowCPU()
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
	c := counter.New(oneGHz)
	var cpu int
	if got := testing.AllocsPerRun(1000, func() { sink, cpu = c.NowCPU() }); got != 0 {
		t.Fatalf("NowCPU: %v allocations a read; want 0", got)
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
	c := counter.New(oneGHz)
	_, cpu := c.NowCPU()
	t.Logf("NowCPU on %s/%s: CPU %d", runtime.GOOS, runtime.GOARCH, cpu)
	if cpu < -1 || cpu > 0xfff {
		t.Fatalf("NowCPU CPU = %v; want -1 or 0 to 4095", cpu)
	}
	if (runtime.GOOS != "linux" || runtime.GOARCH != "amd64") && cpu != -1 {
		t.Fatalf("NowCPU CPU = %v on %s/%s; want -1", cpu, runtime.GOOS, runtime.GOARCH)
	}
}

// TestMonotonicReadsTheMonotonicClock checks every read of the Counter that
// Monotonic returns between two readings of the runtime's clock, read
// directly: each must fall between them, at 1 GHz, and NowCPU must report
// no CPU.
func TestMonotonicReadsTheMonotonicClock(t *testing.T) {
	c := counter.Monotonic()
	if got := c.Rate().Hertz(); got != 1e9 {
		t.Fatalf("Monotonic().Rate() = %v; want 1 GHz", c.Rate())
	}
	cpu := func() counter.Tickstamp {
		ts, cpu := c.NowCPU()
		if cpu != -1 {
			t.Fatalf("Monotonic().NowCPU() CPU = %v; want -1", cpu)
		}
		return ts
	}
	for _, r := range []read{
		{"Now", 0, c.Now},
		{"NowUnordered", 0, c.NowUnordered},
		{"Begin", 0, c.Begin},
		{"End", 0, c.End},
		{"NowCPU", 0, cpu},
	} {
		for range 10_000 {
			before := counter.Tickstamp(counter.Nanotime())
			got := r.f()
			after := counter.Tickstamp(counter.Nanotime())
			if got.Sub(before) < 0 || after.Sub(got) < 0 {
				t.Fatalf("Monotonic().%s() = %v between the runtime clock's readings %v and %v; want between them", r.name, got, before, after)
			}
		}
	}
}

// TestSince checks Since against the reads it is made of: the span from
// start to a Now taken before Since, and to one taken after, converted,
// must bracket it.
func TestSince(t *testing.T) {
	for _, c := range []counter.Counter{counter.New(oneGHz), counter.Monotonic()} {
		start := c.Now()
		for range 10_000 {
			before := c.Now().Sub(start).Duration(c.Rate())
			got := c.Since(start)
			after := c.Now().Sub(start).Duration(c.Rate())
			if got < before || got > after {
				t.Fatalf("Since(start) = %v between spans %v and %v read around it; want between them", got, before, after)
			}
		}
	}
}

// TestSinceSleep times a sleep with the Counter that Monotonic returns,
// whose rate needs no discovery: Since must say at least the sleep, and
// less than a generous bound that a loaded machine still meets.
func TestSinceSleep(t *testing.T) {
	c := counter.Monotonic()
	start := c.Now()
	time.Sleep(2 * time.Millisecond)
	if got := c.Since(start); got < 2*time.Millisecond || got > 10*time.Second {
		t.Fatalf("Since a 2 ms sleep = %v; want 2 ms to 10 s", got)
	}
}

// TestSinceEdges checks what Since's doc promises at its edges: a start
// later than now gives a negative span, a span past time.Duration's range
// saturates, and the zero Counter says 0.
func TestSinceEdges(t *testing.T) {
	mono := counter.Monotonic()
	if got := mono.Since(addTicks(mono.Now(), counter.Tickdelta(time.Hour))); got > -59*time.Minute || got < -time.Hour {
		t.Errorf("Since(a reading an hour ahead) = %v; want about -1h", got)
	}
	hertz, err := counter.NewTickRate(1)
	if err != nil {
		t.Fatal(err)
	}
	slow := counter.New(hertz) // a tick is a second: 2⁴⁰ ticks are past the Duration range
	now := slow.Now()
	if got := slow.Since(addTicks(now, -1<<40)); got != math.MaxInt64 {
		t.Errorf("Since(2⁴⁰ ticks of 1 s ago) = %v; want %v", got, time.Duration(math.MaxInt64))
	}
	if got := slow.Since(addTicks(now, 1<<40)); got != math.MinInt64 {
		t.Errorf("Since(2⁴⁰ ticks of 1 s ahead) = %v; want %v", got, time.Duration(math.MinInt64))
	}
	var zero counter.Counter
	if got := zero.Since(addTicks(zero.Now(), -1<<40)); got != 0 {
		t.Errorf("zero Counter: Since = %v; want 0", got)
	}
}

// oneGHz is the rate of 1 GHz, a Monotonic Counter's.
var oneGHz = counter.Monotonic().Rate()

// addTicks returns the reading d ticks after t, wrapping as the counter does.
func addTicks(t counter.Tickstamp, d counter.Tickdelta) counter.Tickstamp {
	return t + counter.Tickstamp(d)
}
