package counterprom_test

import (
	"encoding/hex"
	"fmt"
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

// Serve exemplars: each span recorded with the ids of its trace, as a
// tracer such as OpenTelemetry gives them (trace.SpanContext's TraceID and
// SpanID), links its bucket to that trace. The Anchor stamps each exemplar
// with the wall time of its At. The spans are made up, in ticks of the
// monotonic clock, 1 GHz.
func Example_exemplars() {
	c := counter.Monotonic()
	anchor, err := counter.NewAnchor(c)
	if err != nil {
		log.Fatal(err)
	}
	h := counter.NewHistogram()
	reg := prometheus.NewRegistry() // served with promhttp.HandlerOpts{EnableOpenMetrics: true}
	reg.MustRegister(counterprom.New(h, c.Rate(), counterprom.Opts{
		Name:                        "request_duration_seconds",
		Buckets:                     []float64{0.000002, 0.001},
		NativeHistogramBucketFactor: 1.1,
		Anchor:                      anchor,
	}))

	trace := func(id string) counter.Exemplar { // a handler's, from its tracer
		var e counter.Exemplar
		hex.Decode(e.TraceID[:], []byte(id))
		hex.Decode(e.SpanID[:], []byte(id[16:]))
		e.At = c.Now() // the span's end
		return e
	}
	// 1,200 and 1,500 ns are one doubling, whose slowest keeps its exemplar.
	h.RecordExemplar(1200, trace("4bf92f3577b34da6a3ce929d0e0e4736"))
	h.RecordExemplar(1500, trace("0af7651916cd43dd8448eb211c80319c"))
	h.RecordExemplar(90_000, trace("5b8efff798038103d269b633813fc60c"))
	h.Record(3000)

	families, err := reg.Gather()
	if err != nil {
		log.Fatal(err)
	}
	hist := families[0].GetMetric()[0].GetHistogram()
	for _, b := range hist.GetBucket() {
		if e := b.GetExemplar(); e != nil {
			fmt.Printf("le=%v: %v s, %v=%v\n", b.GetUpperBound(), e.GetValue(), e.GetLabel()[0].GetName(), e.GetLabel()[0].GetValue())
		}
	}
	for _, e := range hist.GetExemplars() {
		fmt.Printf("native: %v s, %v=%v\n", e.GetValue(), e.GetLabel()[0].GetName(), e.GetLabel()[0].GetValue())
	}
	// Output:
	// le=2e-06: 1.5e-06 s, trace_id=0af7651916cd43dd8448eb211c80319c
	// le=0.001: 9e-05 s, trace_id=5b8efff798038103d269b633813fc60c
	// native: 1.5e-06 s, trace_id=0af7651916cd43dd8448eb211c80319c
	// native: 9e-05 s, trace_id=5b8efff798038103d269b633813fc60c
}
