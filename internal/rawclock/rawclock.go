// Package rawclock reads the system's raw monotonic clock, the reference
// the counter package measures and checks the counter against:
// CLOCK_MONOTONIC_RAW on Linux and CLOCK_UPTIME_RAW on macOS, clocks that no
// time daemon slews and that stop while the machine sleeps. Other systems
// have no such clock ([Have] is false).
//
// It reads the clock two ways. [Syscall] makes a system call, everywhere.
// A [Clock], from [Open], is the brackets' read: on Linux on amd64 it calls
// the vDSO's clock_gettime, which reads the clock without entering the
// kernel, where the kernel offers it there, it answers, and RDTSC does not
// fault on the caller's thread; elsewhere, and with the purego build tag, it
// is [Syscall]. [Clock.Kind] says which one it is, and [Clock.Cost] what it
// costs.
//
// The counter package reads the clock through this package, and so does
// cmd/counterinfo, which reports how the brackets read it.
package rawclock

import (
	_ "unsafe" // for go:linkname
)

// Have reports whether the system has a raw monotonic clock: true on Linux
// and macOS. Where it is false, [Syscall] and [Clock.Read] return the runtime's
// monotonic clock instead.
const Have = have

// Syscall returns the raw monotonic clock in nanoseconds, read by a system
// call. On Linux it is a raw system call of clock_gettime for
// CLOCK_MONOTONIC_RAW, which returns straight to its caller: a blocking
// call's return may run the scheduler, which reads the runtime's clock
// through the vDSO, and so executes RDTSC where the kernel's clocksource is
// the TSC; Syscall executes none, so it reads on a thread where RDTSC is
// made to fault. The call never blocks, so holding the processor through it
// costs the scheduler nothing. On macOS it is the C library's clock_gettime
// for CLOCK_UPTIME_RAW. Where [Have] is false it returns the runtime's
// monotonic clock. Every kernel Go runs on has the clock; Syscall panics if
// the kernel refuses it all the same.
func Syscall() int64 { return syscallNanos() }

// Open returns the quickest read of the raw clock for a caller whose thread
// RDTSC faults on or not (prctl's PR_SET_TSC; the counter package asks):
// through the vDSO (see the package doc) where faults is false, else by
// [Syscall]. The vDSO's read executes RDTSC where the kernel's clocksource
// reads the TSC, which is why a faulting thread must not take it. The first
// Open in the process that does not fault looks the vDSO's clock_gettime up
// and tries it; the others reuse what it found. Open allocates nothing
// after that first look-up.
func Open(faults bool) Clock { return open(faults) }

// Read returns the raw monotonic clock in nanoseconds, by the read Open
// chose, and by [Syscall] wherever the vDSO returns an error. It makes no
// allocation.
func (c Clock) Read() int64 { return c.read() }

// Kind names the read [Clock.Read] makes: "vdso", "system call", or
// "runtime" where [Have] is false.
func (c Clock) Kind() string {
	if !Have {
		return "runtime"
	}
	return c.kind()
}

// nanotime is the runtime's monotonic clock in nanoseconds: the clock behind
// time.Now's monotonic reading.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64
