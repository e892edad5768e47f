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

// ErrClosed is the error of a method called on a [Counter] or [Group] that
// has been closed.
var ErrClosed = errors.New("perf: counter closed")

// An OpenError is the kernel's refusal to open a counter for an event. Where
// the kernel or the virtual machine has no counter for the event, as for
// hardware events in most virtual machines or on a system without
// perf_event_open, it wraps [errors.ErrUnsupported]; where
// kernel.perf_event_paranoid forbids the counter, it wraps
// [os.ErrPermission] and its message names the setting and its value. It
// always wraps the kernel's answer, a [syscall.Errno] on Linux.
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

// A Counter counts one event for the calling thread or the whole process,
// through one file descriptor per counted thread. It opens disabled: count
// with [Counter.Enable], stop with [Counter.Disable], and release the
// descriptors with [Counter.Close].
//
// The methods may be called from any goroutine and thread, at once, except
// Close, which must not overlap with any other: where the counter is kept
// does not matter, only whose events it counts ([Options.Scope]).
type Counter struct {
	event Event
	fds   []int // one per counted thread; nil once closed
	id    uint64
}

// Open opens a counter of ev for the threads opts names, in the privilege
// levels it names. The counter starts disabled, at zero.
//
// Open refuses with an [*OpenError] where the kernel does: one that wraps
// [errors.ErrUnsupported] where there is no counter for ev here (hardware
// events in most virtual machines, every event off Linux), one that wraps
// [os.ErrPermission] and names kernel.perf_event_paranoid where the
// setting forbids it. It closes every descriptor it opened before it
// returns an error.
func Open(ev Event, opts Options) (*Counter, error) {
	if err := check(opts, []Event{ev}); err != nil {
		return nil, err
	}
	fds, ids, _, err := open(opts, []Event{ev})
	if err != nil {
		return nil, err
	}
	c := &Counter{event: ev, fds: make([]int, len(fds))}
	for t := range fds {
		c.fds[t] = fds[t][0]
	}
	c.id = ids[0][0]
	return c, nil
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
		if !ev.valid() {
			return errors.New("perf: " + ev.String() + " is not an event")
		}
	}
	return nil
}

// Event returns the event the counter counts.
func (c *Counter) Event() Event { return c.event }

// ID returns the identifier the kernel gave the counter, unique among the
// counters open on the machine; for a [Process] counter, the identifier of
// its counter on the process's first thread. It is 0 once the counter is
// closed.
func (c *Counter) ID() uint64 {
	if c.fds == nil {
		return 0
	}
	return c.id
}

// Enable starts the counter counting. The events it counts add to its
// current count; [Counter.Reset] sets the count to zero. For a [Process]
// counter the threads' counters start one after another, microseconds
// apart.
func (c *Counter) Enable() error { return c.ctl(opEnable) }

// Disable stops the counter counting and leaves its count as it is; the
// time it is disabled adds to neither time of a [Reading].
func (c *Counter) Disable() error { return c.ctl(opDisable) }

// Reset sets the counter's count to zero, whether it is enabled or not. The
// times of a [Reading] are not reset: they keep adding up from the first
// Enable.
func (c *Counter) Reset() error { return c.ctl(opReset) }

func (c *Counter) ctl(op ctlOp) error {
	if c.fds == nil {
		return ErrClosed
	}
	for _, fd := range c.fds {
		if err := ioctl(fd, op, false); err != nil {
			return &opError{what: op.String(), err: err}
		}
	}
	return nil
}

// Read returns the counter's count, the events counted while it was
// enabled and running. Where the kernel timeshared the counter the count
// covers only the time it ran and Read does not say so: read hardware
// counters with [Counter.ReadCountAndTime].
func (c *Counter) Read() (uint64, error) {
	r, err := c.ReadCountAndTime()
	return r.Count, err
}

// ReadCountAndTime returns the counter's count with the time it was enabled
// and the time it was running, in nanoseconds, so that a caller can see
// whether the kernel timeshared it and scale the count with
// [Reading.Scaled].
func (c *Counter) ReadCountAndTime() (Reading, error) {
	if c.fds == nil {
		return Reading{}, ErrClosed
	}
	var sum Reading
	var b [singleSize]byte
	for _, fd := range c.fds {
		if err := readFull(fd, b[:]); err != nil {
			return Reading{}, err
		}
		r, _, err := parseSingle(b[:])
		if err != nil {
			return Reading{}, err
		}
		sum.Count = addSat(sum.Count, r.Count)
		sum.Enabled = nanos(addSat(uint64(sum.Enabled), uint64(r.Enabled)))
		sum.Running = nanos(addSat(uint64(sum.Running), uint64(r.Running)))
	}
	return sum, nil
}

// Close releases the counter's file descriptors. It returns [ErrClosed]
// where the counter is closed already; every other method does the same
// afterwards.
func (c *Counter) Close() error {
	if c.fds == nil {
		return ErrClosed
	}
	err := closeAll(c.fds)
	c.fds = nil
	return err
}

// A Group counts several events over the same span: its counters are
// enabled, disabled, reset and read together, each as one operation of the
// kernel, and the kernel puts them on the hardware together or not at all,
// so that their counts compare (instructions per cycle, misses per
// reference). It opens disabled; release it with [Group.Close].
//
// The methods may be called from any goroutine and thread, at once, except
// Close, which must not overlap with any other.
type Group struct {
	events  []Event
	fds     [][]int    // per counted thread: the leader, then the other counters; nil once closed
	ids     [][]uint64 // the kernel's IDs of fds
	oneRead bool       // whether a read of the leader returns the whole group
}

// OpenGroup opens a group of counters of evs, in that order, for the threads
// opts names; the first event leads the group. A group of hardware events
// larger than the processor has counters for never runs: the kernel
// schedules it whole or not at all, and its Running time stays 0. The
// group starts disabled, at zero. OpenGroup refuses as [Open] does, naming
// the event the kernel refused, and closes every descriptor it opened
// before it returns an error.
func OpenGroup(opts Options, evs ...Event) (*Group, error) {
	if err := check(opts, evs); err != nil {
		return nil, err
	}
	fds, ids, oneRead, err := open(opts, evs)
	if err != nil {
		return nil, err
	}
	return &Group{events: append([]Event(nil), evs...), fds: fds, ids: ids, oneRead: oneRead}, nil
}

// Events returns the group's events, in the order of its counts.
func (g *Group) Events() []Event { return append([]Event(nil), g.events...) }

// Enable starts every counter of the group counting, in one operation. For a
// [Process] group the threads' groups start one after another.
func (g *Group) Enable() error { return g.ctl(opEnable) }

// Disable stops every counter of the group counting, in one operation, and
// leaves the counts as they are.
func (g *Group) Disable() error { return g.ctl(opDisable) }

// Reset sets every counter of the group to zero, in one operation, whether
// the group is enabled or not; the times are not reset.
func (g *Group) Reset() error { return g.ctl(opReset) }

func (g *Group) ctl(op ctlOp) error {
	if g.fds == nil {
		return ErrClosed
	}
	// The group's members stay enabled: enabling and disabling its leader
	// starts and stops the whole group, since the kernel schedules a group
	// only with its leader. (Enabling disabled members with
	// PERF_IOC_FLAG_GROUP leaves those of another PMU than the leader's
	// uncounted on Linux 6.18, task-clock's members for one.) Reset resets
	// every member.
	for _, fds := range g.fds {
		if err := ioctl(fds[0], op, op == opReset); err != nil {
			return &opError{what: op.String(), err: err}
		}
	}
	return nil
}

// Read returns the group's counts, indexed in the order of the events given
// to [OpenGroup], and the time the group was enabled and running. The
// kernel reads the whole group at once, for each counted thread. (Kernels
// before Linux 4.3 cannot read a [Process] group at once: there each counter
// is read in turn, and only a disabled group's counts are taken together.)
func (g *Group) Read() (GroupReading, error) {
	if g.fds == nil {
		return GroupReading{}, ErrClosed
	}
	n := len(g.events)
	counts := make([]uint64, n)
	var enabled, running uint64
	if g.oneRead {
		b := make([]byte, groupSize(n))
		for t, fds := range g.fds {
			if err := readFull(fds[0], b); err != nil {
				return GroupReading{}, err
			}
			en, run, err := parseGroup(b, g.ids[t], counts)
			if err != nil {
				return GroupReading{}, err
			}
			enabled, running = addSat(enabled, en), addSat(running, run)
		}
	} else {
		var b [singleSize]byte
		for _, fds := range g.fds {
			for i, fd := range fds {
				if err := readFull(fd, b[:]); err != nil {
					return GroupReading{}, err
				}
				r, _, err := parseSingle(b[:])
				if err != nil {
					return GroupReading{}, err
				}
				counts[i] = addSat(counts[i], r.Count)
				if i == 0 {
					enabled = addSat(enabled, uint64(r.Enabled))
					running = addSat(running, uint64(r.Running))
				}
			}
		}
	}
	return GroupReading{Counts: counts, Enabled: nanos(enabled), Running: nanos(running)}, nil
}

// Close releases the group's file descriptors. It returns [ErrClosed] where
// the group is closed already; every other method does the same afterwards.
func (g *Group) Close() error {
	if g.fds == nil {
		return ErrClosed
	}
	var err error
	for _, fds := range g.fds {
		err = errors.Join(err, closeAll(fds))
	}
	g.fds, g.ids = nil, nil
	return err
}

// closeAll closes fds, the group's members before its leader, and returns
// the first error.
func closeAll(fds []int) error {
	var first error
	for i := len(fds) - 1; i >= 0; i-- {
		if err := closeFD(fds[i]); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// readFull reads exactly len(b) bytes from the counter fd, as the read
// format promises.
func readFull(fd int, b []byte) error {
	n, err := readFD(fd, b)
	if err != nil {
		return &opError{what: "reading", err: err}
	}
	if n != len(b) {
		return errShortRead
	}
	return nil
}

type ctlOp int

const (
	opEnable ctlOp = iota
	opDisable
	opReset
)

func (op ctlOp) String() string { return [...]string{"enabling", "disabling", "resetting"}[op] }

// An opError is the kernel's refusal of an operation on an open counter.
type opError struct {
	what string // "reading", "enabling", ...
	err  error  // the kernel's answer
}

func (e *opError) Error() string { return "perf: " + e.what + " the counter: " + e.err.Error() }
func (e *opError) Unwrap() error { return e.err }
