// Package rawclock reads the system's raw monotonic clock, the reference
// the counter package measures and checks the counter against:
// CLOCK_MONOTONIC_RAW on Linux and CLOCK_UPTIME_RAW on macOS, clocks that no
// time daemon slews and that stop while the machine sleeps. Other systems
// have no such clock ([Have] is false).
//
// It reads the clock two ways. [Syscall] makes a system call, everywhere.
// [Read] is the brackets' read: on Linux on amd64 it calls the vDSO's
// clock_gettime, which reads the clock without entering the kernel, where
// the kernel offers it there and it answers; elsewhere, and with the purego
// build tag, it is [Syscall]. [Kind] says which one Read is, and [Cost] what
// it costs.
//
// The counter package reads the clock through this package, and so does
// cmd/counterinfo, which reports how the brackets read it.
package rawclock

import (
	"slices"
	"time"
	_ "unsafe" // for go:linkname
)

// Have reports whether the system has a raw monotonic clock: true on Linux
// and macOS. Where it is false, [Syscall] and [Read] return the runtime's
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

// Read returns the raw monotonic clock in nanoseconds, read the quickest way
// the process has: through the vDSO (see the package doc) where the first
// call of Read, [Kind] or [Cost] settled on it, else by [Syscall], and by
// Syscall again wherever the vDSO returns an error. The vDSO's read
// executes RDTSC where the kernel's clocksource reads the TSC, so the
// settling call asks faults first whether RDTSC faults on the calling
// thread, and where it does, settles on Syscall without trying the vDSO. A
// nil faults is a caller's word that RDTSC does not fault on its thread;
// calls after the first do not ask. Read makes no allocation.
func Read(faults func() bool) int64 { return read(faults) }

// Kind names the read [Read] makes: "vdso", "system call", or "runtime"
// where [Have] is false. Where nothing has settled Read's choice yet, Kind
// settles it, asking faults as Read does.
func Kind(faults func() bool) string {
	if !Have {
		return "runtime"
	}
	return kind(faults)
}

// Cost measures what one [Read] costs on the calling goroutine: the
// median, over 31 batches of 64 reads, of a batch's time a read. It reads
// the raw clock about 2,000 times, and the runtime's monotonic clock twice a
// batch; it settles Read's choice as Read does, and is 0 where [Have] is
// false.
func Cost(faults func() bool) time.Duration {
	if !Have {
		return 0
	}
	const batches, reads = 31, 64
	var per [batches]int64
	for i := range per {
		t0 := nanotime()
		for range reads {
			Read(faults)
		}
		per[i] = (nanotime() - t0) / reads
	}
	slices.Sort(per[:])
	return time.Duration(per[batches/2])
}

// nanotime is the runtime's monotonic clock in nanoseconds: the clock behind
// time.Now's monotonic reading.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64
