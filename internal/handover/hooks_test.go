package handover

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tickstamp/counter/internal/inlining"
)

// TestHooksCompileAway builds this package as every program does, without
// the handoverstep tag, with the compiler's inlining report: step and
// trace inline, and every call of step in writer.go is inlined, so that
// the hooks compile to nothing on the record's path.
func TestHooksCompileAway(t *testing.T) {
	if Stepping {
		t.Skip("the handoverstep build has the hooks")
	}
	src, err := os.ReadFile("writer.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := strings.Count(string(src), "\tstep()\n")
	out := inlining.Report(t)
	for _, want := range []string{"step", "trace"} {
		if !slices.Contains(inlining.Inlinable(out), want) {
			t.Errorf("the inlining report has no \"can inline %s\":\n%s", want, out)
		}
	}
	inlined := 0
	for _, callee := range inlining.InlinedIn(out, "./writer.go") {
		if callee == "step" {
			inlined++
		}
	}
	if inlined != calls || calls == 0 {
		t.Errorf("%d calls of step in writer.go inlined; want all %d", inlined, calls)
	}
}
