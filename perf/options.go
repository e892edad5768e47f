package perf

import (
	"errors"
	"strconv"
)

// A Scope says whose events a counter counts.
type Scope int

const (
	// Thread counts the events of the OS thread that opens the counter, and
	// nothing else: not the threads it creates, not the other threads of
	// the process. A goroutine moves between threads, so the goroutine that
	// opens a Thread counter must call [runtime.LockOSThread] first and keep
	// the lock until it has read the counter for the last time; otherwise
	// the counter counts whichever goroutines the runtime schedules on that
	// thread. It is the zero Scope, and the cheapest: one file descriptor.
	Thread Scope = iota

	// Process counts the events of every thread of the process: the threads
	// that exist when the counter opens and, through the kernel's
	// inheritance, every thread they create afterwards. It needs no locked
	// thread, and it takes one file descriptor per thread (a Go program has a
	// handful) or, for a group, one per thread and event. A thread that the
	// runtime creates while the counter is opening may go uncounted.
	Process
)

// String returns "thread" or "process"; "Scope(n)" for any other value.
func (s Scope) String() string {
	switch s {
	case Thread:
		return "thread"
	case Process:
		return "process"
	}
	return "Scope(" + strconv.Itoa(int(s)) + ")"
}

// Options say whose events a counter counts and in which privilege levels.
// The zero Options count the calling thread's events in user space only.
type Options struct {
	// Scope says whose events are counted: the calling [Thread] (the
	// default), or every thread of the [Process].
	Scope Scope

	// Kernel reports whether to count, too, the events that happen in the
	// kernel on the counted threads' behalf: system calls, page-fault
	// handling. Unprivileged processes may do so only where
	// kernel.perf_event_paranoid is 1 or less; elsewhere Open refuses with
	// an error that wraps [os.ErrPermission].
	Kernel bool

	// Hypervisor reports whether to count, too, the events that happen in
	// the hypervisor, where the processor can tell them apart; most cannot,
	// and the option then changes nothing.
	Hypervisor bool
}

// check refuses options and events this package does not know.
func check(opts Options, evs []Event) error {
	if opts.Scope != Thread && opts.Scope != Process {
		return errors.New("perf: " + opts.Scope.String() + " is not a scope")
	}
	if len(evs) == 0 {
		return errors.New("perf: a group needs at least one event")
	}
	for _, ev := range evs {
		if ev == 0 {
			return errors.New("perf: the zero Event is no event: name one, such as perf.TaskClock or perf.Cycles")
		}
		if !ev.valid() {
			return errors.New("perf: " + ev.String() + " is not an event")
		}
	}
	return nil
}
