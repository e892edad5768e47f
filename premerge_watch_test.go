package counter

// This file keeps the watch tests, which the watch branch rewrites,
// compiling on the api branch: they still name identifiers this branch
// removed. Delete it, with premerge_watch.go, when the two branches are
// merged.

// CoresError is the refusal of counters that disagree between CPUs, as
// watch_test.go still builds it.
type CoresError struct{ Check *cpuCheck }

func (e *CoresError) Error() string { return cpusError(e.Check).Error() }
func (e *CoresError) Unwrap() error { return ErrCPUsDisagree }

var (
	ErrCoresDisagree = ErrCPUsDisagree
	ErrZeroRate      = errZeroRate
)

func Gigahertz() TickRate { return gigahertz() }

func Measure() (TickRate, error) { return MeasureRate() }

// MonotonicClock reads the runtime's monotonic clock, as example_watch_test.go
// still names it.
type MonotonicClock struct{}

func (MonotonicClock) Now() Tickstamp { return Tickstamp(nanotime()) }
func (MonotonicClock) Rate() TickRate { return gigahertz() }
