package counter

import (
	"bytes"
	"errors"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tickstamp/counter/internal/affinity"
	"github.com/tickstamp/counter/internal/inlining"
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

// TestInlining fails when a read or a conversion stops inlining into its
// caller, which would put a second call around every read, and a call
// costing more than the conversion around every conversion.
func TestInlining(t *testing.T) {
	var args []string
	if backend == "nanotime" && (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64") {
		args = []string{"-tags", "purego"}
	}
	out := inlining.Report(t, args...)
	inlinable := inlining.Inlinable(out)
	for _, name := range []string{
		"Counter.Now", "Counter.NowUnordered", "Counter.Begin", "Counter.End", "Counter.NowCPU",
		"Counter.Rate", "Monotonic",
		"(*scale).apply", "Tickdelta.Duration", "TickRate.Ticks", "gigahertz",
	} {
		if !slices.Contains(inlinable, name) {
			t.Errorf("%s: not reported as \"can inline\" by go build -gcflags=-m %s", name, strings.Join(args, " "))
		}
	}
	// Since, a read and a conversion, is over the inliner's budget; what it
	// must not be is a second call: both must inline into it.
	for _, callee := range []string{"Counter.Now", "Tickdelta.Duration"} {
		if !inlinedInto(t, out, "counter.go", "func (c Counter) Since(", callee) {
			t.Errorf("Counter.Since: %s not reported as inlined into it by go build -gcflags=-m %s", callee, strings.Join(args, " "))
		}
	}
}

// inlinedInto reports whether the -gcflags=-m output out says that callee
// was inlined into the function of file whose declaration begins with decl:
// a line "inlining call to callee" at a position between that declaration
// and the closing brace that ends it.
func inlinedInto(t *testing.T, out []byte, file, decl, callee string) bool {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	first, last := 0, 0
	for i, line := range strings.Split(string(src), "\n") {
		switch {
		case strings.HasPrefix(line, decl):
			first = i + 1
		case first > 0 && last == 0 && line == "}":
			last = i + 1
		}
	}
	if first == 0 || last == 0 {
		t.Fatalf("no declaration %q in %s", decl, file)
	}
	for line := range bytes.Lines(out) {
		pos, msg, ok := strings.Cut(strings.TrimSpace(string(line)), ": ")
		parts := strings.Split(pos, ":")
		if !ok || len(parts) != 3 || parts[0] != "./"+file || msg != "inlining call to "+callee {
			continue
		}
		if n, err := strconv.Atoi(parts[1]); err == nil && first <= n && n <= last {
			return true
		}
	}
	return false
}

// TestBracketReads interleaves the package's own bracket reads with the
// Counter methods they stand for: all read one counter, in order, so none
// may be behind the read before it.
func TestBracketReads(t *testing.T) {
	c := New(gigahertz())
	prev := c.Now()
	for i := range 100_000 {
		var got [6]Tickstamp
		got[0] = Tickstamp(readBegin())
		got[1] = c.Begin()
		got[2] = Tickstamp(readEnd())
		got[3] = c.End()
		got[4], _ = readCPU()
		got[5] = c.Now()
		for k, ts := range got {
			if d := ts.Sub(prev); d < 0 {
				t.Fatalf("round %d, read %d: %v after %v; want no step back", i, k, ts, prev)
			}
			prev = ts
		}
	}
}

// TestNowCPUMatchesPinnedCPU pins the thread to each CPU in turn: NowCPU
// must name it where TSC_AUX holds the CPU (Linux on amd64 with RDTSCP), as
// the getcpu system call does, and be -1 elsewhere.
func TestNowCPUMatchesPinnedCPU(t *testing.T) {
	cpus, err := affinity.Allowed()
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no way to pin a thread on %s: %v", runtime.GOOS, err)
	}
	if err != nil {
		t.Fatalf("affinity.Allowed: %v", err)
	}
	c := New(gigahertz())
	tagged := nowCPUTagged()
	t.Logf("backend %s, CPU in TSC_AUX: %v", backend, tagged)
	for _, cpu := range cpus {
		want := -1
		if tagged {
			want = cpu
		}
		unpin, err := affinity.Pin(cpu)
		if err != nil {
			t.Fatalf("pinning a thread to CPU %d: %v", cpu, err)
		}
		if sys, err := affinity.Current(); err != nil || sys != cpu {
			t.Errorf("getcpu() = %v, %v on a thread pinned to CPU %d; want %v", sys, err, cpu, cpu)
		}
		for range 1000 {
			if _, got := c.NowCPU(); got != want {
				t.Errorf("NowCPU() CPU = %v on a thread pinned to CPU %d; want %v", got, cpu, want)
				break
			}
		}
		if _, got := Monotonic().NowCPU(); got != -1 {
			t.Errorf("Monotonic().NowCPU() CPU = %v on CPU %d; want -1", got, cpu)
		}
		if err := unpin(); err != nil {
			t.Fatalf("unpinning a thread from CPU %d: %v", cpu, err)
		}
	}
}
