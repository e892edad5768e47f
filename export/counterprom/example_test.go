package counterprom_test

import (
	"log"
	"net/http"
	"os"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/expfmt"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterprom"
)

// Serve a worker's spans on /metrics, and log them too: a Feed gives each
// of the two readers a Tap, each Tap's Interval holding every span since
// its last.
func Example() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	h := counter.NewHistogram()
	feed, err := export.NewFeed(h) // two readers: Prometheus and the log below
	if err != nil {
		log.Fatal(err)
	}
	prometheus.MustRegister(counterprom.New(feed.Tap(), c.Rate(), counterprom.Opts{
		Name:                        "request_duration_seconds",
		Help:                        "How long a request takes.",
		Buckets:                     []float64{0.0001, 0.001, 0.01, 0.1},
		NativeHistogramBucketFactor: 1.01, // schema 7: quantiles within 0.94%
	}))
	http.Handle("/metrics", promhttp.Handler())
	go http.ListenAndServe("127.0.0.1:2112", nil)

	start := c.Now() // in the worker, as the Distributions section shows
	h.Record(c.Now().Sub(start))

	mine, s := feed.Tap(), new(counter.Snapshot)
	mine.Interval(s) // each minute, say
	log.Print(s.Summary(c.Rate()))
}

// Serve a Family of request durations by method and route. The limit of 3
// series here shows the overflow series, which takes the sets past it,
// every label Overflow; 0 would give the default of 2000. The spans are
// made up, in ticks of a 1 GHz counter; a service records
// c.Now().Sub(start) and converts at c.Rate().
func ExampleNewFamily() {
	f, err := counter.NewFamily([]string{"method", "route"}, 3)
	if err != nil {
		log.Fatal(err)
	}
	rate, err := counter.NewTickRate(1_000_000_000)
	if err != nil {
		log.Fatal(err)
	}
	reg := prometheus.NewRegistry() // or prometheus.MustRegister, and promhttp.Handler()
	reg.MustRegister(counterprom.NewFamily(f, rate, counterprom.Opts{
		Name:    "request_duration_seconds",
		Help:    "How long a request takes.",
		Buckets: []float64{0.000002},
	}))

	// The handlers, from any goroutine.
	f.With("GET", "/users").Record(1200)
	f.With("GET", "/users").Record(1500)
	f.With("POST", "/users").Record(5000)
	f.With("DELETE", "/users").Record(300) // past the limit

	// A scrape, in the text format.
	families, err := reg.Gather()
	if err != nil {
		log.Fatal(err)
	}
	for _, mf := range families {
		if mf.GetName() == "request_duration_seconds" {
			if _, err := expfmt.MetricFamilyToText(os.Stdout, mf); err != nil {
				log.Fatal(err)
			}
		}
	}
	// Output:
	// # HELP request_duration_seconds How long a request takes.
	// # TYPE request_duration_seconds histogram
	// request_duration_seconds_bucket{method="GET",route="/users",le="2e-06"} 2
	// request_duration_seconds_bucket{method="GET",route="/users",le="+Inf"} 2
	// request_duration_seconds_sum{method="GET",route="/users"} 2.7e-06
	// request_duration_seconds_count{method="GET",route="/users"} 2
	// request_duration_seconds_bucket{method="POST",route="/users",le="2e-06"} 0
	// request_duration_seconds_bucket{method="POST",route="/users",le="+Inf"} 1
	// request_duration_seconds_sum{method="POST",route="/users"} 5e-06
	// request_duration_seconds_count{method="POST",route="/users"} 1
	// request_duration_seconds_bucket{method="__overflow__",route="__overflow__",le="2e-06"} 1
	// request_duration_seconds_bucket{method="__overflow__",route="__overflow__",le="+Inf"} 1
	// request_duration_seconds_sum{method="__overflow__",route="__overflow__"} 3e-07
	// request_duration_seconds_count{method="__overflow__",route="__overflow__"} 1
}
