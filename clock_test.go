package counter_test

import (
	"testing"
	"time"

	"github.com/tickstamp/counter"
)

// TestClocksAgree times one sleep with a Monotonic Counter, at 1 GHz, and
// with time.Since: the two read the same clock, so the Counter's span is
// at least the sleep and no longer than time.Since's, which encloses it.
func TestClocksAgree(t *testing.T) {
	mono := counter.Monotonic()
	if got := mono.Rate().Hertz(); got != 1e9 {
		t.Fatalf("Monotonic().Rate() = %v; want 1 GHz", mono.Rate())
	}
	var clk counter.Clock = mono
	t0 := time.Now()
	m0 := clk.Now()
	time.Sleep(50 * time.Millisecond)
	m1 := clk.Now()
	since := time.Since(t0)
	dm := m1.Sub(m0).Duration(mono.Rate())
	if dm < 50*time.Millisecond {
		t.Fatalf("monotonic span %v across a 50 ms sleep; want at least 50 ms", dm)
	}
	if since < dm {
		t.Fatalf("time.Since span %v inside monotonic span %v; want it no shorter", since, dm)
	}
}
