package counter

import _ "unsafe" // for go:linkname

// A Clock is something that reads ticks at a rate: a [Counter], one of
// [Monotonic] among them, or a test's manual clock (package countertest has
// one). Code that stamps and converts through a Clock runs unchanged on the
// monotonic clock where discovery refuses the counter, and on a manual
// clock in tests.
//
// Calling Now through the interface costs an indirect call that a concrete
// [Counter] does not pay; keep the concrete type on the hottest paths.
type Clock interface {
	// Now returns the clock's reading, in ticks at Rate.
	Now() Tickstamp
	// Rate returns the rate at which the clock ticks.
	Rate() TickRate
}

var _ Clock = Counter{}

// nanotime is the runtime's monotonic clock in nanoseconds: the clock behind
// time.Now's monotonic reading, with an origin shared by every process on
// the machine (on Linux, CLOCK_MONOTONIC).
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64
