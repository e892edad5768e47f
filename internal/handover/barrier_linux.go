package handover

import "golang.org/x/sys/unix"

// The commands of membarrier(2) used here, from linux/membarrier.h.
const (
	membarrierQuery                    = 0
	membarrierPrivateExpedited         = 1 << 3
	membarrierRegisterPrivateExpedited = 1 << 4
)

// registerMembarrier reports whether this process can issue an expedited
// private membarrier, registering it for one: Linux 4.14 and later, unless
// a seccomp filter or a sandbox (gVisor) refuses the system call. The
// registration can wait for the kernel's RCU grace period, once a process.
func registerMembarrier() bool {
	r, _, errno := unix.Syscall(unix.SYS_MEMBARRIER, membarrierQuery, 0, 0)
	if errno != 0 || r&membarrierPrivateExpedited == 0 {
		return false
	}
	_, _, errno = unix.Syscall(unix.SYS_MEMBARRIER, membarrierRegisterPrivateExpedited, 0, 0)
	return errno == 0
}

// membarrier returns nil once every thread of the process that was running
// has passed through a full memory barrier: each store one of them made
// before it is visible to the caller, and each load one of them makes after
// it sees every store the caller made before the call. It interrupts each
// CPU that runs one of the process's threads, and no other. The kernel
// promises success once registered, but a seccomp filter installed since
// may refuse the call: then it returns the error.
//
// It is a raw system call, which keeps the calling goroutine's P: the call
// waits for the other CPUs' interrupts and never sleeps, and a goroutine
// that gave its P up for it (as syscall.Syscall lets the runtime do past
// 20 µs) would wait, on return, for a P that writers recording flat out
// hold for a scheduling quantum, 10 ms.
func membarrier() error {
	_, _, errno := unix.RawSyscall(unix.SYS_MEMBARRIER, membarrierPrivateExpedited, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
