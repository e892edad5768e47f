//go:build !linux

package affinity

import (
	"errors"
	"testing"
)

func TestUnsupported(t *testing.T) {
	if _, err := Allowed(); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Allowed: %v; want ErrUnsupported", err)
	}
	if _, err := Pin(0); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Pin: %v; want ErrUnsupported", err)
	}
	if _, err := Current(); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Current: %v; want ErrUnsupported", err)
	}
}
