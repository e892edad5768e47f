//go:build !linux || !amd64 || purego

// The read of the raw clock in the brackets of the per-CPU check and the
// watch, where they do not call the vDSO: rawNanos. On Linux on arm64 the
// vDSO offers CLOCK_MONOTONIC_RAW too, but a call into it from this
// package's assembly is not safe there: Go's signal handler on arm64
// (without cgo) takes a signal whose PC is in the vDSO to have come during
// one of the runtime's own vDSO calls, and looks for the goroutine where
// those calls leave it, at the bottom of the thread's signal stack. A call
// of this package leaves nothing there, so a signal that lands in it, such
// as SIGCHLD, would find no goroutine and end the process.

package counter

// bracketNanos is the brackets' read of the raw clock: rawNanos.
func bracketNanos() int64 { return rawNanos() }

// bracketReadKind names how the brackets read the raw clock: by rawNanos.
func bracketReadKind() string { return "system call" }
