package countertest_test

import (
	"flag"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/countertest"
)

// Sinks that keep the bodies' work from being optimized away.
var (
	sinkInt int
	sinkPtr *[64]byte
)

// units are the metrics Bench reports, shortest first.
var units = []string{"p50-ns", "p99-ns", "max-ns"}

// run drives Bench through testing.Benchmark for exactly n iterations, with
// -test.benchtime set to nx for the call and restored after it, so that a
// test does not take the default second.
func run(t *testing.T, n int, body func()) testing.BenchmarkResult {
	t.Helper()
	f := flag.Lookup("test.benchtime")
	if f == nil {
		t.Fatal("no -test.benchtime flag to set the iteration count with")
	}
	old := f.Value.String()
	if err := f.Value.Set(strconv.Itoa(n) + "x"); err != nil {
		t.Fatal(err)
	}
	defer f.Value.Set(old)
	r := testing.Benchmark(func(b *testing.B) { countertest.Bench(b, body) })
	if r.N != n {
		t.Fatalf("ran %d iterations, want %d", r.N, n)
	}
	return r
}

// metric returns the metric of r in unit, failing the test where it is
// missing, negative or not finite.
func metric(t *testing.T, r testing.BenchmarkResult, unit string) float64 {
	t.Helper()
	v, ok := r.Extra[unit]
	if !ok {
		t.Fatalf("no %s metric in %v", unit, r.Extra)
	}
	if !(v >= 0) || math.IsInf(v, 0) {
		t.Fatalf("%s = %v, want a finite figure at least 0", unit, v)
	}
	return v
}

// discover returns the Counter Bench reads: Discover's, or Monotonic where
// it refuses.
func discover() counter.Counter {
	c, err := counter.Discover()
	if err != nil {
		return counter.Monotonic()
	}
	return c
}

func TestBenchReportsOrderedMetrics(t *testing.T) {
	var a [64]int
	r := run(t, 5000, func() {
		s := 0
		for i := range a {
			s += a[i] * i
		}
		sinkInt = s
	})
	prev := 0.0
	for _, u := range units {
		v := metric(t, r, u)
		if v < prev {
			t.Errorf("%s = %v is below the quantile before it, %v: %v", u, v, prev, r.Extra)
		}
		prev = v
	}
	metric(t, r, "mean-ns")
	if len(r.Extra) != 4 {
		t.Errorf("metrics %v, want exactly p50-ns, p99-ns, max-ns and mean-ns", r.Extra)
	}
}

// An empty body's median is the floor itself, so with the floor subtracted
// it is close to 0: well below half the bare Begin-End floor, which the
// harness's floor exceeds (it adds the call of the body).
func TestBenchSubtractsFloor(t *testing.T) {
	c := discover()
	var s counter.Snapshot
	c.Floor(counter.BeginEnd, &s)
	bare := float64(s.Quantile(0.5).Duration(c.Rate()))
	if bare <= 0 {
		t.Skipf("the bare Begin-End floor is %v ns: nothing to compare with", bare)
	}
	// A loaded machine may shift one median a step from the other: try
	// again before failing.
	var p50 float64
	for range 3 {
		p50 = metric(t, run(t, 10000, func() {}), "p50-ns")
		if p50 <= bare/2 {
			return
		}
	}
	t.Errorf("an empty body's p50 is %v ns, above half the bare floor's %v ns: the floor was not subtracted", p50, bare)
}

func TestBenchTimesKnownSpan(t *testing.T) {
	const spin = 50 * time.Microsecond
	r := run(t, 100, func() {
		for start := time.Now(); time.Since(start) < spin; {
		}
	})
	lo, hi := float64(40*time.Microsecond), float64(5*time.Millisecond)
	if p50 := metric(t, r, "p50-ns"); p50 < lo || p50 > hi {
		t.Errorf("a %v spin's p50 is %v ns, want %v to %v ns", spin, p50, lo, hi)
	}
	if mean := metric(t, r, "mean-ns"); mean < lo {
		t.Errorf("a %v spin's mean is %v ns, want at least %v ns", spin, mean, lo)
	}
	if max, p50 := metric(t, r, "max-ns"), metric(t, r, "p50-ns"); max < p50 {
		t.Errorf("max %v ns below p50 %v ns", max, p50)
	}
}

// The loop allocates nothing of its own: a body that allocates nothing has
// no allocation per iteration, and one that allocates once has exactly one.
func TestBenchAllocatesNothing(t *testing.T) {
	const n = 10000
	if got := run(t, n, func() { sinkInt++ }).AllocsPerOp(); got != 0 {
		t.Errorf("an empty body: %d allocs/op, want 0", got)
	}
	if got := run(t, n, func() { sinkPtr = new([64]byte) }).AllocsPerOp(); got != 1 {
		t.Errorf("a body that allocates once: %d allocs/op, want 1", got)
	}
}

func TestBenchNilBodyFails(t *testing.T) {
	r := testing.Benchmark(func(b *testing.B) { countertest.Bench(b, nil) })
	if r.N != 0 || len(r.Extra) != 0 {
		t.Errorf("Bench with a nil body ran %d iterations and reported %v; want a failed benchmark", r.N, r.Extra)
	}
}
