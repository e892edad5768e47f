//go:build (!amd64 && !arm64) || purego

package counter

import (
	"errors"
	"runtime"
)

// reported refuses: this build reads no hardware counter, and its Counter
// reads the runtime's monotonic clock, whose rate needs no discovery.
func reported() (hz uint64, src RateSource, err error) {
	return 0, SourceNone, &wrapError{msg: unsupportedWhy(runtime.GOOS, runtime.GOARCH), wrapped: errors.ErrUnsupported}
}

// unsupportedWhy returns the refusal's message on goos/goarch. On amd64 and
// arm64, which have the counter's instruction, this file builds only with
// the purego tag, which leaves the instruction out by design; elsewhere the
// package has no instruction to read a counter with.
func unsupportedWhy(goos, goarch string) string {
	if goarch == "amd64" || goarch == "arm64" {
		return "counter: built with the purego tag, which reads no hardware counter by design; use Monotonic instead"
	}
	return "counter: no hardware counter this package reads on " + goos + "/" + goarch + "; use Monotonic instead"
}
