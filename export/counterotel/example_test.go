package counterotel_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"math"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/counterotel"
)

// Hand a Histogram's spans to an OpenTelemetry reader: here a ManualReader,
// collected once; a PeriodicReader of an exporter serves the same way
// (Example_oTLP).
func Example() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic() // the runtime's clock, where the counter is refused
	}
	h, ctx := counter.NewHistogram(), context.Background()
	p := counterotel.NewProducer()
	if err := p.Register("request.duration", h, c.Rate()); err != nil {
		log.Fatal(err)
	}
	reader := metric.NewManualReader(metric.WithProducer(p))
	mp := metric.NewMeterProvider(metric.WithReader(reader))
	defer mp.Shutdown(ctx)

	start := c.Now() // in the worker, as the Distributions section shows
	h.Record(c.Now().Sub(start))

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		log.Fatal(err)
	}
	for _, m := range rm.ScopeMetrics[0].Metrics {
		fmt.Println(m.Name)
	}
	// The sums of negative and migrated spans beside the histogram have no
	// span to count, and are not exported.

	// Output:
	// request.duration
}

// Export a Histogram's spans through OTLP, to the endpoint that
// OTEL_EXPORTER_OTLP_ENDPOINT names (localhost:4317 by default), in the
// temporality the exporter asks for.
func Example_oTLP() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	h, ctx := counter.NewHistogram(), context.Background()
	exp, err := otlpmetricgrpc.New(ctx)
	if err != nil {
		log.Fatal(err)
	}
	p := counterotel.NewProducer(counterotel.WithTemporalitySelector(exp.Temporality))
	if err := p.Register("request.duration", h, c.Rate()); err != nil {
		log.Fatal(err)
	}
	mp := metric.NewMeterProvider(metric.WithReader(metric.NewPeriodicReader(exp, metric.WithProducer(p))))
	defer mp.Shutdown(ctx)
}

// Export each series of a Family as a point of one metric: the labels
// become attributes beside the registration's own, and the overflow
// series, which takes the sets of values past the family's limit (3 here,
// to show it), is the point the OpenTelemetry SDK marks with
// otel.metric.overflow=true. The spans are made up, in ticks of a 1 GHz
// counter; a service records c.Now().Sub(start) and converts at c.Rate().
func ExampleProducer_RegisterFamily() {
	f, err := counter.NewFamily([]string{"method", "route"}, 3)
	if err != nil {
		log.Fatal(err)
	}
	rate, err := counter.NewTickRate(1_000_000_000)
	if err != nil {
		log.Fatal(err)
	}
	p := counterotel.NewProducer()
	if err := p.RegisterFamily("request.duration", f, rate, attribute.String("service", "api")); err != nil {
		log.Fatal(err)
	}
	reader := metric.NewManualReader(metric.WithProducer(p))
	mp := metric.NewMeterProvider(metric.WithReader(reader))
	defer mp.Shutdown(context.Background())

	// The handlers, from any goroutine.
	f.With("GET", "/users").Record(1200)
	f.With("GET", "/users").Record(1500)
	f.With("POST", "/users").Record(5000)
	f.With("GET", "/orders").Record(300)   // past the limit
	f.With("DELETE", "/users").Record(900) // past the limit

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		log.Fatal(err)
	}
	hist := rm.ScopeMetrics[0].Metrics[0].Data.(metricdata.ExponentialHistogram[float64])
	for _, dp := range hist.DataPoints {
		sum := time.Duration(math.Round(dp.Sum * float64(time.Second)))
		fmt.Printf("{%s}: count %d, sum %v\n", dp.Attributes.Encoded(attribute.DefaultEncoder()), dp.Count, sum)
	}
	// Output:
	// {method=GET,route=/users,service=api}: count 2, sum 2.7µs
	// {method=POST,route=/users,service=api}: count 1, sum 5µs
	// {otel.metric.overflow=true,service=api}: count 2, sum 1.2µs
}

// Record a span with the trace it served: the exemplar of the request's
// context, with the counter's reading at the span's end, which the
// Producer's Anchor turns into the exemplar's time. A backend links the
// histogram's slow spans to their traces.
func ExampleExemplar() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	a, err := counter.NewAnchor(c)
	if err != nil {
		log.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()))
	defer tp.Shutdown(context.Background())
	h := counter.NewHistogram()
	p := counterotel.NewProducer(counterotel.WithAnchor(a))
	if err := p.Register("request.duration", h, c.Rate()); err != nil {
		log.Fatal(err)
	}
	reader := metric.NewManualReader(metric.WithProducer(p))
	mp := metric.NewMeterProvider(metric.WithReader(reader))
	defer mp.Shutdown(context.Background())

	// The handler, in a request's span: three lines. Exemplar names the
	// span where it is sampled; set the result's At to a reading of c,
	// such as the span's end, to export the exemplar's own time, which
	// WithAnchor converts, rather than the collection's.
	ctx, span := tp.Tracer("example").Start(context.Background(), "request")
	serve := func(context.Context) {}
	start := c.Now()
	serve(ctx) // the request's work
	h.RecordExemplar(c.Now().Sub(start), counterotel.Exemplar(ctx))
	span.End()

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		log.Fatal(err)
	}
	dp := rm.ScopeMetrics[0].Metrics[0].Data.(metricdata.ExponentialHistogram[float64]).DataPoints[0]
	trace := span.SpanContext().TraceID()
	fmt.Println(len(dp.Exemplars), bytes.Equal(dp.Exemplars[0].TraceID, trace[:]))
	// Output:
	// 1 true
}
