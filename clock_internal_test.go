package counter

import (
	"sync/atomic"
	"time"
)

// A testClock is a clock for this package's own tests, which moves only
// when told to, like countertest.ManualClock (which these tests cannot
// import: countertest imports counter).
type testClock struct {
	now  atomic.Uint64
	rate TickRate
}

var _ Clock = (*testClock)(nil)

func newTestClock(start Tickstamp, rate TickRate) *testClock {
	m := &testClock{rate: rate}
	m.now.Store(uint64(start))
	return m
}

func (m *testClock) Now() Tickstamp                     { return Tickstamp(m.now.Load()) }
func (m *testClock) Rate() TickRate                     { return m.rate }
func (m *testClock) Set(t Tickstamp)                    { m.now.Store(uint64(t)) }
func (m *testClock) AdvanceTicks(d Tickdelta) Tickstamp { return Tickstamp(m.now.Add(uint64(d))) }
func (m *testClock) Advance(d time.Duration) Tickstamp  { return m.AdvanceTicks(m.rate.Ticks(d)) }
