// Package mutate is the test of a package's tests: it applies each of a
// list of mutations, one change to the package's source that breaks a
// promise, to a scratch copy through go test's -overlay, and runs the
// package's tests on it. Each mutation must fail a test, and the package as
// it is must pass them all.
package mutate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A Mutation replaces Old, which occurs once in File (a path relative to
// the package's directory), with New. A test lists its mutations in a type
// of its own, type mutation mutate.Mutation, so that vet takes its
// literals without field names.
type Mutation struct {
	Name, File string
	Old, New   string
}

// Env is the variable that asks for the mutations: each builds the package
// anew, so they run only where it is set.
const Env = "COUNTER_MUTATE"

// Run runs the tests of the package in the working directory that the
// regular expression run selects, once as the package is and once with
// each mutation, failing t where the package as it is fails, where a
// mutation passes or fails to build, or where a mutation's Old is not in
// its file exactly once. It logs which test caught each mutation. It skips
// t unless Env is set.
func Run[M ~struct {
	Name, File string
	Old, New   string
}](t *testing.T, run string, mutations []M) {
	t.Helper()
	if os.Getenv(Env) == "" {
		t.Skipf("set %s=1 to run the tests on every mutation", Env)
	}
	dir := t.TempDir()
	test := func(replace map[string]string) (string, bool) {
		overlay, err := json.Marshal(map[string]map[string]string{"Replace": replace})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "overlay.json")
		if err := os.WriteFile(path, overlay, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "test", "-count=1", "-overlay", path, "-run", run, ".")
		cmd.Env = append(os.Environ(), Env+"=")
		out, err := cmd.CombinedOutput()
		return string(out), err == nil
	}
	if out, ok := test(map[string]string{}); !ok {
		t.Fatalf("the package as it is fails:\n%s", out)
	}
	caught := regexp.MustCompile(`--- FAIL: (\w+)`)
	for i, mm := range mutations {
		m := Mutation(mm)
		src, err := os.ReadFile(m.File)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), m.Old); n != 1 {
			t.Errorf("%s: %q is in %s %d times, want once", m.Name, m.Old, m.File, n)
			continue
		}
		abs, err := filepath.Abs(m.File)
		if err != nil {
			t.Fatal(err)
		}
		mutated := filepath.Join(dir, strings.Repeat("m", i+1)+".go")
		if err := os.WriteFile(mutated, []byte(strings.Replace(string(src), m.Old, m.New, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, passed := test(map[string]string{abs: mutated})
		failed := caught.FindStringSubmatch(out)
		switch {
		case passed:
			t.Errorf("%-55s passed; want a failure", m.Name)
		case failed == nil && strings.Contains(out, "panic: "):
			t.Logf("%-55s caught by a panic", m.Name)
		case failed == nil:
			t.Errorf("%-55s does not build, or fails no test:\n%s", m.Name, out)
		default:
			t.Logf("%-55s caught by %s", m.Name, failed[1])
		}
	}
}
