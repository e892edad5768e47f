package perf

import (
	"errors"
	"os"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// kernelEvent returns the perf_event_attr type and config of ev, and
// whether ev is an event.
func kernelEvent(ev Event) (typ uint32, config uint64, ok bool) {
	switch ev {
	case Cycles:
		return unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_CPU_CYCLES, true
	case Instructions:
		return unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_INSTRUCTIONS, true
	case CacheReferences:
		return unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_CACHE_REFERENCES, true
	case CacheMisses:
		return unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_CACHE_MISSES, true
	case BranchInstructions:
		return unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_BRANCH_INSTRUCTIONS, true
	case BranchMisses:
		return unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_BRANCH_MISSES, true
	case TaskClock:
		return unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_TASK_CLOCK, true
	case PageFaults:
		return unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_PAGE_FAULTS, true
	case ContextSwitches:
		return unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_CONTEXT_SWITCHES, true
	case CPUMigrations:
		return unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_CPU_MIGRATIONS, true
	case MinorFaults:
		return unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_PAGE_FAULTS_MIN, true
	case MajorFaults:
		return unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_PAGE_FAULTS_MAJ, true
	}
	return 0, 0, false
}

// forceSeparateReads makes open behave as on kernels before 4.3, which
// refuse PERF_FORMAT_GROUP on inherited counters; tests set it.
var forceSeparateReads bool

// open opens a counter of each of evs, the first leading the others, for
// each thread opts names: the calling thread, or every thread of the
// process. It returns the descriptors and their IDs per thread, and whether
// one read of a leader returns its whole group. On an error it has closed
// everything it opened.
func open(opts Options, evs []Event) (fds [][]int, ids [][]uint64, oneRead bool, err error) {
	tids := []int{0} // the calling thread
	if opts.Scope == Process {
		if tids, err = threads(); err != nil {
			return nil, nil, false, err
		}
	}
	oneRead = len(evs) > 1
	if oneRead && opts.Scope == Process && forceSeparateReads {
		oneRead = false
	}
	defer func() {
		if err != nil {
			for _, f := range fds {
				closeAll(f)
			}
			fds, ids = nil, nil
		}
	}()
	for _, tid := range tids {
		f, id, err := openOn(tid, opts, evs, oneRead)
		if err != nil && len(fds) == 0 && oneRead && opts.Scope == Process && errors.Is(err, unix.EINVAL) {
			// Kernels before 4.3 refuse PERF_FORMAT_GROUP on inherited
			// counters: read each counter in turn.
			oneRead = false
			f, id, err = openOn(tid, opts, evs, oneRead)
		}
		if errors.Is(err, unix.ESRCH) && opts.Scope == Process {
			continue // the thread exited since it was listed
		}
		if err != nil {
			return fds, ids, false, err
		}
		fds, ids = append(fds, f), append(ids, id)
	}
	if len(fds) == 0 {
		return nil, nil, false, errors.New("perf: every thread of the process exited while the counter opened")
	}
	return fds, ids, oneRead, nil
}

// openOn opens a counter of each of evs on the thread tid (0 for the
// calling thread), the first leading the others, and their IDs. On an error
// it has closed everything it opened.
func openOn(tid int, opts Options, evs []Event, oneRead bool) (fds []int, ids []uint64, err error) {
	defer func() {
		if err != nil {
			closeAll(fds)
			fds, ids = nil, nil
		}
	}()
	for _, ev := range evs {
		attr := unix.PerfEventAttr{
			Size:        uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
			Read_format: unix.PERF_FORMAT_TOTAL_TIME_ENABLED | unix.PERF_FORMAT_TOTAL_TIME_RUNNING | unix.PERF_FORMAT_ID,
			Bits:        0,
		}
		var ok bool
		if attr.Type, attr.Config, ok = kernelEvent(ev); !ok {
			return fds, ids, errors.New("perf: " + ev.String() + " is not an event")
		}
		if oneRead {
			attr.Read_format |= unix.PERF_FORMAT_GROUP
		}
		if !opts.Kernel {
			attr.Bits |= unix.PerfBitExcludeKernel
		}
		if !opts.Hypervisor {
			attr.Bits |= unix.PerfBitExcludeHv
		}
		if opts.Scope == Process {
			attr.Bits |= unix.PerfBitInherit
		}
		if len(fds) == 0 {
			attr.Bits |= unix.PerfBitDisabled // the leader; members count whenever it does
		}
		leader := -1
		if len(fds) > 0 {
			leader = fds[0]
		}
		fd, err := unix.PerfEventOpen(&attr, tid, -1, leader, unix.PERF_FLAG_FD_CLOEXEC)
		if err != nil {
			return fds, ids, openError(ev, opts, err)
		}
		fds = append(fds, fd)
		id, err := kernelID(fd)
		if err != nil {
			return fds, ids, err
		}
		ids = append(ids, id)
	}
	return fds, ids, nil
}

// kernelID asks the kernel for the ID of the counter fd
// (PERF_EVENT_IOC_ID, Linux 3.12 and later).
func kernelID(fd int) (uint64, error) {
	var id uint64
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.PERF_EVENT_IOC_ID, uintptr(unsafe.Pointer(&id)))
	if errno != 0 {
		return 0, &opError{what: "identifying", err: errno}
	}
	return id, nil
}

// threads lists the IDs of the process's threads.
func threads() ([]int, error) {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, errors.New("perf: listing the process's threads: " + err.Error())
	}
	tids := make([]int, 0, len(ents))
	for _, e := range ents {
		if tid, err := strconv.Atoi(e.Name()); err == nil {
			tids = append(tids, tid)
		}
	}
	if len(tids) == 0 {
		return nil, errors.New("perf: /proc/self/task lists no threads")
	}
	return tids, nil
}

// openError explains the kernel's refusal err to count ev.
func openError(ev Event, opts Options, err error) error {
	e := &OpenError{Event: ev, Err: err}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return e
	}
	switch {
	case errno == unix.ENOSYS:
		e.unsupported = true
		e.reason = "this kernel (or emulator) has no perf_event_open"
	case errno == unix.ENOENT || errno == unix.EOPNOTSUPP || errno == unix.ENODEV ||
		(errno == unix.EINVAL && ev.Hardware()):
		e.unsupported = true
		if ev.Hardware() {
			e.reason = "the processor, or the virtual machine, offers no counter for it here"
		} else {
			e.reason = "this kernel has no such counter"
		}
	case errno == unix.EACCES || errno == unix.EPERM:
		e.reason = openRefusal(errno, opts)
	}
	return e
}

func ioctl(fd int, op ctlOp, group bool) error {
	var req uint
	switch op {
	case opEnable:
		req = unix.PERF_EVENT_IOC_ENABLE
	case opDisable:
		req = unix.PERF_EVENT_IOC_DISABLE
	default:
		req = unix.PERF_EVENT_IOC_RESET
	}
	arg := 0
	if group {
		arg = unix.PERF_IOC_FLAG_GROUP
	}
	return unix.IoctlSetInt(fd, req, arg)
}

func readFD(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Read(fd, b)
		if err != unix.EINTR {
			return n, err
		}
	}
}

func closeFD(fd int) error { return unix.Close(fd) }
