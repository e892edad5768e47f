package affinity

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// maxCPUs is the largest CPU number a [unix.CPUSet] holds, plus one.
const maxCPUs = len(unix.CPUSet{}) * 64

// Allowed returns the CPUs the calling thread may run on, in increasing
// order: the process's affinity mask, unless the thread was pinned.
func Allowed() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, err
	}
	cpus := make([]int, 0, set.Count())
	for cpu := range maxCPUs {
		if set.IsSet(cpu) {
			cpus = append(cpus, cpu)
		}
	}
	return cpus, nil
}

// Pin locks the calling goroutine to its thread and the thread to cpu. The
// returned function gives the thread its previous mask back and unlocks it;
// where the mask cannot be restored, it leaves the thread locked, so that
// the runtime ends the thread with its goroutine rather than reuse a pinned
// one, and returns the error. Where Pin fails, nothing is locked.
func Pin(cpu int) (unpin func() error, err error) {
	runtime.LockOSThread()
	var old, one unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	one.Set(cpu)
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	return func() error {
		if err := unix.SchedSetaffinity(0, &old); err != nil {
			return err
		}
		runtime.UnlockOSThread()
		return nil
	}, nil
}

// Current returns the CPU the calling thread is running on, by the getcpu
// system call (x/sys/unix has no wrapper). Unless the thread is pinned, it
// may have moved by the time the caller looks.
func Current() (int, error) {
	var cpu uint32
	if _, _, errno := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), 0, 0); errno != 0 {
		return -1, errno
	}
	return int(cpu), nil
}
