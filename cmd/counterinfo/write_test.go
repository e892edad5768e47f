package main

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/tickstamp/counter"
)

// asMainEnv, set to 1, makes the test binary run the command's main instead
// of its tests, so that a test can run the command as a process of its own.
const asMainEnv = "COUNTERINFO_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		os.Args = append([]string{"counterinfo"}, strings.Fields(os.Getenv(asMainEnv+"_ARGS"))...)
		main()
		return // main exits; this is for a main that would not
	}
	os.Exit(m.Run())
}

// errWriter is a writer that never writes.
type errWriter struct{ err error }

func (w errWriter) Write(p []byte) (int, error) { return 0, w.err }

// TestUnwrittenReport checks that a report the command could not write ends
// in exitWrite and a message on stderr that gives the writer's error, in
// both modes, and that -h whose usage could not be written does the same.
func TestUnwrittenReport(t *testing.T) {
	full := errors.New("no space left on device")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"table", quick},
		{"json", append([]string{"-json"}, quick...)},
		{"help", []string{"-h"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A counter that faults is read by nothing, which keeps the
			// run short; its report is written like any other.
			var errOut strings.Builder
			status := runWith(refusing(counter.ErrDisabled), tc.args, errWriter{full}, &errOut)
			if status != exitWrite {
				t.Errorf("exit status %d; want %d", status, exitWrite)
			}
			if msg := errOut.String(); !strings.HasPrefix(msg, "counterinfo: ") || !strings.Contains(msg, full.Error()) {
				t.Errorf("stderr %q; want a counterinfo: message that gives %q", msg, full)
			}
		})
	}
}

// TestDevFull runs the command as a process with its standard output on
// /dev/full, where every write fails with ENOSPC, and checks it exits with
// exitWrite and says why on stderr, in both modes.
func TestDevFull(t *testing.T) {
	if os.Getenv(asMainEnv) == "1" {
		t.Skip("already the command")
	}
	for _, mode := range []string{"", "-json "} {
		t.Run("mode="+mode, func(t *testing.T) {
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skipf("no /dev/full here: %v", err)
			}
			defer full.Close()
			checkUnwritten(t, mode, full, "no space left on device")
		})
	}
}

// TestClosedPipe runs the command as a process with its standard output on
// a pipe whose reading end is closed, as in counterinfo -json | true, and
// checks it exits with exitWrite and says why on stderr, in both modes,
// rather than die of SIGPIPE without a word.
func TestClosedPipe(t *testing.T) {
	if os.Getenv(asMainEnv) == "1" {
		t.Skip("already the command")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGPIPE on Windows, and a closed pipe's error says so otherwise")
	}
	for _, mode := range []string{"", "-json "} {
		t.Run("mode="+mode, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			r.Close() // nobody will read: every write fails with EPIPE
			checkUnwritten(t, mode, w, "broken pipe")
		})
	}
}

// checkUnwritten runs the command as a process, with mode and the flags of a
// short run, its standard output on stdout, and checks it exits with
// exitWrite and a message on stderr that gives reason.
func checkUnwritten(t *testing.T, mode string, stdout *os.File, reason string) {
	t.Helper()
	args := []string{os.Args[0]}
	if wrapper := os.Getenv("COUNTER_TEST_EXEC"); wrapper != "" {
		args = append(strings.Fields(wrapper), args...) // an emulator, as for qemu-aarch64
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), asMainEnv+"=1", asMainEnv+"_ARGS="+mode+"-window 20ms -crosscore 0")
	cmd.Stdout = stdout
	var errOut strings.Builder
	cmd.Stderr = &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitWrite {
		t.Fatalf("%v; want exit status %d\nstderr: %s", err, exitWrite, errOut.String())
	}
	if msg := errOut.String(); !strings.Contains(msg, "counterinfo: the report could not be written") || !strings.Contains(msg, reason) {
		t.Errorf("stderr %q; want the report unwritten, for %s", msg, reason)
	}
}
