package perf

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
}

// Open opens a counter of ev for the threads opts names, in the privilege
// levels it names. The counter starts disabled, at zero. Its arguments come
// in the order of [OpenGroup]'s: the options first, then what to count.
//
// Open refuses the zero [Event], and any other value that is no event, with
// an error. It refuses with an [*OpenError] where the kernel does: one that
// wraps [errors.ErrUnsupported] where there is no counter for ev here
// (hardware events in most virtual machines, every event off Linux), one
// that wraps [os.ErrPermission] where the kernel refused permission, naming
// kernel.perf_event_paranoid where its level forbids the counter and a
// seccomp filter or security module otherwise. It closes every descriptor
// it opened before it returns an error.
func Open(opts Options, ev Event) (*Counter, error) {
	if err := check(opts, []Event{ev}); err != nil {
		return nil, err
	}
	fds, _, _, err := open(opts, []Event{ev})
	if err != nil {
		return nil, err
	}
	c := &Counter{event: ev, fds: make([]int, len(fds))}
	for t := range fds {
		c.fds[t] = fds[t][0]
	}
	return c, nil
}

// Event returns the event the counter counts.
func (c *Counter) Event() Event {
	if c == nil {
		panic(errNilCounter("Event"))
	}
	return c.event
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
	if c == nil {
		return errNilCounter(op.method())
	}
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
	if c == nil {
		return 0, errNilCounter("Read")
	}
	r, err := c.ReadCountAndTime()
	return r.Count, err
}

// ReadCountAndTime returns the counter's count with the time it was enabled
// and the time it was running, in nanoseconds, so that a caller can see
// whether the kernel timeshared it and scale the count with
// [Reading.Scaled].
func (c *Counter) ReadCountAndTime() (Reading, error) {
	if c == nil {
		return Reading{}, errNilCounter("ReadCountAndTime")
	}
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
	if c == nil {
		return errNilCounter("Close")
	}
	if c.fds == nil {
		return ErrClosed
	}
	err := closeAll(c.fds)
	c.fds = nil
	return err
}
