package bench_test

import (
	"log"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/export/counterprom"
)

// A Family exported to Prometheus, one Collector for every series, and to
// OpenTelemetry, one registration: as the README's Export section shows.
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
	p := counterotel.NewProducer() // and to OpenTelemetry, one registration
	if err := p.RegisterFamily("request.duration", f, c.Rate()); err != nil {
		log.Fatal(err)
	}
}
