//go:build !purego

package counter

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

const faultChildEnv = "COUNTER_TEST_FAULT_CHILD"

// TestRefusesFaultingCounter runs a child that asks the kernel to make RDTSC
// fault, as some sandboxes do, and checks that Discover and Measure refuse
// with ErrDisabled instead of letting the first read kill the process.
func TestRefusesFaultingCounter(t *testing.T) {
	if os.Getenv(faultChildEnv) == "1" {
		if err := unix.Prctl(unix.PR_SET_TSC, unix.PR_TSC_SIGSEGV, 0, 0, 0); err != nil {
			println("prctl(PR_SET_TSC):", err.Error())
			os.Exit(0)
		}
		// Nothing here may read a clock, time.Now included: in this
		// process the vDSO's RDTSC faults too. So the child prints with
		// println and leaves before the testing package reads the time.
		_, err := Discover()
		println("discover:", errString(err))
		_, err = Measure()
		println("measure:", errString(err))
		os.Exit(0)
	}
	if readsFault() {
		t.Fatal("RDTSC faults in the parent already")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRefusesFaultingCounter$", "-test.count=1")
	cmd.Env = append(os.Environ(), faultChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "prctl(PR_SET_TSC)") {
		t.Skipf("the kernel refused PR_SET_TSC:\n%s", out)
	}
	if err != nil {
		t.Fatalf("the child failed: %v\n%s", err, out)
	}
	for _, want := range []string{"discover: " + ErrDisabled.Error(), "measure: " + ErrDisabled.Error()} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the child said:\n%s\nwant a line %q", out, want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
