//go:build (!amd64 && !arm64) || purego

package counter

import (
	"errors"
	"runtime"
	"testing"
)

// TestDiscoverUnsupported checks Discover's refusal in a build that reads
// no hardware counter: it wraps errors.ErrUnsupported and says why.
func TestDiscoverUnsupported(t *testing.T) {
	_, err := Discover()
	if want := unsupportedWhy(runtime.GOOS, runtime.GOARCH); !errors.Is(err, errors.ErrUnsupported) || err.Error() != want {
		t.Fatalf("Discover error %v; want %s, wrapping errors.ErrUnsupported", err, want)
	}
}

// TestUnsupportedWhy checks that the refusal names the purego tag where the
// architecture has the counter's instruction, and the platform elsewhere.
func TestUnsupportedWhy(t *testing.T) {
	const purego = "counter: built with the purego tag, which reads no hardware counter by design; use Monotonic instead"
	for _, tc := range []struct{ goos, goarch, want string }{
		{"linux", "amd64", purego},
		{"darwin", "arm64", purego},
		{"linux", "riscv64", "counter: no hardware counter this package reads on linux/riscv64; use Monotonic instead"},
		{"windows", "386", "counter: no hardware counter this package reads on windows/386; use Monotonic instead"},
	} {
		t.Run(tc.goos+"/"+tc.goarch, func(t *testing.T) {
			if got := unsupportedWhy(tc.goos, tc.goarch); got != tc.want {
				t.Errorf("got %q; want %q", got, tc.want)
			}
		})
	}
}
