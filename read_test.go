package counter

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBackend fails when the reads this build runs are not the ones CI
// expects: COUNTER_EXPECT_BACKEND names them (rdtsc, cntvct or nanotime).
func TestBackend(t *testing.T) {
	t.Logf("backend %s on %s/%s", backend, runtime.GOOS, runtime.GOARCH)
	if want := os.Getenv("COUNTER_EXPECT_BACKEND"); want != "" && backend != want {
		t.Fatalf("backend = %v; want %v (COUNTER_EXPECT_BACKEND)", backend, want)
	}
	native := map[string]string{"amd64": "rdtsc", "arm64": "cntvct"}[runtime.GOARCH]
	if backend != "nanotime" && backend != native {
		t.Fatalf("backend = %v on %s; want %v or nanotime", backend, runtime.GOARCH, native)
	}
}

// TestInlining fails when a read stops inlining into its caller, which
// would put a second call around every read.
func TestInlining(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with -gcflags=-m")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool on PATH: %v", err)
	}
	args := []string{"build", "-gcflags=-m"}
	if backend == "nanotime" && (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64") {
		args = append(args, "-tags", "purego")
	}
	cmd := exec.Command(gotool, append(args, ".")...)
	cmd.Env = append(os.Environ(), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	var inlinable []string
	for line := range bytes.Lines(out) {
		if _, name, ok := strings.Cut(strings.TrimSpace(string(line)), ": can inline "); ok {
			inlinable = append(inlinable, name)
		}
	}
	for _, name := range []string{
		"Counter.Now", "Counter.Begin", "Counter.End", "Counter.NowCPU", "Counter.Rate",
		"MonotonicClock.Now", "RawMonotonicClock.Now", "(*ManualClock).Now",
	} {
		if !slices.Contains(inlinable, name) {
			t.Errorf("%s: not reported as \"can inline\" by go %s", name, strings.Join(args, " "))
		}
	}
}

// TestNanotimeSpanAgreesWithMonotonicClock times one sleep with the Counter
// and the monotonic clock where the Counter reads the runtime's clock at
// 1 GHz, whose rate needs no discovery: the Counter's span, taken outside the
// clock's, may exceed it only by the time the reads take.
func TestNanotimeSpanAgreesWithMonotonicClock(t *testing.T) {
	if backend != "nanotime" {
		t.Skipf("the %s backend's rate needs discovery", backend)
	}
	c, mono := New(Gigahertz()), MonotonicClock{}
	c0, m0 := c.Begin(), mono.Now()
	time.Sleep(20 * time.Millisecond)
	m1, c1 := mono.Now(), c.End()
	if dc, dm := c1.Sub(c0), m1.Sub(m0); dc < dm || dc-dm > 1e6 {
		t.Fatalf("Counter span %v around monotonic span %v; want it longer by under 1 ms", dc, dm)
	}
}
