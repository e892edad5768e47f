package perf

import "errors"

// ErrClosed is the error of a method called on a [Counter] or [Group] that
// has been closed, or that has never been open: the zero Counter or Group,
// which [Open] or [OpenGroup] did not make.
var ErrClosed = errors.New("perf: the counter is closed, or was never opened")

// errNilCounter returns the refusal of the method call on a nil *Counter.
func errNilCounter(call string) error {
	return errors.New("perf: Counter." + call + ": a nil *Counter; open one with Open")
}

// errNilGroup returns the refusal of the method call on a nil *Group.
func errNilGroup(call string) error {
	return errors.New("perf: Group." + call + ": a nil *Group; open one with OpenGroup")
}

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
	if e == nil {
		panic("perf: OpenError.Error: a nil *OpenError; Open returns one only where the kernel refused")
	}
	s := "perf: cannot count " + e.Event.String()
	if e.reason != "" {
		s += ": " + e.reason
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the kernel's answer and, where the event is not supported
// here, [errors.ErrUnsupported]: none for a nil *OpenError or one without
// an answer.
func (e *OpenError) Unwrap() []error {
	switch {
	case e == nil:
		return nil
	case e.unsupported:
		return []error{errors.ErrUnsupported, e.Err}
	case e.Err == nil:
		return nil
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
