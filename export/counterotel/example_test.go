package counterotel_test

import (
	"context"
	"log"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/sdk/metric"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/counterotel"
)

// Export a Histogram's spans through OTLP, to the endpoint that
// OTEL_EXPORTER_OTLP_ENDPOINT names (localhost:4317 by default). Then time
// each request into h:
//
//	start := c.Now()
//	handle(req)
//	h.Record(c.Now().Sub(start))
func Example() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic() // the runtime's clock, where the counter is refused
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
