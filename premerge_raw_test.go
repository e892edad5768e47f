package counter

// This file keeps vdso_linux_test.go, which the raw-clock branch moves to
// internal/rawclock, compiling on the api branch: it still reads the raw
// clock through the type this branch removed from the API. Delete it when
// the two branches are merged.

// RawMonotonicClock reads the raw monotonic clock, in nanoseconds, as the
// removed type did.
type RawMonotonicClock struct{}

func (RawMonotonicClock) Now() Tickstamp { return Tickstamp(rawNanos()) }
func (RawMonotonicClock) Rate() TickRate { return gigahertz() }
