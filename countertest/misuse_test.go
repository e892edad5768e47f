package countertest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tickstamp/counter/countertest"
)

// misuseEnv, set to 1, lets BenchmarkMisuse run: TestMisuse sets it in the
// child it starts.
const misuseEnv = "COUNTERTEST_MISUSE"

// misuses are the ways to misuse Bench, each a benchmark that must fail.
var misuses = map[string]func(b *testing.B){
	"twice": func(b *testing.B) {
		countertest.Bench(b, func() { sinkInt++ })
		countertest.Bench(b, func() { sinkInt++ })
	},
	"in-loop": func(b *testing.B) {
		for b.Loop() {
			countertest.Bench(b, func() { sinkInt++ })
		}
	},
	"in-b.N-loop": func(b *testing.B) {
		// b.N read at each turn, as the old loop reads it: range b.N
		// would read it once, while it is still 1.
		for i := 0; i < b.N; i++ {
			countertest.Bench(b, func() { sinkInt++ })
		}
	},
	"parallel": func(b *testing.B) {
		b.RunParallel(func(pb *testing.PB) {
			countertest.Bench(b, func() { sinkInt++ })
		})
	},
}

// BenchmarkMisuse runs each misuse as a sub-benchmark, in the child
// TestMisuse starts; elsewhere it is skipped.
func BenchmarkMisuse(b *testing.B) {
	if os.Getenv(misuseEnv) != "1" {
		b.Skip("each sub-benchmark fails by design: TestMisuse runs them")
	}
	for name, f := range misuses {
		b.Run(name, f)
	}
}

// TestMisuse runs each misuse of Bench in a child process, as go test
// -bench does, and checks that it fails with Bench's own message, once,
// reported at the line that called Bench, and not with the testing
// package's (B.Loop called with timer stopped, or RunParallel's body
// exiting early). Under RunParallel it runs with one goroutine and with
// two (-test.cpu). A loop over b.N calls Bench again only where the first
// call ran more than one iteration (-test.benchtime 2x).
func TestMisuse(t *testing.T) {
	if os.Getenv(misuseEnv) == "1" {
		t.Skip("already the child")
	}
	for _, tc := range []struct {
		name, cpu, benchtime, want string
	}{
		{"twice", "1", "1x", "countertest: Bench called a second time in one benchmark: "},
		{"in-b.N-loop", "1", "2x", "countertest: Bench called a second time in one benchmark: "},
		{"in-loop", "1", "1x", "countertest: Bench called inside a b.Loop loop: "},
		{"parallel", "1", "1x", "countertest: Bench called under b.RunParallel: "},
		{"parallel", "2", "1x", "countertest: Bench called under b.RunParallel: "},
	} {
		t.Run(tc.name+"/cpu="+tc.cpu, func(t *testing.T) {
			t.Parallel()
			args := []string{os.Args[0], "-test.run=^$", "-test.bench=^BenchmarkMisuse$/^" + tc.name + "$",
				"-test.benchtime=" + tc.benchtime, "-test.cpu=" + tc.cpu}
			if wrapper := os.Getenv("COUNTER_TEST_EXEC"); wrapper != "" {
				args = append(strings.Fields(wrapper), args...)
			}
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Env = append(os.Environ(), misuseEnv+"=1")
			b, err := cmd.CombinedOutput()
			out := string(b)
			if err == nil {
				t.Fatalf("the misuse passed; want it to fail:\n%s", out)
			}
			if _, ok := err.(*exec.ExitError); !ok {
				t.Fatalf("%s: %v", strings.Join(args, " "), err)
			}
			if strings.Count(out, "misuse_test.go:") != 1 || strings.Count(out, tc.want) != 1 {
				t.Errorf("want one message, from misuse_test.go, %q...:\n%s", tc.want, out)
			}
			for _, theirs := range []string{"B.Loop called with timer stopped", "RunParallel: body exited"} {
				if strings.Contains(out, theirs) {
					t.Errorf("the testing package's %q; want Bench's message alone:\n%s", theirs, out)
				}
			}
		})
	}
}
