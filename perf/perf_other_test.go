//go:build !linux

package perf

import (
	"errors"
	"testing"
)

func TestUnsupportedOffLinux(t *testing.T) {
	if _, err := Open(Options{}, TaskClock); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Open: got %v; want an error wrapping errors.ErrUnsupported", err)
	}
	if _, err := OpenGroup(Options{}, TaskClock, PageFaults); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("OpenGroup: got %v; want an error wrapping errors.ErrUnsupported", err)
	}
}
