package counter

import (
	"sync/atomic"
	"time"
	_ "unsafe" // for go:linkname
)

// A Clock is something that reads ticks at a rate: a [Counter], a
// [MonotonicClock] or a [*ManualClock]. Code that
// stamps and converts through a Clock runs unchanged on the monotonic clock
// where discovery refuses the counter, and on a manual clock in tests.
//
// Calling Now through the interface costs an indirect call that a concrete
// [Counter] does not pay; keep the concrete type on the hottest paths.
type Clock interface {
	// Now returns the clock's reading, in ticks at Rate.
	Now() Tickstamp
	// Rate returns the rate at which the clock ticks.
	Rate() TickRate
}

var (
	_ Clock = Counter{}
	_ Clock = MonotonicClock{}
	_ Clock = (*ManualClock)(nil)
)

// nanotime is the runtime's monotonic clock in nanoseconds: the clock behind
// time.Now's monotonic reading, with an origin shared by every process on
// the machine (on Linux, CLOCK_MONOTONIC).
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

// A MonotonicClock reads the runtime's monotonic clock, in nanoseconds, at
// [Gigahertz]: the clock behind [time.Now]'s monotonic reading, without the
// wall clock [time.Now] also reads. It is available on every platform, never
// runs backwards, and its readings may be subtracted across processes on one
// machine, since its origin is the system's (on Linux CLOCK_MONOTONIC, which
// stops during suspend). NTP may slew its rate by up to 500 ppm; where that
// matters, use [RawMonotonicClock]. On Linux it reads through the vDSO,
// which on amd64 executes RDTSC wherever the kernel's clocksource reads the
// TSC: it faults on a thread where RDTSC is made to fault ([ErrDisabled]),
// as time.Now does. Its zero value is ready to use.
type MonotonicClock struct{}

// Now returns the monotonic clock's reading in nanoseconds.
func (MonotonicClock) Now() Tickstamp { return Tickstamp(nanotime()) }

// Rate returns [Gigahertz]: a tick of the monotonic clock is a nanosecond.
func (MonotonicClock) Rate() TickRate { return Gigahertz() }

// A ManualClock is a clock for tests, which moves only when told to: by
// [ManualClock.Set], [ManualClock.Advance] or [ManualClock.AdvanceTicks]. Its
// methods are safe for concurrent use, and since it reads no real clock it
// behaves the same inside a [testing/synctest] bubble as outside it. Make one
// with [NewManualClock]; the zero ManualClock reads 0 ticks at the zero
// [TickRate]. A ManualClock must not be copied after first use.
type ManualClock struct {
	now  atomic.Uint64
	rate TickRate
}

// NewManualClock returns a ManualClock that reads start and ticks at rate.
// Like [New], it takes the rate as given.
func NewManualClock(start Tickstamp, rate TickRate) *ManualClock {
	m := &ManualClock{rate: rate}
	m.now.Store(uint64(start))
	return m
}

// Now returns the clock's reading: its start moved by every Set and Advance
// so far.
func (m *ManualClock) Now() Tickstamp { return Tickstamp(m.now.Load()) }

// Rate returns the rate the clock was made with.
func (m *ManualClock) Rate() TickRate { return m.rate }

// Set moves the clock to t, forwards or backwards.
func (m *ManualClock) Set(t Tickstamp) { m.now.Store(uint64(t)) }

// AdvanceTicks moves the clock by d ticks (back, for a negative d), wrapping
// modulo 2⁶⁴ as a counter does, and returns the new reading. Concurrent
// advances add up: none is lost.
func (m *ManualClock) AdvanceTicks(d Tickdelta) Tickstamp {
	return Tickstamp(m.now.Add(uint64(d)))
}

// Advance moves the clock by d converted to ticks at its rate, as by
// [TickRate.Ticks] (nothing at the zero [TickRate]; back, for a negative d),
// and returns the new reading.
func (m *ManualClock) Advance(d time.Duration) Tickstamp {
	return m.AdvanceTicks(m.rate.Ticks(d))
}
