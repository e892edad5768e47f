package perf

import "errors"

// ErrClosed is the error of a method called on a [Counter] or [Group] that
// has been closed.
var ErrClosed = errors.New("perf: counter closed")

// An OpenError is the kernel's refusal to open a counter for an event. Where
// the kernel or the virtual machine has no counter for the event, as for
// hardware events in most virtual machines or on a system without
// perf_event_open, it wraps [errors.ErrUnsupported]; where the kernel refused
// permission (EACCES or EPERM), it wraps [os.ErrPermission] and its message
// says who refused: kernel.perf_event_paranoid and its level where that level
// forbids the counter to a process without CAP_PERFMON, and otherwise a
// seccomp filter or a security module. It always wraps the kernel's answer,
// a [syscall.Errno] on Linux.
type OpenError struct {
	Event Event // the event the counter was to count
	Err   error // the kernel's answer

	reason      string // why, in words, where the kernel's answer needs them
	unsupported bool   // whether the error wraps errors.ErrUnsupported
}

func (e *OpenError) Error() string {
	s := "perf: cannot count " + e.Event.String() + ": "
	if e.reason != "" {
		s += e.reason + ": "
	}
	return s + e.Err.Error()
}

// Unwrap returns the kernel's answer and, where the event is not supported
// here, [errors.ErrUnsupported].
func (e *OpenError) Unwrap() []error {
	if e.unsupported {
		return []error{errors.ErrUnsupported, e.Err}
	}
	return []error{e.Err}
}

// An opError is the kernel's refusal of an operation on an open counter.
type opError struct {
	what string // "reading", "enabling", ...
	err  error  // the kernel's answer
}

func (e *opError) Error() string { return "perf: " + e.what + " the counter: " + e.err.Error() }
func (e *opError) Unwrap() error { return e.err }
