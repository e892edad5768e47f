package counter_test

import (
	"fmt"
	"log"

	"github.com/tickstamp/counter"
)

// A service times its requests by method, route and status in one Family,
// and an exporter reads every series at each scrape. The limit of 3 series
// here shows the overflow series, which takes the sets past it; 0 would
// give the default of 2000. The spans are made up, in ticks of a 1 GHz
// counter; a service records c.Now().Sub(start) and converts at c.Rate().
func ExampleFamily() {
	f, err := counter.NewFamily([]string{"method", "route", "status"}, 3)
	if err != nil {
		log.Fatal(err)
	}
	rate, err := counter.NewTickRate(1_000_000_000)
	if err != nil {
		log.Fatal(err)
	}

	// The handlers, from any goroutine.
	f.With("GET", "/users", "200").Record(1200)
	f.With("GET", "/users", "200").Record(1500)
	f.With("POST", "/users", "201").Record(5000)
	f.With("GET", "/users", "404").Record(300) // past the limit
	f.With("GET", "/users", "500").Record(900) // past the limit

	// The exporter, at each scrape.
	labels := f.Labels()
	f.Interval(func(values []string, s *counter.Snapshot) {
		if values == nil {
			fmt.Print("overflow ")
		}
		for i, v := range values {
			fmt.Printf("%s=%s ", labels[i], v)
		}
		fmt.Println(s.Summary(rate))
	})
	// Output:
	// method=GET route=/users status=200 2 spans: mean 1.35µs, p50 1.2µs, p90 1.5µs, p99 1.5µs, p99.9 1.5µs, max 1.5µs
	// method=POST route=/users status=201 1 span: mean 5µs, p50 5µs, p90 5µs, p99 5µs, p99.9 5µs, max 5µs
	// overflow 2 spans: mean 600ns, p50 300ns, p90 900ns, p99 900ns, p99.9 900ns, max 900ns
}

// A family's series from a handler, and a reporter that reads them all, as
// the README shows.
func ExampleFamily_With() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	f, err := counter.NewFamily([]string{"method", "route"}, 0) // 2000 series at most
	if err != nil {
		log.Fatal(err)
	}
	// In a handler: no allocation once the series exists.
	start := c.Now()
	f.With("GET", "/users").Record(c.Now().Sub(start))
	// In the reporter.
	f.Interval(func(values []string, s *counter.Snapshot) {
		log.Print(values, s.Summary(c.Rate()))
	})
}
