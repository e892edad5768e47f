//go:build (amd64 || arm64) && !purego

package counter

// The monotonic clock's side of the assembly reads: a stub whose mono
// argument is set jumps here, with its own frame in place, so these take
// the same argument and return what the stub would. The jump keeps the
// branch out of the inlined Counter methods, which could not inline with a
// second call in them.

// monoStamp is the read of every stub but stampCPU for a Counter made by
// [Monotonic]: the runtime's monotonic clock, in nanoseconds.
//
//lint:ignore U1000 the assembly stubs jump here, which staticcheck does not see
func monoStamp(mono bool) uint64 { return uint64(nanotime()) }

// monoStampCPU is stampCPU's read for a Counter made by [Monotonic]: the
// runtime's monotonic clock, in nanoseconds, and no CPU.
//
//lint:ignore U1000 stampCPU jumps here, which staticcheck does not see
func monoStampCPU(mono bool) (ticks Tickstamp, cpu int) { return Tickstamp(nanotime()), -1 }
