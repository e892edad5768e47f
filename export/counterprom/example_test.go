package counterprom_test

import (
	"log"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

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
	feed := export.NewFeed(h) // two readers: Prometheus and the log below
	prometheus.MustRegister(counterprom.New(feed.Tap(), c.Rate(), counterprom.Opts{
		Name:                        "request_duration_seconds",
		Help:                        "How long a request takes.",
		Buckets:                     []float64{0.0001, 0.001, 0.01, 0.1},
		NativeHistogramBucketFactor: 1.01, // schema 7: quantiles within 0.54%
	}))
	http.Handle("/metrics", promhttp.Handler())
	go http.ListenAndServe("127.0.0.1:9090", nil)

	start := c.Now() // in the worker, as the Distributions section shows
	h.Record(c.Now().Sub(start))

	mine, s := feed.Tap(), new(counter.Snapshot)
	mine.Interval(s) // each minute, say
	log.Print(s.Summary(c.Rate()))
}
