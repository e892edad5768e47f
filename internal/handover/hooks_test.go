package handover

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestHooksCompileAway builds this package as every program does, without
// the handoverstep tag, with the compiler's inlining report: step and
// trace inline, and every call of step in writer.go is inlined, so that
// the hooks compile to nothing on the record's path.
func TestHooksCompileAway(t *testing.T) {
	if Stepping {
		t.Skip("the handoverstep build has the hooks")
	}
	if testing.Short() {
		t.Skip("builds the package")
	}
	src, err := os.ReadFile("writer.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := strings.Count(string(src), "\tstep()\n")
	cmd := exec.Command("go", "build", "-gcflags=-m", ".")
	cmd.Env = append(os.Environ(), "GOFLAGS=", "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, want := range []string{"can inline step", "can inline trace"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the inlining report has no %q:\n%s", want, out)
		}
	}
	// The go command replays a cached build's report with the paths of the
	// directory it was first built from.
	inlined := len(regexp.MustCompile(`(?m)^(\./|\S*internal/handover/)writer\.go:\d+:\d+: inlining call to step$`).FindAllIndex(out, -1))
	if inlined != calls || calls == 0 {
		t.Errorf("%d calls of step in writer.go inlined; want all %d", inlined, calls)
	}
}
