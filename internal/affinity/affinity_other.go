//go:build !linux

package affinity

// Allowed returns [ErrUnsupported]: this system has no affinity call.
func Allowed() ([]int, error) { return nil, ErrUnsupported }

// Pin returns [ErrUnsupported]: this system has no affinity call.
func Pin(cpu int) (unpin func() error, err error) { return nil, ErrUnsupported }

// Current returns -1 and [ErrUnsupported].
func Current() (int, error) { return -1, ErrUnsupported }
