package counterotel_test

import (
	"context"
	"fmt"
	"log"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

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
	// Output:
	// request.duration
	// request.duration.negative
	// request.duration.migrated
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
