package counter_test

import (
	"fmt"
	"time"

	"github.com/tickstamp/counter"
)

// A Counter at a rate known from elsewhere: stamps with Now, and a short
// piece of code timed between Begin and End.
func ExampleNew() {
	rate, err := counter.ParseTickRate("2.3 GHz") // from a config, or a discovery made earlier
	if err != nil {
		panic(err)
	}
	c := counter.New(rate)

	start := c.Now()
	work()
	took := c.Now().Sub(start)

	t0 := c.Begin()
	work()
	t1 := c.End()

	fmt.Println(took >= 0, t1.Sub(t0) >= 0, c.Rate())
	// Output: true true 2.3 GHz
}

// Back-to-back marks: one End closes one span and opens the next.
func ExampleCounter_End() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	t0 := c.Begin()
	work()
	t1 := c.End()
	work()
	t2 := c.End()
	first, second := t1.Sub(t0), t2.Sub(t1)
	fmt.Println(first >= 0 && second >= 0)
	// Output: true
}

// The fallback where discovery refuses the counter is a Counter too, which
// reads the runtime's monotonic clock: the code after it does not change.
func ExampleMonotonic() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic() // the runtime's monotonic clock, in ns at 1 GHz
	}

	start := c.Now()
	time.Sleep(time.Millisecond)
	took := c.Since(start)

	fmt.Println(took >= time.Millisecond, counter.Monotonic().Rate())
	// Output: true 1 GHz
}

// A reading handed to another goroutine, and the time since it there: Since
// reads with Now, which is ordered after the receive, so the span is never
// negative.
func ExampleCounter_Since() {
	c := counter.Monotonic() // or the Counter from Discover
	accepted := make(chan counter.Tickstamp)
	waited := make(chan time.Duration)
	go func() { // a worker
		start := <-accepted
		waited <- c.Since(start)
	}()
	accepted <- c.Now() // when a request was accepted
	fmt.Println(<-waited >= 0)
	// Output: true
}

// Where discovery refuses the counter, the monotonic clock takes its place
// behind the same interface.
func ExampleClock() {
	var clk counter.Clock = counter.Monotonic()
	start := clk.Now()
	time.Sleep(time.Millisecond)
	took := clk.Now().Sub(start).Duration(clk.Rate())
	fmt.Println(took >= time.Millisecond, clk.Rate())
	// Output: true 1 GHz
}

var workSink int

func work() {
	for i := range 100 {
		workSink += i
	}
}
