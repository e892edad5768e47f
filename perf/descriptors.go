package perf

// The operations on the kernel's counter descriptors that a Counter and a
// Group share; the system calls themselves are in perf_linux.go.

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

// method returns the name of the method that does op.
func (op ctlOp) method() string { return [...]string{"Enable", "Disable", "Reset"}[op] }
