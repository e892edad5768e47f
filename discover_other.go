//go:build (!amd64 && !arm64) || purego

package counter

import (
	"errors"
	"runtime"
)

// errUnsupported is the refusal of a build that reads no hardware counter:
// its Counter reads the runtime's monotonic clock, whose rate needs no
// discovery.
var errUnsupported = &wrapError{
	msg: "counter: no hardware counter to discover on " + runtime.GOOS + "/" + runtime.GOARCH +
		" or with the purego tag; use Monotonic instead",
	wrapped: errors.ErrUnsupported,
}

func reported() (hz uint64, src RateSource, err error) { return 0, SourceNone, errUnsupported }
