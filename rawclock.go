package counter

import (
	"time"

	"github.com/tickstamp/counter/internal/rawclock"
)

// RawReadKind reports how the package's brackets read the raw clock:
// "vdso" or "system call" (or "runtime" where there is no raw clock). A
// bracket is a read of the raw clock between two reads of the counter; the
// per-CPU check of [Discover] and a [Watch] compare the counter with the raw
// clock through them, and the narrower a bracket, the sharper each
// comparison. On Linux on amd64 they read CLOCK_MONOTONIC_RAW through the
// vDSO where the kernel offers it there and it answers; elsewhere, and with
// the purego build tag, by the system call that [RawMonotonicClock] makes
// (on macOS, the C library's clock_gettime). Discovery's measurement of the
// rate reads by that system call everywhere. The first call settles the
// choice for the process, as the first bracket would: it looks for the
// vDSO's function and reads the clock with it once. Settled on a thread
// where RDTSC faults ([ErrDisabled]), the choice is the system call, the
// vDSO's read executing RDTSC.
func RawReadKind() string { return rawclock.Kind(readsFault) }

// RawReadCost measures what one read of the raw clock costs the way the
// package's brackets read it ([RawReadKind]): the median, over 31 batches
// of 64 reads on the calling goroutine, of a batch's time a read. It reads
// the raw clock about 2,000 times, and the runtime's monotonic clock twice
// a batch; it is 0 where there is no raw clock.
func RawReadCost() time.Duration { return rawclock.Cost(readsFault) }
