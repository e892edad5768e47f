package counter_test

import (
	"fmt"
	"log"
	"time"

	"github.com/tickstamp/counter"
)

// A service discovers the counter once at start-up, and falls back to the
// monotonic clock where the counter is refused: the code that stamps and
// converts takes a Clock, and does not change.
func ExampleDiscover() {
	var clock counter.Clock
	if c, err := counter.Discover(); err == nil {
		clock = c
	} else {
		log.Printf("no counter to time with (%v): using the monotonic clock", err)
		clock = counter.Monotonic()
	}

	start := clock.Now()
	sleepAMillisecond()
	span := clock.Now().Sub(start)

	// Later, off the hot path:
	took := span.Duration(clock.Rate())
	fmt.Println(took > 0 && took < time.Second)
	// Output: true
}

func sleepAMillisecond() { time.Sleep(time.Millisecond) }

// DiscoverDetails says where the rate came from, for a start-up log line.
func ExampleDiscoverDetails() {
	c, d, err := counter.DiscoverDetails()
	if err != nil {
		log.Printf("counter refused after %v: %v", d.Took, err)
		return
	}
	log.Printf("counter at %v from %v, found in %v", c.Rate(), d.Source, d.Took)
	if d.Window != 0 {
		log.Printf("last measurement over %v: spread %.3f ppm, %.3f ppm from the reported rate", d.Window, d.SpreadPPM, d.DisagreementPPM)
	}
}
