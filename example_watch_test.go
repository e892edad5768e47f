package counter_test

import (
	"context"
	"log"
	"sync/atomic"
	"time"

	"github.com/tickstamp/counter"
)

// A service times with the counter, keeps a Watch running beside it, and
// acts on each event: on an untrusted counter it switches its Clock to the
// monotonic clock and alerts; on a degraded one it adopts the watch's
// refined rate (or discovers again) and starts a new watch. Readers load the
// Clock through an atomic pointer, so the switch needs no lock. The watch
// hands its events to the service's loop through a buffered channel,
// without ever waiting for the loop.
func ExampleWatch() {
	var clock atomic.Pointer[counter.Clock]
	use := func(c counter.Clock) { clock.Store(&c) }

	c, d, err := counter.DiscoverDetails()
	if err != nil {
		log.Printf("no counter (%v): timing with the monotonic clock", err)
		use(counter.Monotonic())
		return
	}
	use(c)

	ctx, stop := context.WithTimeout(context.Background(), 3*time.Second)
	defer stop()
	events := make(chan counter.Event, 16)
	w, err := counter.NewWatch(c, counter.WatchOptions{Discovery: &d, OnEvent: func(e counter.Event) {
		select {
		case events <- e:
		default: // the service is behind: w.State() still holds the worst
		}
	}})
	if err != nil {
		log.Printf("cannot watch the counter: %v", err) // keep it, unwatched, or fall back
		return
	}
	go w.Run(ctx, time.Second)

	for {
		select {
		case <-ctx.Done():
			rate, uncertainty := w.Refined()
			log.Printf("refined rate %v ± %.4f ppm", rate, uncertainty)
			return
		case e := <-events:
			log.Printf("counter: %v (state %v)", e, w.State()) // and alert
			switch e.Severity {
			case counter.Untrusted:
				// Jumps, a clocksource the kernel gave up on, CPUs that
				// disagree: spans across the fault are wrong by any amount.
				use(counter.Monotonic())
				return
			case counter.Degraded:
				// The rate moved: convert at the rate the raw clock gives
				// the counter now. Stored readings are ticks of the same
				// counter; they convert better at the refined rate too.
				// This watch holds the old rate: a new Watch of the new
				// Counter watches the new one.
				if rate, _ := w.Refined(); rate.Hertz() != 0 {
					use(counter.New(rate))
					return // and start a new Watch of it
				}
			}
		}
	}
}

// A service that discovers with DiscoverDetails gives its Watch the
// Discovery too, so that the watch covers a measured rate's own error.
func ExampleWatchOptions_discovery() {
	c, d, err := counter.DiscoverDetails()
	if err != nil {
		log.Printf("no counter (%v): nothing to watch", err)
		return
	}
	w, err := counter.NewWatch(c, counter.WatchOptions{Discovery: &d})
	if err != nil {
		log.Printf("cannot watch the counter: %v", err)
		return
	}
	ctx, stop := context.WithTimeout(context.Background(), time.Second)
	defer stop()
	w.Run(ctx, 100*time.Millisecond)
	log.Printf("the counter after a second: %v", w.State())
}
