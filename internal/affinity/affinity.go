// Package affinity pins the calling thread to one CPU and says which CPUs a
// process may run on: the one home of thread pinning for the counter
// package's per-CPU checks, its tests and cmd/counterinfo.
//
// Only Linux has the calls; elsewhere every function returns an error that
// wraps [errors.ErrUnsupported].
package affinity

import "errors"

// ErrUnsupported is returned on systems without an affinity call. It wraps
// [errors.ErrUnsupported].
var ErrUnsupported = &unsupported{}

type unsupported struct{}

func (*unsupported) Error() string {
	return "counter: this system has no call to pin a thread to a CPU"
}
func (*unsupported) Unwrap() error { return errors.ErrUnsupported }
