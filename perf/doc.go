// Package perf counts hardware and kernel events, such as cycles,
// instructions, cache misses, page faults and context switches, through
// Linux's perf_event_open, to set beside the time the counter package
// measures.
//
// Time and cycles answer different questions. The time-stamp counter counts
// time at a fixed rate, however fast the core runs; the performance
// monitoring unit counts what the core did: cycles at whatever frequency it
// ran, instructions retired, cache and branch misses. A span from the counter
// says how long; a count from this package says how much work, and the two
// together say why. The example of [OpenGroup] counts the instructions and
// cycles of a span timed with the counter; the README shows the same code.
//
// # Counters and groups
//
// A [Counter] counts one [Event]; a [Group] counts several over the same
// span, enabled, disabled, reset and read together, each as one operation of
// the kernel, so that their counts compare. Both open disabled and at zero,
// count while enabled, and keep their counts while disabled. Every count is
// a uint64 of events, and a task clock's count is in nanoseconds.
//
// # Threads and goroutines
//
// The kernel counts the events of OS threads, and goroutines move between
// threads. A counter of the calling [Thread], the default, counts the thread
// that opened it: the opening goroutine must hold [runtime.LockOSThread]
// from before Open until its last read, or the counter counts whatever runs
// on that thread. A counter of the [Process] counts every thread of the
// process, including those created after it opened, through one counter per
// thread that the kernel inherits into new threads; the package sums them on
// each read. A Process counter needs no lock and costs a descriptor per
// thread; it also counts the runtime's own threads (garbage collection,
// scheduling) and every other goroutine.
//
// By default counters count user space only: the events a thread causes in
// the kernel (system calls, page-fault handling) and in a hypervisor are left
// out. [Options] asks for them where the caller is allowed.
//
// # Time enabled and time running
//
// A processor has a few hardware counters, typically four to eight per core.
// Where more hardware events are enabled than it has counters, the kernel
// timeshares them: each counts for part of the time, and its count covers
// only that part. [Counter.ReadCountAndTime] returns the count with the time
// the counter was enabled and the time it was running, in nanoseconds;
// [Reading.Scaled] estimates the count over the whole time enabled as
// count·enabled/running in 128-bit arithmetic. A group is scheduled whole or
// not at all, so its counters share one time enabled and one time running,
// and their ratios are exact even when the group was timeshared. Software
// events are counted by the kernel and always run while enabled.
//
// # Refusals
//
// Where the processor, the virtual machine or the kernel has no counter for
// an event, [Open] and [OpenGroup] return an [*OpenError] that names the
// event and wraps [errors.ErrUnsupported]. Most virtual machines (among
// them the guests this package is tested on) offer no hardware events,
// while the software events work everywhere Linux runs. Where the kernel
// refuses permission, the error wraps [os.ErrPermission] and says who
// refused. kernel.perf_event_paranoid limits a process that lacks
// CAP_PERFMON and CAP_SYS_ADMIN (in the initial user namespace): at 2, the
// default, it may count its own threads in user space only; at 1, in the
// kernel too; at 0 and -1 also whole CPUs, which this package never opens;
// at 3 and above, on Debian's, Ubuntu's and Android's kernels, nothing. The
// error names the setting only where its level forbids the counter; a
// refusal it cannot explain (EPERM, which the setting never answers, or a
// process it does not limit) names a seccomp filter, as container runtimes
// install, or a security module. On an error, every descriptor opened is
// closed.
//
// # Platforms
//
//	OS           events
//	Linux        all, as the processor and the kernel offer them
//	qemu-user    none: perf_event_open is not emulated (errors.ErrUnsupported)
//	others       none: Open and OpenGroup return errors.ErrUnsupported
package perf
