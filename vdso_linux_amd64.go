//go:build !purego

// The read of the raw clock in the brackets of the per-CPU check and the
// watch (machineClocks) on Linux on amd64: CLOCK_MONOTONIC_RAW through the
// vDSO's clock_gettime, which reads it without entering the kernel, where
// the kernel offers it there; the system call elsewhere.

package counter

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

// bracketClock is how the brackets read the raw clock, settled once, by the
// first bracketNanos or bracketReadKind: fn is the vDSO's clock_gettime
// where it was found and answered, else 0, and err says why not.
var bracketClock struct {
	once sync.Once
	fn   uintptr
	err  error
}

// bracketNanos returns CLOCK_MONOTONIC_RAW in nanoseconds, for a bracket:
// through the vDSO where settleBracketClock found it there, by the system
// call of rawNanos otherwise, and wherever the vDSO returns an error. The
// vDSO's read executes RDTSC where the kernel's clocksource reads the TSC,
// so unlike rawNanos it must not run on a thread where RDTSC faults
// ([ErrDisabled]); no bracket does.
func bracketNanos() int64 {
	bracketClock.once.Do(settleBracketClock)
	return rawVia(bracketClock.fn)
}

// bracketReadKind names how the brackets read the raw clock: "vdso" or
// "system call".
func bracketReadKind() string {
	bracketClock.once.Do(settleBracketClock)
	if bracketClock.fn != 0 {
		return "vdso"
	}
	return "system call"
}

// rawVia reads CLOCK_MONOTONIC_RAW through the vDSO's clock_gettime at fn,
// or by the system call where fn is 0 or the vDSO returns an error.
func rawVia(fn uintptr) int64 {
	if fn != 0 {
		if ns, ok := vdsoClockGettime(fn, unix.CLOCK_MONOTONIC_RAW); ok {
			return ns
		}
	}
	return rawNanos()
}

// settleBracketClock settles bracketClock. On a thread where RDTSC faults
// it settles on the system call without trying the vDSO, whose read
// executes RDTSC.
func settleBracketClock() {
	if readsFault() {
		bracketClock.err = errors.New("counter: RDTSC faults on this thread, and the vDSO's clock_gettime executes it")
		return
	}
	bracketClock.fn, bracketClock.err = findVDSOClock(unix.Auxv)
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
	s0 := rawNanos()
	v, ok := vdsoClockGettime(fn, unix.CLOCK_MONOTONIC_RAW)
	s1 := rawNanos()
	switch {
	case !ok:
		return 0, errors.New("counter: the vDSO's clock_gettime refuses CLOCK_MONOTONIC_RAW")
	case v < s0 || v > s1:
		return 0, errors.New("counter: the vDSO's clock_gettime disagrees with the system call")
	}
	return fn, nil
}
