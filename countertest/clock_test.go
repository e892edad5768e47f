package countertest_test

import (
	"runtime"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/countertest"
)

// gigahertz returns the rate of 1 GHz, at which a tick is a nanosecond.
func gigahertz(t testing.TB) counter.TickRate {
	r, err := counter.NewTickRate(1e9)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestManualClock(t *testing.T) {
	rate, err := counter.NewTickRate(24_000_000)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		move func(*countertest.ManualClock) counter.Tickstamp
		want counter.Tickstamp
	}{
		{"none", (*countertest.ManualClock).Now, 1000},
		{"microsecond", func(m *countertest.ManualClock) counter.Tickstamp { return m.Advance(time.Microsecond) }, 1024},
		{"second", func(m *countertest.ManualClock) counter.Tickstamp { return m.Advance(time.Second) }, 24_001_000},
		{"back", func(m *countertest.ManualClock) counter.Tickstamp { return m.Advance(-time.Microsecond) }, 976},
		{"ticks", func(m *countertest.ManualClock) counter.Tickstamp { return m.AdvanceTicks(5) }, 1005},
		{"wrap", func(m *countertest.ManualClock) counter.Tickstamp { return m.AdvanceTicks(-1001) }, 1<<64 - 1},
		{"set", func(m *countertest.ManualClock) counter.Tickstamp { m.Set(42); return 42 }, 42},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := countertest.NewManualClock(1000, rate)
			if got := tc.move(m); got != tc.want {
				t.Fatalf("returned %v; want %v", got, tc.want)
			}
			if got := m.Now(); got != tc.want {
				t.Fatalf("Now() = %v; want %v", got, tc.want)
			}
			if got := m.Rate(); got != rate {
				t.Fatalf("Rate() = %v; want %v", got, rate)
			}
		})
	}
}

func TestZeroManualClock(t *testing.T) {
	var m countertest.ManualClock
	if got := m.Advance(time.Hour); got != 0 {
		t.Fatalf("Advance(1h) at the zero rate = %v; want 0 ticks", got)
	}
	if got := m.AdvanceTicks(7); got != 7 {
		t.Fatalf("AdvanceTicks(7) = %v; want 7 ticks", got)
	}
}

// TestManualClockConcurrent advances one clock from many goroutines while
// others read it: no advance is lost and no reader sees it step back. Run it
// with -race.
func TestManualClockConcurrent(t *testing.T) {
	const writers, advances = 8, 50_000
	m := countertest.NewManualClock(0, gigahertz(t))
	var wg sync.WaitGroup
	done := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
		// Each reader yields after each read, so that the writers have
		// the processors and advance side by side, where a lost advance
		// would show.
		readers.Go(func() {
			prev := m.Now()
			for {
				select {
				case <-done:
					return
				default:
				}
				got := m.Now()
				if got < prev {
					t.Errorf("Now() = %v after %v; want no step back while only advancing", got, prev)
					return
				}
				prev = got
				runtime.Gosched()
			}
		})
	}
	start := make(chan struct{}) // the writers advance at once, not one after another
	for range writers {
		wg.Go(func() {
			<-start
			for range advances {
				m.Advance(time.Nanosecond)
			}
		})
	}
	close(start)
	wg.Wait()
	close(done)
	readers.Wait()
	if got, want := m.Now(), counter.Tickstamp(writers*advances); got != want {
		t.Fatalf("Now() = %v; want %v", got, want)
	}
}

// TestManualClockSynctest moves a ManualClock in step with the fake time of
// a synctest bubble, as a user's test would: a goroutine advances it by each
// sleep, and the reading follows the bubble's time exactly.
func TestManualClockSynctest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := countertest.NewManualClock(0, gigahertz(t))
		start := time.Now()
		go func() {
			for range 10 {
				time.Sleep(time.Millisecond)
				m.Advance(time.Millisecond)
			}
		}()
		time.Sleep(5*time.Millisecond + time.Microsecond)
		synctest.Wait()
		if got, want := m.Now(), counter.Tickstamp(5e6); got != want {
			t.Fatalf("after %v: Now() = %v; want %v", time.Since(start), got, want)
		}
		time.Sleep(time.Hour)
		if got, want := m.Now().Sub(0).Duration(m.Rate()), 10*time.Millisecond; got != want {
			t.Fatalf("after %v: clock at %v; want %v", time.Since(start), got, want)
		}
	})
}
