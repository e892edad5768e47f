// Package inlining reads the compiler's inlining report of a package, for
// the tests that check that a call on a hot path inlines. It is for tests
// only. internal/handover's test of its hooks reads the report itself: its
// mutation test copies that package alone into a scratch module.
package inlining

import (
	"bytes"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// Report builds the package in the test's directory with -gcflags=-m and
// the build flags args, for the test's GOOS and GOARCH, with no GOFLAGS
// from the environment and cgo off, and returns the compiler's report. It
// skips t in -short mode, where there is no go tool, and fails t where the
// build fails.
func Report(t testing.TB, args ...string) []byte {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the package with -gcflags=-m")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go tool on PATH: %v", err)
	}
	args = append(append([]string{"build", "-gcflags=-m"}, args...), ".")
	cmd := exec.Command(gotool, args...)
	cmd.Env = append(os.Environ(), "GOOS="+runtime.GOOS, "GOARCH="+runtime.GOARCH, "GOFLAGS=", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Inlinable returns the functions that report says can inline, as it
// names them ("Counter.Now", "(*scale).apply").
func Inlinable(report []byte) []string {
	var names []string
	for line := range bytes.Lines(report) {
		if _, name, ok := strings.Cut(strings.TrimSpace(string(line)), ": can inline "); ok {
			names = append(names, name)
		}
	}
	return names
}

// InlinedIn returns the callees that report says were inlined into calls
// in file, as the report names the file ("./buckets.go"), once for each
// such call.
func InlinedIn(report []byte, file string) []string {
	var callees []string
	for line := range bytes.Lines(report) {
		at, callee, ok := strings.Cut(strings.TrimSpace(string(line)), ": inlining call to ")
		if ok && strings.HasPrefix(at, file+":") {
			callees = append(callees, callee)
		}
	}
	return callees
}
