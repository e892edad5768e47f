//go:build !purego

// Read on Linux on amd64: CLOCK_MONOTONIC_RAW through the vDSO's
// clock_gettime, which reads it without entering the kernel, where the
// kernel offers it there; the system call elsewhere.

package rawclock

import (
	"errors"
	"sync"

	"golang.org/x/sys/unix"
)

// The vDSO's clock_gettime on amd64, by its name and version there.
const (
	vdsoClockName    = "__vdso_clock_gettime"
	vdsoClockVersion = "LINUX_2.6"
)

// vdsoClockGettime calls the C function at fn, which must be the vDSO's
// clock_gettime, for clock, and returns the reading in nanoseconds, with ok
// true where the function returned 0; where it did not, ns is 0 and ok
// false. It is in vdso_linux_amd64.s.
func vdsoClockGettime(fn uintptr, clock int32) (ns int64, ok bool)

// A Clock is the brackets' read of the raw clock, as [Open] chose it: fn is
// the vDSO's clock_gettime where Open chose it, else 0, and why says why
// not. The zero Clock reads by the system call.
type Clock struct {
	fn  uintptr
	why error
}

// vdso is the look-up of the vDSO's clock_gettime, made once, by the first
// Open whose thread does not fault: fn where it was found and answered,
// else 0, and err says why not.
var vdso struct {
	once sync.Once
	fn   uintptr
	err  error
}

// open is Open.
func open(faults bool) Clock {
	fn, err := choose(faults, func() (uintptr, error) {
		vdso.once.Do(func() { vdso.fn, vdso.err = findVDSOClock(unix.Auxv) })
		return vdso.fn, vdso.err
	})
	return Clock{fn, err}
}

// read is Clock.Read: through the vDSO where Open chose it.
func (c Clock) read() int64 { return via(c.fn) }

// kind names the read: "vdso" or "system call".
func (c Clock) kind() string {
	if c.fn != 0 {
		return "vdso"
	}
	return "system call"
}

// via reads CLOCK_MONOTONIC_RAW through the vDSO's clock_gettime at fn, or
// by the system call where fn is 0 or the vDSO returns an error.
func via(fn uintptr) int64 {
	if fn != 0 {
		if ns, ok := vdsoClockGettime(fn, unix.CLOCK_MONOTONIC_RAW); ok {
			return ns
		}
	}
	return syscallNanos()
}

// choose returns the vDSO's clock_gettime that find returns, or 0 and why
// not. Where faults reports that RDTSC faults on the calling thread, it
// returns 0 without looking: the vDSO's read executes RDTSC.
func choose(faults bool, find func() (uintptr, error)) (uintptr, error) {
	if faults {
		return 0, errors.New("counter: RDTSC faults on this thread, and the vDSO's clock_gettime executes it")
	}
	return find()
}

// findVDSOClock returns the vDSO's clock_gettime, found through the
// auxiliary vector that auxv returns, once it has read CLOCK_MONOTONIC_RAW
// with it: the call must return 0, and its reading lie between two of the
// system call's. It returns 0 and the reason where there is no vDSO, no
// such function in it, or the function failed.
func findVDSOClock(auxv func() ([][2]uintptr, error)) (uintptr, error) {
	vec, err := auxv()
	if err != nil {
		return 0, errors.New("counter: no auxiliary vector: " + err.Error())
	}
	var base uintptr
	for _, kv := range vec {
		if kv[0] == atSysinfoEHDR {
			base = kv[1]
		}
	}
	if base == 0 {
		return 0, errors.New("counter: the kernel maps no vDSO")
	}
	fn, err := vdsoFunc(base, vdsoClockName, vdsoClockVersion)
	if err != nil {
		return 0, err
	}
	s0 := syscallNanos()
	v, ok := vdsoClockGettime(fn, unix.CLOCK_MONOTONIC_RAW)
	s1 := syscallNanos()
	switch {
	case !ok:
		return 0, errors.New("counter: the vDSO's clock_gettime refuses CLOCK_MONOTONIC_RAW")
	case v < s0 || v > s1:
		return 0, errors.New("counter: the vDSO's clock_gettime disagrees with the system call")
	}
	return fn, nil
}
