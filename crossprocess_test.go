package counter_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tickstamp/counter"
)

// childEnv marks the re-executed test binary as TestCrossProcess's child.
const childEnv = "COUNTER_TEST_CHILD"

// crossProcessClocks are the clocks whose readings one process may subtract
// from another's on the same machine, each by the name the child prints.
var crossProcessClocks = []struct {
	name string
	clk  counter.Clock
}{
	{"counter", counter.New(counter.Gigahertz())},
	{"monotonic", counter.MonotonicClock{}},
	{"raw", counter.RawClock{}},
}

// TestHelperProcess is TestCrossProcess's child: run by itself it does
// nothing. In the child it prints one line for each clock, its name and its
// reading as "N ticks".
func TestHelperProcess(t *testing.T) {
	if os.Getenv(childEnv) != "1" {
		t.Skip("the child of TestCrossProcess")
	}
	for _, c := range crossProcessClocks {
		fmt.Printf("%s %v\n", c.name, c.clk.Now())
	}
}

// TestCrossProcess re-executes the test binary, through COUNTER_TEST_EXEC
// where set (an emulator such as qemu-aarch64), and checks that each reading
// its child prints lies between two readings this process takes before
// starting it and after it has ended.
func TestCrossProcess(t *testing.T) {
	if os.Getenv(childEnv) == "1" {
		t.Skip("already the child")
	}
	args := []string{os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1"}
	if wrapper := os.Getenv("COUNTER_TEST_EXEC"); wrapper != "" {
		args = append(strings.Fields(wrapper), args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var before, after [3]counter.Tickstamp
	for i, c := range crossProcessClocks {
		before[i] = c.clk.Now()
	}
	out, err := cmd.Output()
	for i, c := range crossProcessClocks {
		after[i] = c.clk.Now()
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	got := map[string]counter.Tickstamp{}
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		name, reading, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		ts, err := counter.ParseTickstamp(reading)
		if err != nil {
			continue // a line of the testing package's own
		}
		got[name] = ts
	}
	for i, c := range crossProcessClocks {
		t.Run(c.name, func(t *testing.T) {
			ts, ok := got[c.name]
			if !ok {
				t.Fatalf("the child printed no %s reading:\n%s", c.name, out)
			}
			if ts.Sub(before[i]) < 0 || after[i].Sub(ts) < 0 {
				t.Fatalf("the child read %v; want it between %v and %v", ts, before[i], after[i])
			}
			t.Logf("child %v: %v after the parent's first reading, %v before its last", ts, ts.Sub(before[i]), after[i].Sub(ts))
		})
	}
}
