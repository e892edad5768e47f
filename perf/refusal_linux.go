package perf

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Why perf_event_open refused, where it refused permission.
//
// Linux checks kernel.perf_event_paranoid only for a process that lacks
// CAP_PERFMON (Linux 5.8 and later) and CAP_SYS_ADMIN in the initial user
// namespace, and answers every refusal of its own with EACCES:
//
//	level  an unprivileged process may count
//	-1, 0  anything this package asks for (the levels differ in tracepoints)
//	1      its own threads, user space and kernel; not whole CPUs
//	2      its own threads, user space only (Linux's default since 4.6)
//	≥ 3    nothing, on Debian's, Ubuntu's and Android's kernels, whose patch
//	       adds the level; mainline Linux reads 3 and above as 2
//
// A seccomp filter (a container runtime's, typically answering EPERM) or a
// security module (SELinux answering EACCES, lockdown EPERM) refuses before
// or after those checks, whatever the level and the capabilities.

// A request is what one perf_event_open call asks of the permission checks.
type request struct {
	kernel  bool // count kernel space too: exclude_kernel clear
	cpuWide bool // count a whole CPU (pid -1) rather than threads; this package never does, and the rules have it for completeness
}

// A privilege is what the calling thread holds that lifts
// kernel.perf_event_paranoid's limits.
type privilege struct {
	perfmon       bool // CAP_PERFMON is effective
	sysAdmin      bool // CAP_SYS_ADMIN is effective
	initialUserNS bool // the thread is in the initial user namespace, the one where the kernel checks both
}

// exempt reports whether p lifts kernel.perf_event_paranoid's limits: a
// capability counts only in the initial user namespace, so root in a
// container with a user namespace of its own is not exempt.
func (p privilege) exempt() bool { return (p.perfmon || p.sysAdmin) && p.initialUserNS }

// paranoidForbids reports whether kernel.perf_event_paranoid at level
// forbids req to a process that is not exempt.
func paranoidForbids(level int, req request) bool {
	switch {
	case level >= 3:
		return true
	case level == 2:
		return req.kernel || req.cpuWide
	case level == 1:
		return req.cpuWide
	}
	return false
}

// paranoidAllows says in words what an unprivileged process may count at
// level.
func paranoidAllows(level int) string {
	switch {
	case level >= 3:
		return "which on Debian, Ubuntu and Android kernels allows an unprivileged process no counter at all (mainline Linux reads it as 2)"
	case level == 2:
		return "which allows an unprivileged process to count its threads in user space only"
	case level == 1:
		return "which allows an unprivileged process to count its threads in user space and the kernel, but not whole CPUs"
	}
	return "which allows an unprivileged process every counter of its own threads"
}

// refusalReason explains a refusal errno of req, where paranoid is the
// level of kernel.perf_event_paranoid (known false where it could not be
// read) and priv the calling thread's privilege. It returns "" for an errno
// that is no refusal of permission. It blames kernel.perf_event_paranoid
// only where the refusal can be its: EACCES, for a process it applies to,
// at a level that forbids req (or an unknown level, where it says it cannot
// tell); otherwise it names a seccomp filter or a security module.
func refusalReason(errno syscall.Errno, paranoid int, known bool, req request, priv privilege) string {
	if errno != unix.EACCES && errno != unix.EPERM {
		return ""
	}
	const elsewhere = "a seccomp filter (as container runtimes install) or a security module (SELinux, AppArmor, lockdown) refused it"
	at := "kernel.perf_event_paranoid"
	if known {
		at += " at " + strconv.Itoa(paranoid)
	}
	switch {
	case priv.exempt():
		return "refused though the process holds " + heldCapability(priv) + ", which lifts " + at + ": " + elsewhere
	case errno == unix.EPERM:
		return "refused with EPERM, which " + at + " never answers (it answers EACCES): " + elsewhere
	case !known:
		return "refused, and kernel.perf_event_paranoid is unreadable: either its level forbids this counter without CAP_PERFMON, or " + elsewhere
	case paranoidForbids(paranoid, req):
		return "refused by " + at + ", " + paranoidAllows(paranoid) + "; CAP_PERFMON (or CAP_SYS_ADMIN) lifts the limit"
	}
	return at + " allows this counter, so " + elsewhere
}

// heldCapability names the capability p holds that lifts the limits.
func heldCapability(p privilege) string {
	if p.perfmon {
		return "CAP_PERFMON"
	}
	return "CAP_SYS_ADMIN"
}

// openRefusal is refusalReason for the calling thread and this machine: it
// reads kernel.perf_event_paranoid, the thread's effective capabilities and
// its user namespace. It runs only after a refusal, off every counting path.
func openRefusal(errno syscall.Errno, opts Options) string {
	level, known := readParanoid()
	return refusalReason(errno, level, known, request{kernel: opts.Kernel}, readPrivilege())
}

// readParanoid returns kernel.perf_event_paranoid's level, and false where
// it cannot be read.
func readParanoid() (int, bool) {
	b, err := os.ReadFile("/proc/sys/kernel/perf_event_paranoid")
	if err != nil {
		return 0, false
	}
	level, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return level, err == nil
}

// initialUserNSLink is what /proc/self/ns/user links to in the initial user
// namespace, whose inode number the kernel fixes (PROC_USER_INIT_INO).
const initialUserNSLink = "user:[4026531837]"

// readPrivilege returns the calling thread's effective CAP_PERFMON and
// CAP_SYS_ADMIN, and whether it is in the initial user namespace. Where the
// capabilities cannot be read it returns none; where the namespace link
// cannot be read (a kernel without user namespaces) it takes the namespace
// for the initial one, the only one there is.
func readPrivilege() privilege {
	var p privilege
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData // version 3 fills two: capabilities 0-31 and 32-63
	if unix.Capget(&hdr, &data[0]) == nil {
		p.perfmon = hasCapability(data, unix.CAP_PERFMON)
		p.sysAdmin = hasCapability(data, unix.CAP_SYS_ADMIN)
	}
	link, err := os.Readlink("/proc/thread-self/ns/user")
	p.initialUserNS = err != nil || link == initialUserNSLink
	return p
}

// hasCapability reports whether the effective set of data holds capability
// c, numbered as in linux/capability.h.
func hasCapability(data [2]unix.CapUserData, c int) bool {
	return data[c/32].Effective&(1<<(c%32)) != 0
}
