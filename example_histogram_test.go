package counter_test

import (
	"context"
	"fmt"
	"log"
	"sync"
	"time"

	"github.com/tickstamp/counter"
)

// A worker stamps each request with the counter and records the span in
// ticks into a Recorder of its own, the cheapest way to record; a reporter
// takes the spans of the last second with Interval, converts the quantiles
// to time there, off the hot path, and logs them.
func ExampleHistogram() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	h := counter.NewHistogram()
	ctx, stop := context.WithTimeout(context.Background(), 3*time.Second)
	defer stop()

	// The worker.
	requests := make(chan func())
	var wg sync.WaitGroup
	wg.Go(func() {
		r := h.Recorder()
		defer r.Close() // give it up when the worker stops
		for handle := range requests {
			start := c.Now()
			handle()
			r.Record(c.Now().Sub(start))
		}
	})

	// The reporter.
	wg.Go(func() {
		var s counter.Snapshot // reused: Interval does not allocate
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			h.Interval(&s)
			s.Draw(log.Writer(), c.Rate()) // "1000 spans", "mean 1.23µs, p50 …", then a text histogram
		}
	})

	for ctx.Err() == nil {
		requests <- func() { time.Sleep(time.Millisecond) }
	}
	close(requests)
	wg.Wait()
}

// Quantiles are estimates within QuantileError of the exact order statistic
// (exact for spans under 256 ticks and at both ends); count, sum, mean,
// minimum and maximum are exact.
func ExampleSnapshot_Quantile() {
	h := counter.NewHistogram()
	for i := 1; i <= 1000; i++ {
		h.Record(counter.Tickdelta(i * 1000)) // 1,000 to 1,000,000 ticks
	}
	h.Record(-3) // readings that crossed: counted apart
	var s counter.Snapshot
	h.Interval(&s)
	fmt.Println(s.Count(), "spans,", s.Negative(), "negative")
	fmt.Println("min", s.Min(), "max", s.Max())
	fmt.Println("mean", s.Mean())
	fmt.Println("p50", s.Quantile(0.5), "(exact: 500000)")
	fmt.Println("p99", s.Quantile(0.99), "(exact: 990000)")
	// At 1 GHz a tick is a nanosecond.
	oneGHz, _ := counter.NewTickRate(1e9)
	fmt.Println("p99", s.Quantile(0.99).Duration(oneGHz))
	// Output:
	// 1000 spans, 1 negative
	// min 1000 ticks max 1000000 ticks
	// mean 500500 ticks
	// p50 500736 ticks (exact: 500000)
	// p99 989184 ticks (exact: 990000)
	// p99 989.184µs
}

// The empty span of a pair of reads is what every span of that pair holds
// besides the code it times; QuantileLess takes it off.
func ExampleCounter_Floor() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	var floor, spans counter.Snapshot
	c.Floor(counter.BeginEnd, &floor)

	h := counter.NewHistogram()
	r := h.Recorder()
	for range 1000 {
		t0 := c.Begin()
		_ = fmt.Sprint(42) // the code to time
		r.Record(c.End().Sub(t0))
	}
	h.Interval(&spans)
	rate := c.Rate()
	log.Printf("fmt.Sprint: p50 %v, p99 %v, with the reads' own %v taken off",
		spans.QuantileLess(0.5, floor.Quantile(0.5)).Duration(rate),
		spans.QuantileLess(0.99, floor.Quantile(0.5)).Duration(rate),
		floor.Quantile(0.5).Duration(rate))
}
