package countertest

import (
	"sync/atomic"
	"time"

	"github.com/tickstamp/counter"
)

// A ManualClock is a [counter.Clock] for tests, which moves only when told
// to: by [ManualClock.Set], [ManualClock.Advance] or
// [ManualClock.AdvanceTicks]. Its methods are safe for concurrent use, and
// since it reads no real clock it behaves the same inside a
// [testing/synctest] bubble as outside it. Make one with [NewManualClock];
// the zero ManualClock reads 0 ticks at the zero [counter.TickRate]. A
// ManualClock must not be copied after first use.
type ManualClock struct {
	now  atomic.Uint64
	rate counter.TickRate
}

var _ counter.Clock = (*ManualClock)(nil)

// NewManualClock returns a ManualClock that reads start and ticks at rate.
// Like [counter.New], it takes the rate as given.
func NewManualClock(start counter.Tickstamp, rate counter.TickRate) *ManualClock {
	m := &ManualClock{rate: rate}
	m.now.Store(uint64(start))
	return m
}

// Now returns the clock's reading: its start moved by every Set and Advance
// so far. It is an atomic load, ordered after the memory operations before
// it, as [counter.NewAnchor] needs of a clock.
func (m *ManualClock) Now() counter.Tickstamp {
	m.mustNotBeNil("Now")
	return counter.Tickstamp(m.now.Load())
}

// Rate returns the rate the clock was made with.
func (m *ManualClock) Rate() counter.TickRate {
	m.mustNotBeNil("Rate")
	return m.rate
}

// Set moves the clock to t, forwards or backwards.
func (m *ManualClock) Set(t counter.Tickstamp) {
	m.mustNotBeNil("Set")
	m.now.Store(uint64(t))
}

// AdvanceTicks moves the clock by d ticks (back, for a negative d), wrapping
// modulo 2⁶⁴ as a counter does, and returns the new reading. Concurrent
// advances add up: none is lost.
func (m *ManualClock) AdvanceTicks(d counter.Tickdelta) counter.Tickstamp {
	m.mustNotBeNil("AdvanceTicks")
	return counter.Tickstamp(m.now.Add(uint64(d)))
}

// Advance moves the clock by d converted to ticks at its rate, as by
// [counter.TickRate.Ticks] (nothing at the zero [counter.TickRate]; back,
// for a negative d), and returns the new reading.
func (m *ManualClock) Advance(d time.Duration) counter.Tickstamp {
	m.mustNotBeNil("Advance")
	return m.AdvanceTicks(m.rate.Ticks(d))
}

// mustNotBeNil panics, naming the method call, where m is nil.
func (m *ManualClock) mustNotBeNil(call string) {
	if m == nil {
		panic("countertest: ManualClock." + call + ": a nil *ManualClock; make one with NewManualClock")
	}
}
