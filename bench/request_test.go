package bench_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/counterhttp"
	"go.opentelemetry.io/otel/attribute"
	otelmetric "go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/sdk/metric"
)

// requestLabels are the (method, route) pairs BenchmarkRequest times
// requests into, one after another: a series each, made before the timer
// starts, as a running service has them.
var requestLabels = [8][2]string{
	{"GET", "GET /items/{id}"}, {"POST", "POST /items"},
	{"GET", "GET /items"}, {"DELETE", "DELETE /items/{id}"},
	{"GET", "GET /users/{id}"}, {"PUT", "PUT /users/{id}"},
	{"GET", "GET /health"}, {"GET", "GET /{$}"},
}

// BenchmarkRequest times the instrumentation of one request, without
// HTTP: two reads of the clock and a record into a distribution labelled
// by method and route. Ours reads the counter twice and records into a
// Family's series, f.With(method, route).Record(c.Now().Sub(start));
// the peers read time.Now and time.Since and record the seconds into
// Prometheus's HistogramVec, through WithLabelValues, with its default
// classic buckets and with native buckets, and into the OpenTelemetry
// SDK's Float64Histogram, with its default explicit buckets and
// exponential at scale 7, as a careful user does: an attribute set and
// its record options made once for each pair. Each runs on one goroutine and
// on two at once (goroutines=2, ns/op then being the time of the pair
// over the requests of both). Run it as
//
//	cd bench && go test -run '^$' -bench 'Request$' -benchtime 0.3s -count 6 -benchmem .
func BenchmarkRequest(b *testing.B) {
	c := counter.New(gigahertz) // a read is the same at any rate
	cases := []struct {
		name string
		// timer returns the timing of a request of labels k.
		timer func(b *testing.B) func(k int)
	}{
		{"ours=Family", func(b *testing.B) func(k int) {
			f, err := counter.NewFamily([]string{"method", "route"}, 0)
			if err != nil {
				b.Fatal(err)
			}
			return func(k int) {
				start := c.Now()
				f.With(requestLabels[k][0], requestLabels[k][1]).Record(c.Now().Sub(start))
			}
		}},
		{"prometheus=classic", func(b *testing.B) func(k int) {
			return prometheusTimer(prometheus.HistogramOpts{Name: "request_duration_seconds", Help: "Requests."})
		}},
		{"prometheus=native", func(b *testing.B) func(k int) {
			return prometheusTimer(prometheus.HistogramOpts{Name: "request_duration_seconds", Help: "Requests.", NativeHistogramBucketFactor: nativeFactor})
		}},
		{"otel=explicit", func(b *testing.B) func(k int) {
			mp := metric.NewMeterProvider(metric.WithReader(metric.NewManualReader()))
			b.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
			h, err := mp.Meter("bench").Float64Histogram("span", otelmetric.WithUnit("s"))
			if err != nil {
				b.Fatal(err)
			}
			return otelTimer(h)
		}},
		{"otel=exponential", func(b *testing.B) func(k int) {
			return otelTimer(otelHistogram(b, metric.NewManualReader(), 160, 7))
		}},
	}
	for _, tc := range cases {
		for _, goroutines := range []int{1, 2} {
			name := tc.name + map[int]string{1: "/goroutines=1", 2: "/goroutines=2"}[goroutines]
			b.Run(name, func(b *testing.B) {
				timer := tc.timer(b)
				for k := range requestLabels {
					timer(k) // the series are made
				}
				b.ReportAllocs()
				b.ResetTimer()
				var wg sync.WaitGroup
				for g := range goroutines {
					wg.Go(func() {
						for i := g; i < b.N; i += goroutines {
							timer(i % len(requestLabels))
						}
					})
				}
				wg.Wait()
			})
		}
	}
}

// prometheusTimer returns BenchmarkRequest's timing into a HistogramVec
// of opts, labelled by method and route.
func prometheusTimer(opts prometheus.HistogramOpts) func(k int) {
	vec := prometheus.NewHistogramVec(opts, []string{"method", "route"})
	return func(k int) {
		start := time.Now()
		vec.WithLabelValues(requestLabels[k][0], requestLabels[k][1]).Observe(time.Since(start).Seconds())
	}
}

// otelTimer returns BenchmarkRequest's timing into h, with an attribute
// set of method and route made once for each pair, and the slice of
// options that holds it too: a Record given the option alone allocates
// the slice its variadic parameter needs.
func otelTimer(h otelmetric.Float64Histogram) func(k int) {
	var opts [len(requestLabels)][]otelmetric.RecordOption
	for k, l := range requestLabels {
		opts[k] = []otelmetric.RecordOption{otelmetric.WithAttributeSet(attribute.NewSet(attribute.String("method", l[0]), attribute.String("route", l[1])))}
	}
	ctx := context.Background()
	return func(k int) {
		start := time.Now()
		h.Record(ctx, time.Since(start).Seconds(), opts[k]...)
	}
}

// BenchmarkRequestMiddleware serves one request through a ServeMux with
// one route and a handler that sets its type and writes two bytes, into an
// httptest.ResponseRecorder made for each request, with no network: bare,
// the mux alone; ours, counterhttp's Handler around the mux, into a Family
// of method, route and status; prometheus, the mux with promhttp's
// InstrumentHandlerDuration around the route's handler, into a
// HistogramVec of method and code and the route curried, as promhttp asks.
// What a middleware costs is its ns/op less bare's. Run it as
//
//	cd bench && go test -run '^$' -bench 'RequestMiddleware$' -benchtime 0.3s -count 6 -benchmem .
func BenchmarkRequestMiddleware(b *testing.B) {
	const route = "GET /items/{id}"
	handle := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The type is set, as a service sets it: a recorder sniffs it
		// only for a body written before the status, which promhttp's
		// writer never passes on, and would charge the sniffing's
		// allocations to the other cases alone.
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "ok")
	})
	mux := func(h http.Handler) *http.ServeMux {
		m := http.NewServeMux()
		m.Handle(route, h)
		return m
	}
	serve := func(b *testing.B, h http.Handler) {
		r := httptest.NewRequest("GET", "/items/42", nil)
		h.ServeHTTP(httptest.NewRecorder(), r) // the series is made
		b.ReportAllocs()
		for b.Loop() {
			h.ServeHTTP(httptest.NewRecorder(), r)
		}
	}
	b.Run("bare", func(b *testing.B) { serve(b, mux(handle)) })
	b.Run("ours=counterhttp", func(b *testing.B) {
		f, err := counter.NewFamily([]string{"method", "route", "status"}, 0)
		if err != nil {
			b.Fatal(err)
		}
		serve(b, counterhttp.Handler(f, counter.New(gigahertz), mux(handle)))
	})
	b.Run("prometheus=promhttp", func(b *testing.B) {
		vec := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "request_duration_seconds", Help: "Requests."}, []string{"method", "code", "route"})
		curried := vec.MustCurryWith(prometheus.Labels{"route": route})
		serve(b, mux(promhttp.InstrumentHandlerDuration(curried, handle)))
	})
}
