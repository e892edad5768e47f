//go:build (!amd64 && !arm64) || purego

package counter

import (
	"errors"
	"runtime"
	"testing"
)

func TestDiscoverUnsupported(t *testing.T) {
	_, err := Discover()
	want := "counter: no hardware counter to discover on " + runtime.GOOS + "/" + runtime.GOARCH +
		" or with the purego tag; use Monotonic instead"
	if !errors.Is(err, errors.ErrUnsupported) || err.Error() != want {
		t.Fatalf("Discover error %v; want %s, wrapping errors.ErrUnsupported", err, want)
	}
}
