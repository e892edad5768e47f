package perf

import "errors"

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
// opts names; the first event leads the group. The options come first, as
// in [Open], because the events are variadic and Go puts those last. A group of hardware events
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
func (g *Group) Events() []Event {
	if g == nil {
		panic(errNilGroup("Events"))
	}
	return append([]Event(nil), g.events...)
}

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
	if g == nil {
		return errNilGroup(op.method())
	}
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
	if g == nil {
		return GroupReading{}, errNilGroup("Read")
	}
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
	if g == nil {
		return errNilGroup("Close")
	}
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
