//go:build !linux

package perf

import (
	"errors"
	"runtime"
)

// errNoPerf is the answer of every system but Linux.
var errNoPerf = errors.New("performance counters are read through perf_event_open, which " + runtime.GOOS + " does not have")

func open(opts Options, evs []Event) ([][]int, [][]uint64, bool, error) {
	return nil, nil, false, &OpenError{Event: evs[0], Err: errNoPerf, unsupported: true}
}

func ioctl(fd int, op ctlOp, group bool) error { return errors.ErrUnsupported }
func readFD(fd int, b []byte) (int, error)     { return 0, errors.ErrUnsupported }
func closeFD(fd int) error                     { return errors.ErrUnsupported }
