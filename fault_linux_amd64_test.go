//go:build !purego

package counter

import (
	"errors"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/tickstamp/counter/internal/rawclock"
	"golang.org/x/sys/unix"
)

func TestFaultsFor(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode int32
		err  error
		want bool
	}{
		{"enabled", unix.PR_TSC_ENABLE, nil, false},
		{"sigsegv", unix.PR_TSC_SIGSEGV, nil, true},
		{"unknown mode", 3, nil, false},
		{"kernel without the call", 0, unix.EINVAL, false},
		{"refused by a filter", unix.PR_TSC_SIGSEGV, unix.EPERM, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := faultsFor(tc.mode, tc.err); got != tc.want {
				t.Errorf("faultsFor(%d, %v) = %v; want %v", tc.mode, tc.err, got, tc.want)
			}
		})
	}
}

// withTSCMode makes the kernel's PR_GET_TSC answer mode and err for the
// rest of the test.
func withTSCMode(t *testing.T, mode int32, err error) {
	t.Helper()
	old := tscMode
	tscMode = func() (int32, error) { return mode, err }
	t.Cleanup(func() { tscMode = old })
}

// TestRefusesFaultingThread checks Discover, DiscoverDetails and Measure
// refuse with ErrDisabled, and nothing else, where the kernel says RDTSC
// faults on the thread.
func TestRefusesFaultingThread(t *testing.T) {
	withTSCMode(t, unix.PR_TSC_SIGSEGV, nil)
	if c, err := Discover(); err != ErrDisabled || c != (Counter{}) {
		t.Errorf("Discover() = %v, %v; want the zero Counter, ErrDisabled", c, err)
	}
	if c, d, err := DiscoverDetails(); err != ErrDisabled || c != (Counter{}) || !reflect.DeepEqual(d, Discovery{}) {
		t.Errorf("DiscoverDetails() = %v, %+v, %v; want zero values and ErrDisabled", c, d, err)
	}
	if r, err := MeasureRate(); err != ErrDisabled || r != (TickRate{}) {
		t.Errorf("MeasureRate() = %v, %v; want the zero TickRate, ErrDisabled", r, err)
	}
}

// TestRunsWhereReadsDoNotFault checks that an answer other than
// PR_TSC_SIGSEGV lets discovery go on. A loaded machine may still make the
// measurement fail; only ErrDisabled is wrong here.
func TestRunsWhereReadsDoNotFault(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode int32
		err  error
	}{
		{"enabled", unix.PR_TSC_ENABLE, nil},
		{"kernel without the call", 0, unix.EINVAL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withTSCMode(t, tc.mode, tc.err)
			if _, err := Discover(); errors.Is(err, ErrDisabled) {
				t.Errorf("Discover() = %v", err)
			}
			if _, err := MeasureRate(); errors.Is(err, ErrDisabled) {
				t.Errorf("MeasureRate() = %v", err)
			}
		})
	}
}

// TestTSCModeAsksKernel checks the real question: this process never set
// the flag, and a thread that sets PR_TSC_ENABLE reads it back.
func TestTSCModeAsksKernel(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if readsFault() {
		t.Fatal("RDTSC faults in the test process already")
	}
	if err := unix.Prctl(unix.PR_SET_TSC, unix.PR_TSC_ENABLE, 0, 0, 0); err != nil {
		t.Skipf("prctl(PR_SET_TSC, PR_TSC_ENABLE): %v", err)
	}
	if mode, err := tscMode(); mode != unix.PR_TSC_ENABLE || err != nil {
		t.Errorf("tscMode() = %d, %v; want %d, nil", mode, err, unix.PR_TSC_ENABLE)
	}
}

const faultChildEnv = "COUNTER_TEST_FAULT_CHILD"

// TestRefusesFaultingCounter runs a child that sets PR_TSC_SIGSEGV on its
// thread, as ErrDisabled's doc describes, then discovers, measures, reads
// the raw clock, clears the flag and discovers again. Where the kernel
// enforces the flag, Go's runtime may fault at its own next read of the
// counter, at a moment the child cannot choose; so the child either
// reports every step as the doc says, or dies of SIGSEGV outside this
// package's code and not in the raw clock's return from its system call,
// having reported its steps right so far. On a 2-vCPU KVM guest that enforces the flag, 5 of 300
// children died in the raw clock's return when it was a blocking system
// call; as a raw one, none of 1,000 did, with both CPUs busy.
//
// Where the runtime's own clock read faults before the child reports a step
// (its scheduler got there first, as it does about once in 2,000 children
// under two busy loops), the run judged nothing of the package: the test
// runs another child, up to faultTries in all, and says so.
func TestRefusesFaultingCounter(t *testing.T) {
	if os.Getenv(faultChildEnv) == "1" {
		faultChild()
	}
	for try := 1; ; try++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRefusesFaultingCounter$", "-test.count=1")
		cmd.Env = append(os.Environ(), faultChildEnv+"=1", "GOTRACEBACK=system")
		out, err := cmd.CombinedOutput()
		if strings.Contains(string(out), "prctl(PR_SET_TSC)") {
			t.Skipf("the kernel refused PR_SET_TSC:\n%s", out)
		}
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("running the child: %v", err)
		}
		killed := false
		if ee != nil {
			ws, ok := ee.Sys().(syscall.WaitStatus)
			killed = ok && ws.Signaled() && ws.Signal() == syscall.SIGSEGV
		}
		outcome, problem := judgeFaultChild(string(out), err == nil, killed)
		if problem != nil {
			t.Fatalf("%v; the child said (%v):\n%s", problem, err, out)
		}
		if !outcome.judgedNothing() {
			t.Logf("outcome: %s", outcome)
			return
		}
		if try == faultTries {
			t.Skipf("in each of %d children the runtime's own clock read faulted before the first step: %s", try, outcome)
		}
		t.Logf("child %d: %s; running another", try, outcome)
	}
}

// faultTries is how many children TestRefusesFaultingCounter runs at most
// while the runtime faults before the package does anything.
const faultTries = 5

// faultChild is the child of TestRefusesFaultingCounter. After the prctl
// nothing may read a clock through the vDSO, time.Now included, so it
// prints with println and leaves with os.Exit before the testing package
// reads the time.
func faultChild() {
	runtime.LockOSThread()
	if err := setTSCMode(unix.PR_TSC_SIGSEGV); err != nil {
		println("prctl(PR_SET_TSC):", err.Error())
		os.Exit(0)
	}
	_, err := Discover()
	println("discover:", errString(err))
	_, err = MeasureRate()
	println("measure:", errString(err))
	a := rawclock.Syscall()
	b := rawclock.Syscall()
	println("raw reads:", a > 0 && b >= a)
	if err := setTSCMode(unix.PR_TSC_ENABLE); err != nil {
		println("clearing:", err.Error())
		os.Exit(0)
	}
	_, err = Discover()
	println("cleared, discover:", errString(err))
	os.Exit(0)
}

// setTSCMode sets the calling thread's PR_SET_TSC mode with a raw system
// call, which returns without the scheduler's clock reads.
func setTSCMode(mode uintptr) error {
	if _, _, errno := unix.RawSyscall6(unix.SYS_PRCTL, unix.PR_SET_TSC, mode, 0, 0, 0, 0); errno != 0 {
		return errno
	}
	return nil
}

// A faultOutcome is which of the documented outcomes a fault child reached.
type faultOutcome struct {
	steps, of int
	// how: "every step", "SIGSEGV outside the package", or "the runtime's
	// clock read faulted", where the fault was in the runtime's own read
	// of the clock (its scheduler's, not the package's).
	how string
	// frame is the faulting function a crash report names.
	frame string
}

func (o faultOutcome) String() string {
	s := o.how + " after " + strconv.Itoa(o.steps) + " of " + strconv.Itoa(o.of) + " steps"
	if o.frame != "" {
		s += " (in " + o.frame + ")"
	}
	return s
}

// judgedNothing reports whether the child died before it reported a step:
// its run says nothing of the package.
func (o faultOutcome) judgedNothing() bool { return o.steps == 0 && o.how != "every step" }

// runtimeClockReads are the runtime's functions that read the clock through
// the vDSO, where a flagged thread faults whatever the code above them.
var runtimeClockReads = []string{"runtime.nanotime", "runtime.walltime", "runtime.vdsoCall"}

// judgeFaultChild returns which of the documented outcomes the fault child
// reached, given its output, whether it exited with status 0, and whether a
// SIGSEGV killed it; or the problem with it.
func judgeFaultChild(out string, exited0, killedBySEGV bool) (outcome faultOutcome, problem error) {
	// Every line the child printed must be the one the doc promises.
	steps := []struct{ prefix, want string }{
		{"discover: ", ErrDisabled.Error()},
		{"measure: ", ErrDisabled.Error()},
		{"raw reads: ", "true"},
		{"cleared, discover: ", ""}, // anything but ErrDisabled
	}
	reached := 0
	for i, s := range steps {
		got, ok := lineAfter(out, s.prefix)
		if !ok {
			break
		}
		if reached != i {
			return faultOutcome{}, errors.New("the child reported its steps out of order")
		}
		reached++
		switch {
		case s.want != "" && got != s.want:
			return faultOutcome{}, errors.New("the child's " + strings.TrimSpace(s.prefix) + " " + got + "; want " + s.want)
		case s.want == "" && got == ErrDisabled.Error():
			return faultOutcome{}, errors.New("with the flag cleared, Discover still refused: " + got)
		}
	}
	if exited0 {
		if reached != len(steps) {
			return faultOutcome{}, errors.New("the child exited without reporting every step")
		}
		return faultOutcome{steps: reached, of: len(steps), how: "every step"}, nil
	}
	// A fault in Go code is reported as "[signal SIGSEGV: …]"; one on the
	// runtime's own stack (its clock read in exitsyscall, say) as a line
	// "SIGSEGV: segmentation violation" and the PC, which is the first line
	// of all where the runtime faulted before the child printed anything;
	// both exit with status 2.
	if !killedBySEGV && !strings.Contains(out, "[signal SIGSEGV") && !hasLine(out, "SIGSEGV: segmentation violation") {
		return faultOutcome{}, errors.New("the child failed, not of SIGSEGV")
	}
	f := faultingFrame(out)
	if strings.HasPrefix(f, "github.com/tickstamp/counter.") || strings.HasPrefix(f, "github.com/tickstamp/counter/internal/") {
		return faultOutcome{}, errors.New("the package's own code faulted: " + f)
	}
	// The recommended clock is a raw system call, which returns without
	// the scheduler's clock reads: no fault may come from the system call's
	// return (exitsyscall, on the system stack beneath it). The scheduler
	// may still preempt the goroutine at a call's stack check on its way in
	// or out (newstack, gopreempt_m) and read the clock there, as it may
	// anywhere: that fault is the runtime's, and ErrDisabled's doc says so.
	const syscallFrame = "github.com/tickstamp/counter/internal/rawclock.Syscall("
	if strings.Contains(out, "\n"+syscallFrame) && strings.Contains(out, "\nruntime.exitsyscall") {
		return faultOutcome{}, errors.New("a fault came in the raw clock's return from its system call, which ErrDisabled's doc recommends: " + syscallFrame)
	}
	o := faultOutcome{steps: reached, of: len(steps), how: "SIGSEGV outside the package", frame: f}
	for _, r := range runtimeClockReads {
		if strings.HasPrefix(f, r) {
			o.how = "the runtime's clock read faulted"
		}
	}
	return o, nil
}

// hasLine reports whether out has a line that is line, its first included.
func hasLine(out, line string) bool {
	for l := range strings.Lines(out) {
		if strings.TrimSuffix(l, "\n") == line {
			return true
		}
	}
	return false
}

// lineAfter returns the rest of the first line of out that starts with
// prefix.
func lineAfter(out, prefix string) (string, bool) {
	for line := range strings.Lines(out) {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

// faultingFrame returns the function a Go crash report names as running
// when the signal came, past the runtime's own panic and throw frames; ""
// where the report has no traceback. The report lists that stack first: the
// running goroutine's ("[running]:", "[running, locked to thread]:"), or,
// for a fault on the runtime's system stack, goroutine 0's ("[idle]:").
func faultingFrame(out string) string {
	running, done := false, false
	for line := range strings.Lines(out) {
		switch {
		case strings.HasPrefix(line, "goroutine ") && strings.HasSuffix(strings.TrimSpace(line), ":"):
			if running {
				done = true // past the first stack
			}
			running = true
		case done, !running, strings.TrimSpace(line) == "", strings.HasPrefix(line, "\t"), strings.HasPrefix(line, "panic("):
			// not a frame of the running goroutine, or its file and line
		case strings.HasPrefix(line, "runtime.sigpanic("),
			strings.HasPrefix(line, "runtime.panicmem"),
			strings.HasPrefix(line, "runtime.gopanic("),
			strings.HasPrefix(line, "runtime.throw("),
			strings.HasPrefix(line, "runtime.fatalthrow("),
			strings.HasPrefix(line, "runtime.fatalpanic("):
			// how the runtime reports the fault, not where it was
		default:
			return strings.TrimSpace(line)
		}
	}
	return ""
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestJudgeFaultChild checks the judge of TestRefusesFaultingCounter on
// each outcome, those an enforcing kernel gives included, which this
// machine may not.
func TestJudgeFaultChild(t *testing.T) {
	d := ErrDisabled.Error()
	all := "discover: " + d + "\nmeasure: " + d + "\nraw reads: true\ncleared, discover: <nil>\n"
	runtimeFault := "discover: " + d + "\nfatal error: unexpected signal during runtime execution\n" +
		"[signal SIGSEGV: segmentation violation code=0x80 addr=0x0 pc=0x4711]\n\n" +
		"goroutine 1 gp=0xc000002380 m=0 mp=0x5b1a0 [running]:\n" +
		"runtime.throw({0x4f0b2e?, 0x0?})\n\t/usr/local/go/src/runtime/panic.go:1094 +0x48 fp=0xc0000 sp=0xc0000 pc=0x4711\n" +
		"runtime.sigpanic()\n\t/usr/local/go/src/runtime/signal_unix.go:939 +0x26f fp=0xc0000 sp=0xc0000 pc=0x4711\n" +
		"runtime.nanotime1()\n\t/usr/local/go/src/runtime/sys_linux_amd64.s:101 +0x10a fp=0xc0000 sp=0xc0000 pc=0x4711\n"
	ownFault := "discover: " + d + "\npanic: runtime error: invalid memory address or nil pointer dereference\n" +
		"[signal SIGSEGV: segmentation violation code=0x80 addr=0x0 pc=0x4711]\n\n" +
		"goroutine 7 gp=0xc000002380 m=3 mp=0x5b1a0 [running]:\n" +
		"panic({0x4f0b2e?, 0x0?})\n\t/usr/local/go/src/runtime/panic.go:115 +0x48\n" +
		"runtime.sigpanic()\n\t/usr/local/go/src/runtime/signal_unix.go:939 +0x26f\n" +
		"github.com/tickstamp/counter.readTSC()\n\tgithub.com/tickstamp/counter/read_amd64.s:9 +0x5\n"
	// As a child on a 2-vCPU KVM guest whose kernel enforces the flag died,
	// when the raw clock was a blocking system call: in the runtime's clock
	// read as that call returned, on the system stack.
	rawClockFault := "discover: " + d + "\nmeasure: " + d + "\nSIGSEGV: segmentation violation\n" +
		"PC=0x7f7634c2eb63 m=0 sigcode=128 addr=0x0\n\n" +
		"goroutine 0 gp=0xa88500 m=0 mp=0xa89500 [idle]:\n" +
		"runtime.nanotime(...)\n\t/usr/local/go/src/runtime/time_nofake.go:33\n" +
		"runtime.pidleget(0x0?)\n\t/usr/local/go/src/runtime/proc.go:7409 +0x39 fp=0x7ffd8f0e8fa0 sp=0x7ffd8f0e8f68 pc=0x464d99\n" +
		"runtime.exitsyscallTryGetP(0x125b5a040008?)\n\t/usr/local/go/src/runtime/proc.go:5047 +0x51 fp=0x7ffd8f0e8ff0 sp=0x7ffd8f0e8fa0 pc=0x45f771\n\n" +
		"goroutine 8 gp=0x125b5a2321e0 m=0 mp=0xa89500 [running, locked to thread]:\n" +
		"runtime.nanotime(...)\n\t/usr/local/go/src/runtime/time_nofake.go:33\n" +
		"github.com/tickstamp/counter/internal/rawclock.Syscall(...)\n\t/work/main/internal/rawclock/rawclock.go:40\n"
	// The same fault with the goroutine elsewhere: the scheduler, say, ran
	// on the flagged thread when the goroutine was preempted.
	systemStackFault := strings.Replace(rawClockFault, "github.com/tickstamp/counter/internal/rawclock.Syscall(...)\n\t/work/main/internal/rawclock/rawclock.go:40\n",
		"runtime.gopreempt_m(...)\n\t/usr/local/go/src/runtime/proc.go:4301\n", 1)
	ownSystemStackFault := strings.Replace(systemStackFault, "runtime.nanotime(...)\n\t/usr/local/go/src/runtime/time_nofake.go:33\nruntime.pidleget",
		"github.com/tickstamp/counter.stampNow(...)\n\t/work/main/read_amd64.s:20\nruntime.pidleget", 1)
	// As a child under two busy loops died, 1 in 2,000: the scheduler read
	// the clock before the child's first line.
	firstFault := "SIGSEGV: segmentation violation\nPC=0x7f7634c2eb63 m=2 sigcode=128 addr=0x0\n\n" +
		"goroutine 0 gp=0xc000102000 m=2 mp=0xc000100008 [idle]:\n" +
		"runtime.nanotime(...)\n\t/usr/local/go/src/runtime/time_nofake.go:33\n" +
		"runtime.pidleget(0x0?)\n\t/usr/local/go/src/runtime/proc.go:7409 +0x39\n" +
		"runtime.wakep()\n\t/usr/local/go/src/runtime/proc.go:3205 +0x5c\n" +
		"runtime.goschedImpl(0xc000003a40, 0x0)\n\t/usr/local/go/src/runtime/proc.go:4280 +0x1b5\n"
	// As a child under two busy loops died, 1 in 12,000: the scheduler
	// preempted the goroutine at the raw clock's call of its system call,
	// and read the clock on the flagged thread.
	preemptedInRawClock := "discover: " + d + "\nmeasure: " + d + "\nSIGSEGV: segmentation violation\n" +
		"PC=0x7ff3427e9b63 m=0 sigcode=128 addr=0x0\n\n" +
		"goroutine 0 gp=0xb56420 m=0 mp=0xb57820 [idle]:\n" +
		"runtime.nanotime(...)\n\t/usr/local/go/src/runtime/time_nofake.go:33\n" +
		"runtime.pidleget(0x8000?)\n\t/usr/local/go/src/runtime/proc.go:7409 +0x39\n" +
		"runtime.wakep()\n\t/usr/local/go/src/runtime/proc.go:3205 +0x5c\n" +
		"runtime.goschedImpl(0x240678000960, 0x1)\n\t/usr/local/go/src/runtime/proc.go:4280 +0x1b5\n" +
		"runtime.gopreempt_m(...)\n\t/usr/local/go/src/runtime/proc.go:4301\n" +
		"runtime.newstack()\n\t/usr/local/go/src/runtime/stack.go:1119 +0x3a5\n" +
		"runtime.morestack()\n\t/usr/local/go/src/runtime/asm_amd64.s:657 +0x7c\n\n" +
		"goroutine 20 gp=0x240678000960 m=nil [runnable, locked to thread]:\n" +
		"github.com/tickstamp/counter/internal/rawclock.syscallNanos()\n\t/work/main/internal/rawclock/syscall_linux.go:16 +0xac\n" +
		"github.com/tickstamp/counter/internal/rawclock.Syscall(...)\n\t/work/main/internal/rawclock/rawclock.go:41\n"
	for _, tc := range []struct {
		name          string
		out           string
		exited0, segv bool
		wantOK        bool
	}{
		{"runtime's clock faulted before the first line", firstFault, false, false, true},
		{"the scheduler preempted the raw clock's goroutine", preemptedInRawClock, false, false, true},
		{"runtime faulted on its system stack", systemStackFault, false, false, true},
		{"the raw clock's return faulted", rawClockFault, false, false, false},
		{"the package faulted on the system stack", ownSystemStackFault, false, false, false},
		{"every step", all, true, false, true},
		{"a step missing", strings.Replace(all, "raw reads: true\n", "", 1), true, false, false},
		{"discover ran", strings.Replace(all, "discover: "+d, "discover: <nil>", 1), true, false, false},
		{"raw clock failed", strings.Replace(all, "raw reads: true", "raw reads: false", 1), true, false, false},
		{"still refused after clearing", strings.Replace(all, "cleared, discover: <nil>", "cleared, discover: "+d, 1), true, false, false},
		{"killed before main", "", false, true, true},
		{"runtime faulted", runtimeFault, false, false, true},
		{"the package faulted", ownFault, false, false, false},
		{"the package's vDSO call faulted", strings.Replace(ownFault, "github.com/tickstamp/counter.readTSC()\n\tgithub.com/tickstamp/counter/read_amd64.s:9",
			"github.com/tickstamp/counter/internal/rawclock.vdsoClockGettime(0x7ffd8f0e8000, 0x4)\n\tgithub.com/tickstamp/counter/internal/rawclock/vdso_linux_amd64.s:34", 1), false, false, false},
		{"another failure", "discover: " + d + "\npanic: something else\n", false, false, false},
		{"a fault after a wrong step", strings.Replace(runtimeFault, d, "<nil>", 1), false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outcome, problem := judgeFaultChild(tc.out, tc.exited0, tc.segv)
			if (problem == nil) != tc.wantOK {
				t.Errorf("got %q, %v; want ok %v", outcome, problem, tc.wantOK)
			}
			if tc.name == "runtime's clock faulted before the first line" && (!outcome.judgedNothing() || outcome.how != "the runtime's clock read faulted") {
				t.Errorf("got %q; want the runtime's clock read, judging nothing", outcome)
			}
		})
	}
}
