package perf

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestParanoidRules checks paranoidForbids against the kernel's rules for a
// process without CAP_PERFMON: at 1 no whole CPUs, at 2 no kernel either,
// at 3 and above (Debian's patch) nothing; -1 and 0 allow every counter this
// package opens.
func TestParanoidRules(t *testing.T) {
	for _, tc := range []struct {
		level                           int
		user, kernel, cpu, kernelAndCPU bool // forbidden?
	}{
		{-1, false, false, false, false},
		{0, false, false, false, false},
		{1, false, false, true, true},
		{2, false, true, true, true},
		{3, true, true, true, true},
		{4, true, true, true, true},
	} {
		for _, c := range []struct {
			req  request
			want bool
		}{
			{request{}, tc.user},
			{request{kernel: true}, tc.kernel},
			{request{cpuWide: true}, tc.cpu},
			{request{kernel: true, cpuWide: true}, tc.kernelAndCPU},
		} {
			if got := paranoidForbids(tc.level, c.req); got != c.want {
				t.Errorf("level %d, %+v: forbids %v; want %v", tc.level, c.req, got, c.want)
			}
		}
	}
}

// TestRefusalReason checks that a refusal blames kernel.perf_event_paranoid
// only where it can be its doing: EACCES, a process without the
// capabilities in the initial user namespace, and a level that forbids the
// request.
func TestRefusalReason(t *testing.T) {
	var (
		none      = privilege{initialUserNS: true}
		sysAdmin  = privilege{sysAdmin: true, initialUserNS: true}
		perfmon   = privilege{perfmon: true, initialUserNS: true}
		container = privilege{sysAdmin: true, perfmon: true} // root in a user namespace of its own
		user      = request{}
		kernel    = request{kernel: true}
		cpu       = request{cpuWide: true}
	)
	const (
		blamesParanoid = iota
		blamesElsewhere
		cannotTell
		noReason
	)
	for _, tc := range []struct {
		name  string
		errno syscall.Errno
		level int
		known bool
		req   request
		priv  privilege
		want  int
	}{
		{"seccomp EPERM, CAP_SYS_ADMIN, level 2 (issue 10.8)", unix.EPERM, 2, true, user, sysAdmin, blamesElsewhere},
		{"seccomp EPERM, unprivileged, level 2", unix.EPERM, 2, true, user, none, blamesElsewhere},
		{"EPERM for the kernel at 2", unix.EPERM, 2, true, kernel, none, blamesElsewhere},
		{"kernel at 2, unprivileged", unix.EACCES, 2, true, kernel, none, blamesParanoid},
		{"user space at 2, unprivileged", unix.EACCES, 2, true, user, none, blamesElsewhere},
		{"kernel at 1, unprivileged", unix.EACCES, 1, true, kernel, none, blamesElsewhere},
		{"whole CPU at 1, unprivileged", unix.EACCES, 1, true, cpu, none, blamesParanoid},
		{"whole CPU at 0, unprivileged", unix.EACCES, 0, true, cpu, none, blamesElsewhere},
		{"kernel at -1, unprivileged", unix.EACCES, -1, true, kernel, none, blamesElsewhere},
		{"user space at 3 (Debian)", unix.EACCES, 3, true, user, none, blamesParanoid},
		{"user space at 4 (Ubuntu)", unix.EACCES, 4, true, user, none, blamesParanoid},
		{"kernel at 2, CAP_PERFMON", unix.EACCES, 2, true, kernel, perfmon, blamesElsewhere},
		{"user space at 3, CAP_SYS_ADMIN", unix.EACCES, 3, true, user, sysAdmin, blamesElsewhere},
		{"kernel at 2, root in a user namespace", unix.EACCES, 2, true, kernel, container, blamesParanoid},
		{"EACCES, level unreadable", unix.EACCES, 0, false, user, none, cannotTell},
		{"EACCES, level unreadable, CAP_PERFMON", unix.EACCES, 0, false, user, perfmon, blamesElsewhere},
		{"ENOENT", unix.ENOENT, 2, true, kernel, none, noReason},
		{"EINVAL", unix.EINVAL, 3, true, user, none, noReason},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := refusalReason(tc.errno, tc.level, tc.known, tc.req, tc.priv)
			blames := strings.HasPrefix(got, "refused by kernel.perf_event_paranoid at "+strconv.Itoa(tc.level)+",")
			elsewhere := strings.Contains(got, "seccomp filter") && strings.Contains(got, "security module")
			var ok bool
			switch tc.want {
			case blamesParanoid:
				ok = blames && !elsewhere && strings.Contains(got, "CAP_PERFMON")
			case blamesElsewhere:
				ok = !blames && elsewhere
			case cannotTell:
				ok = !blames && elsewhere && strings.Contains(got, "unreadable")
			case noReason:
				ok = got == ""
			}
			if !ok {
				t.Errorf("got %q; want %s", got, [...]string{"paranoid blamed", "a seccomp filter or security module blamed", "both named as possible", "no reason"}[tc.want])
			}
		})
	}
}

func TestHasCapability(t *testing.T) {
	var data [2]unix.CapUserData
	data[0].Effective = 1 << unix.CAP_SYS_ADMIN
	data[1].Permitted = 1 << (unix.CAP_PERFMON - 32) // permitted, not effective
	if !hasCapability(data, unix.CAP_SYS_ADMIN) || hasCapability(data, unix.CAP_PERFMON) || hasCapability(data, unix.CAP_SYS_RESOURCE) {
		t.Errorf("%+v: wrong capabilities read", data)
	}
	data[1].Effective = 1 << (unix.CAP_PERFMON - 32)
	if !hasCapability(data, unix.CAP_PERFMON) {
		t.Errorf("%+v: CAP_PERFMON not read", data)
	}
}

// TestReadPrivilege checks the capabilities capget gives against the
// thread's CapEff line in /proc.
func TestReadPrivilege(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b, err := os.ReadFile("/proc/thread-self/status")
	if err != nil {
		t.Skip(err)
	}
	var eff uint64
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
			eff, err = strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			must(t, err)
		}
	}
	p := readPrivilege()
	t.Logf("CapEff %#x: %+v", eff, p)
	if p.sysAdmin != (eff>>unix.CAP_SYS_ADMIN&1 == 1) || p.perfmon != (eff>>unix.CAP_PERFMON&1 == 1) {
		t.Errorf("read %+v; /proc says CapEff %#x", p, eff)
	}
}

// seccompChildEnv, set to 1, makes TestSeccompRefusal the child that runs
// under the filter.
const seccompChildEnv = "PERF_TEST_SECCOMP_CHILD"

// TestSeccompRefusal opens a counter under a seccomp filter that answers
// perf_event_open with EPERM, as container runtimes do, in a child process
// (a filter cannot be removed), and checks the error wraps os.ErrPermission
// and blames the filter, not kernel.perf_event_paranoid.
func TestSeccompRefusal(t *testing.T) {
	if os.Getenv(seccompChildEnv) == "1" {
		seccompChild(t)
		return
	}
	if c, err := Open(Options{}, TaskClock); err != nil {
		t.Skipf("no counters here to refuse: %v", err)
	} else {
		c.Close()
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSeccompRefusal$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), seccompChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	if err != nil || !strings.Contains(string(out), "--- PASS: TestSeccompRefusal") {
		t.Errorf("the child under the seccomp filter failed: %v", err)
	}
}

// seccompChild installs the filter on every thread and opens a counter.
func seccompChild(t *testing.T) {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		t.Fatalf("PR_SET_NO_NEW_PRIVS: %v", err)
	}
	filter := []unix.SockFilter{
		{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}, // seccomp_data.nr
		{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: 0, Jf: 1, K: unix.SYS_PERF_EVENT_OPEN},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
		{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
	}
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog))); errno != 0 {
		t.Skipf("seccomp: %v", errno)
	}
	_, err := Open(Options{}, TaskClock)
	t.Logf("under the filter: %v", err)
	var oe *OpenError
	if !errors.As(err, &oe) || !errors.Is(err, os.ErrPermission) || !errors.Is(err, unix.EPERM) {
		t.Fatalf("got %v; want an *OpenError wrapping EPERM and os.ErrPermission", err)
	}
	if msg := err.Error(); strings.Contains(msg, "refused by kernel.perf_event_paranoid") || !strings.Contains(msg, "seccomp filter") {
		t.Errorf("%q blames the wrong setting; want the seccomp filter named", msg)
	}
}

// TestOpenErrorKinds checks which of the kernel's answers wrap
// errors.ErrUnsupported and which os.ErrPermission.
func TestOpenErrorKinds(t *testing.T) {
	// The kernel says it has no counter with ENOENT, EOPNOTSUPP or ENODEV;
	// a system (or qemu-user) without perf_event_open says ENOSYS; EINVAL
	// is a missing counter only for a hardware event, the PMU refusing a
	// config it lacks, and otherwise a bad request.
	for _, c := range []struct {
		ev          Event
		errno       syscall.Errno
		unsupported bool
	}{
		{Cycles, unix.ENOENT, true},
		{TaskClock, unix.ENOENT, true},
		{Cycles, unix.EOPNOTSUPP, true},
		{MajorFaults, unix.EOPNOTSUPP, true},
		{Cycles, unix.ENODEV, true},
		{PageFaults, unix.ENODEV, true},
		{TaskClock, unix.ENOSYS, true},
		{Instructions, unix.ENOSYS, true},
		{BranchMisses, unix.EINVAL, true},
		{TaskClock, unix.EINVAL, false},
		{TaskClock, unix.EMFILE, false},
		{Cycles, unix.EBUSY, false},
		{Cycles, unix.EACCES, false},
		{TaskClock, unix.EPERM, false},
	} {
		e := openError(c.ev, Options{}, c.errno)
		var oe *OpenError
		if !errors.As(e, &oe) || oe.Event != c.ev || !errors.Is(e, c.errno) || errors.Is(e, errors.ErrUnsupported) != c.unsupported {
			t.Errorf("%v for %v: %v; want an *OpenError wrapping the errno, and errors.ErrUnsupported %v", c.errno, c.ev, e, c.unsupported)
		}
	}
	for _, errno := range []syscall.Errno{unix.EACCES, unix.EPERM} {
		e := openError(Instructions, Options{Kernel: true}, errno)
		if !errors.Is(e, os.ErrPermission) || errors.Is(e, errors.ErrUnsupported) || !strings.Contains(e.Error(), "kernel.perf_event_paranoid") {
			t.Errorf("%v: %v; want os.ErrPermission, and the setting named", errno, e)
		}
		t.Logf("%v here: %v", errno, e)
	}
}

// paranoidChildEnv, set to 1, makes TestParanoidRefusal the child that runs
// without privilege.
const paranoidChildEnv = "PERF_TEST_PARANOID_CHILD"

// TestParanoidRefusal asks for the kernel's events where
// kernel.perf_event_paranoid forbids them to an unprivileged process, and
// checks Open and OpenGroup refuse with an *OpenError that wraps
// os.ErrPermission and names the setting and its level, as Options.Kernel
// and OpenError promise. A process exempt from the setting runs the test
// again in a child as user nobody, if it is root and so may.
func TestParanoidRefusal(t *testing.T) {
	level, known := readParanoid()
	if !known || level < 2 {
		t.Skipf("kernel.perf_event_paranoid at %d (readable %v) allows counting the kernel", level, known)
	}
	child := os.Getenv(paranoidChildEnv) == "1"
	if readPrivilege().exempt() {
		if child {
			t.Fatal("the child is still exempt from kernel.perf_event_paranoid")
		}
		if os.Geteuid() != 0 {
			t.Skip("exempt from kernel.perf_event_paranoid, and not root to run a child without privilege")
		}
		runParanoidChild(t)
		return
	}
	if c, err := Open(Options{}, TaskClock); errors.Is(err, errors.ErrUnsupported) {
		t.Skip(err)
	} else if level == 2 && err != nil {
		t.Errorf("user space at level 2: %v; want it allowed", err)
	} else if err == nil {
		c.Close()
	}
	_, err := Open(Options{Kernel: true}, TaskClock)
	_, groupErr := OpenGroup(Options{Kernel: true}, PageFaults, TaskClock)
	for _, err := range []error{err, groupErr} {
		t.Logf("the kernel at %d: %v", level, err)
		var oe *OpenError
		if !errors.As(err, &oe) || oe.Event != PageFaults && oe.Event != TaskClock || !errors.Is(err, os.ErrPermission) || !errors.Is(err, unix.EACCES) {
			t.Fatalf("got %v; want an *OpenError wrapping EACCES and os.ErrPermission", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "refused by kernel.perf_event_paranoid at "+strconv.Itoa(level)+",") || strings.Contains(msg, "seccomp") {
			t.Errorf("%q: want kernel.perf_event_paranoid at %d blamed, and nothing else", msg, level)
		}
	}
}

// runParanoidChild runs TestParanoidRefusal in a child as user nobody,
// which holds no capability, from a copy of the test binary that nobody may
// run.
func runParanoidChild(t *testing.T) {
	dir, err := os.MkdirTemp("", "perf-paranoid")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	must(t, os.Chmod(dir, 0o755))
	bin, err := os.ReadFile(os.Args[0])
	must(t, err)
	exe := filepath.Join(dir, "perf.test")
	must(t, os.WriteFile(exe, bin, 0o755))
	cmd := exec.Command(exe, "-test.run=^TestParanoidRefusal$", "-test.count=1", "-test.v")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), paranoidChildEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if exit := (*exec.ExitError)(nil); err != nil && !errors.As(err, &exit) {
		// A container whose user namespace maps no user nobody, say.
		t.Skipf("cannot start a child as user nobody here: %v", err)
	}
	t.Logf("child as nobody:\n%s", out)
	if err != nil || !strings.Contains(string(out), "--- PASS: TestParanoidRefusal") {
		t.Errorf("the child without privilege failed or skipped: %v", err)
	}
}
