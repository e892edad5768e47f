//go:build !linux || !amd64 || purego

// Read where it does not call the vDSO: Syscall. On Linux on arm64 the vDSO
// offers CLOCK_MONOTONIC_RAW too, but a call into it from this package's
// assembly is not safe there: Go's signal handler on arm64 (without cgo)
// takes a signal whose PC is in the vDSO to have come during one of the
// runtime's own vDSO calls, and looks for the goroutine where those calls
// leave it, at the bottom of the thread's signal stack. A call of this
// package leaves nothing there, so a signal that lands in it, such as
// SIGCHLD, would find no goroutine and end the process.

package rawclock

// A Clock is the brackets' read of the raw clock, as [Open] chose it: here,
// always [Syscall], there being no vDSO read to choose.
type Clock struct{}

// open is Open: the system call, whatever faults says.
func open(bool) Clock { return Clock{} }

// read is Clock.Read: Syscall.
func (Clock) read() int64 { return syscallNanos() }

// kind names the read where Have is true: the system call.
func (Clock) kind() string { return "system call" }
