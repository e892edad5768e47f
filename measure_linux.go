// What measuring the counter needs from Linux: first the raw reference
// clock, CLOCK_MONOTONIC_RAW, then which CPU the thread runs on, for a
// measurement on a CPU whose counter instruction does not say.

package counter

import (
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/tickstamp/counter/internal/affinity"
)

// haveRawClock reports whether rawNanos reads a clock no time daemon slews.
const haveRawClock = true

// rawNanos returns CLOCK_MONOTONIC_RAW in nanoseconds. It is a raw system
// call (x/sys has no vDSO path): a few hundred nanoseconds on a guest whose
// clocksource is tsc, 1.3 µs on a Bhyve guest on kvm-clock. Raw, it returns
// straight to its caller: a blocking call's return may run the scheduler,
// which reads the runtime's clock through the vDSO, and so executes RDTSC
// where the kernel's clocksource is the TSC; this executes none, so it reads
// on a thread where RDTSC faults ([ErrDisabled]), and it is tens of
// nanoseconds quicker, which narrows every bracket. clock_gettime never
// blocks, so holding the processor through it costs the scheduler nothing.
// It is the read of [RawMonotonicClock] and of discovery's measurement, and
// that of the per-CPU check's and the watch's brackets where they cannot
// read the clock through the vDSO (see bracketNanos). Every kernel Go runs
// on has that clock; rawNanos panics if the kernel refuses it all the same.
func rawNanos() int64 {
	var ts unix.Timespec
	_, _, errno := unix.RawSyscall(unix.SYS_CLOCK_GETTIME, unix.CLOCK_MONOTONIC_RAW, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		panic("counter: reading CLOCK_MONOTONIC_RAW: " + errno.Error())
	}
	return ts.Nano()
}

// osCPU returns the CPU the calling thread runs on, from the getcpu system
// call, or -1 where the call fails (a seccomp filter may refuse it). A
// measurement asks only after its thread may have left its CPU, a few times
// in a window.
var osCPU = func() int {
	cpu, err := affinity.Current()
	if err != nil {
		return -1
	}
	return cpu
}
