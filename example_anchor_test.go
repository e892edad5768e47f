package counter_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/tickstamp/counter"
)

// An Anchor turns readings stored on the hot path into wall-clock time
// later, on a logger's goroutine, with a background goroutine keeping it
// anchored.
func ExampleAnchor() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic() // where Discover refuses, the monotonic clock stands in
	}
	a, err := counter.NewAnchor(c)
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // re-anchor every second until cancelled
		if err := a.Run(ctx, time.Second); err != nil && ctx.Err() == nil {
			log.Printf("anchor: %v", err) // a clock that ran backwards
		}
	}()

	// The hot path stores a reading: one instruction, no time.Time.
	received := c.Now()

	// Later, on the logger's goroutine.
	at := a.Time(received)
	fmt.Println(time.Since(at) < time.Second, a.Bound() < time.Millisecond)
	// Output: true true
}
