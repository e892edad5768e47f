package counter_test

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tickstamp/counter"
)

func TestManualClock(t *testing.T) {
	rate, err := counter.NewTickRate(24_000_000)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		move func(*counter.ManualClock) counter.Tickstamp
		want counter.Tickstamp
	}{
		{"none", (*counter.ManualClock).Now, 1000},
		{"microsecond", func(m *counter.ManualClock) counter.Tickstamp { return m.Advance(time.Microsecond) }, 1024},
		{"second", func(m *counter.ManualClock) counter.Tickstamp { return m.Advance(time.Second) }, 24_001_000},
		{"back", func(m *counter.ManualClock) counter.Tickstamp { return m.Advance(-time.Microsecond) }, 976},
		{"ticks", func(m *counter.ManualClock) counter.Tickstamp { return m.AdvanceTicks(5) }, 1005},
		{"wrap", func(m *counter.ManualClock) counter.Tickstamp { return m.AdvanceTicks(-1001) }, 1<<64 - 1},
		{"set", func(m *counter.ManualClock) counter.Tickstamp { m.Set(42); return 42 }, 42},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := counter.NewManualClock(1000, rate)
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
	var m counter.ManualClock
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
	const writers, advances = 8, 10_000
	m := counter.NewManualClock(0, counter.Gigahertz())
	var wg sync.WaitGroup
	done := make(chan struct{})
	var readers sync.WaitGroup
	for range 2 {
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
			}
		})
	}
	for range writers {
		wg.Go(func() {
			for range advances {
				m.Advance(time.Nanosecond)
			}
		})
	}
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
		m := counter.NewManualClock(0, counter.Gigahertz())
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

// TestClocksAgree times one sleep with the monotonic clock, the raw
// monotonic clock and time.Since, all at 1 GHz. The raw clock is never
// slewed, the monotonic one by at most 500 ppm, so over 50 ms they differ by
// at most 25 µs plus the reads; the bound allows 2 ms for a loaded machine.
func TestClocksAgree(t *testing.T) {
	mono, raw := counter.MonotonicClock{}, counter.RawClock{}
	for _, clk := range []counter.Clock{mono, raw} {
		if got := clk.Rate(); got != counter.Gigahertz() {
			t.Fatalf("%T.Rate() = %v; want %v", clk, got, counter.Gigahertz())
		}
	}
	t0 := time.Now()
	m0, r0 := mono.Now(), raw.Now()
	time.Sleep(50 * time.Millisecond)
	r1, m1 := raw.Now(), mono.Now()
	since := time.Since(t0)
	dm, dr := m1.Sub(m0).Duration(counter.Gigahertz()), r1.Sub(r0).Duration(counter.Gigahertz())
	if dm < 50*time.Millisecond {
		t.Fatalf("monotonic span %v across a 50 ms sleep; want at least 50 ms", dm)
	}
	if d := dm - dr; d < -2*time.Millisecond || d > 2*time.Millisecond {
		t.Fatalf("monotonic span %v, raw span %v; want them within 2 ms", dm, dr)
	}
	if since < dm {
		t.Fatalf("time.Since span %v inside monotonic span %v; want it no shorter", since, dm)
	}
}
