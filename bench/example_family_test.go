package bench_test

import (
	"log"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/export/counterprom"
)

// A Family exported to Prometheus, one Collector for every series. A
// Family has one reader: each span goes to one Interval, so a second
// exporter of f would split its spans.
func Example_family() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	f, err := counter.NewFamily([]string{"method", "route"}, 0)
	if err != nil {
		log.Fatal(err)
	}
	prometheus.MustRegister(counterprom.NewFamily(f, c.Rate(), counterprom.Opts{
		Name: "request_duration_seconds", Help: "How long a request takes.",
		NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: 160,
	}))
	// or, in place of the Collector: p.RegisterFamily("request.duration", f, c.Rate())
}

// A Family exported to OpenTelemetry instead, one registration for every
// series, its labels as attributes.
func Example_familyOTel() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	f, err := counter.NewFamily([]string{"method", "route"}, 0)
	if err != nil {
		log.Fatal(err)
	}
	p := counterotel.NewProducer()
	if err := p.RegisterFamily("request.duration", f, c.Rate()); err != nil {
		log.Fatal(err)
	}
}

// A Family exported to Prometheus and to OpenTelemetry at once, as the
// README's Export section shows: a FamilyFeed is its one reader, and each
// exporter reads a FamilyTap of it, every span in both.
func Example_familyFeed() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	f, err := counter.NewFamily([]string{"method", "route"}, 0)
	if err != nil {
		log.Fatal(err)
	}
	feed, err := export.NewFamilyFeed(f) // two readers: Prometheus and OpenTelemetry
	if err != nil {
		log.Fatal(err)
	}
	prometheus.MustRegister(counterprom.NewFamily(feed.Tap(), c.Rate(), counterprom.Opts{
		Name: "request_duration_seconds", Help: "How long a request takes.",
		NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: 160,
	}))
	p := counterotel.NewProducer() // given to a reader: metric.WithProducer(p)
	if err := p.RegisterFamily("request.duration", feed.Tap(), c.Rate()); err != nil {
		log.Fatal(err)
	}
}
