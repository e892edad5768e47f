package counter_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tickstamp/counter"
)

// The anchor's benchmarks, to be run side by side in one run:
//
//	go test -run '^$' -bench 'Anchor' -count 10 .
//
// BenchmarkAnchorTime converts stored readings, as a logger does;
// BenchmarkAnchorTimeNow is the time.Now a hot path would call instead;
// BenchmarkAnchorNowTime reads the counter and converts at once;
// BenchmarkAnchorTimeReanchoring converts stored readings while another
// goroutine re-anchors every millisecond, the shortest period Run accepts:
// conversions never wait for it, so it should cost what BenchmarkAnchorTime
// does, give or take the CPU the re-anchoring takes on a loaded machine.

var anchorSink time.Time

// anchorClock is the discovered counter, or the monotonic clock where
// Discover refuses.
func anchorClock() counter.Clock {
	if c, err := counter.Discover(); err == nil {
		return c
	}
	return counter.Monotonic()
}

func BenchmarkAnchorTime(b *testing.B) {
	clk := anchorClock()
	a, err := counter.NewAnchor(clk)
	if err != nil {
		b.Fatal(err)
	}
	var stored [1024]counter.Tickstamp
	for i := range stored {
		stored[i] = clk.Now()
	}
	b.ReportAllocs()
	var last time.Time
	i := 0
	for b.Loop() {
		last = a.Time(stored[i%len(stored)])
		i++
	}
	anchorSink = last
}

func BenchmarkAnchorTimeReanchoring(b *testing.B) {
	clk := anchorClock()
	a, err := counter.NewAnchor(clk)
	if err != nil {
		b.Fatal(err)
	}
	var stored [1024]counter.Tickstamp
	for i := range stored {
		stored[i] = clk.Now()
	}
	ctx, cancel := context.WithCancel(b.Context())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, time.Millisecond) }()
	b.ReportAllocs()
	var last time.Time
	i := 0
	for b.Loop() {
		last = a.Time(stored[i%len(stored)])
		i++
	}
	anchorSink = last
	b.StopTimer()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		b.Fatalf("Run returned %v; want context.Canceled", err)
	}
}

func BenchmarkAnchorTimeNow(b *testing.B) {
	b.ReportAllocs()
	var last time.Time
	for b.Loop() {
		last = time.Now()
	}
	anchorSink = last
}

func BenchmarkAnchorNowTime(b *testing.B) {
	c, err := counter.Discover()
	if err != nil {
		b.Skip(err)
	}
	a, err := counter.NewAnchor(c)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var last time.Time
	for b.Loop() {
		last = a.Time(c.Now())
	}
	anchorSink = last
}

func BenchmarkAnchorReanchor(b *testing.B) {
	a, err := counter.NewAnchor(anchorClock())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := a.Reanchor(); err != nil {
			b.Fatal(err)
		}
	}
}
