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
	h, p := counter.NewHistogram(), counterotel.NewProducer()
	if err := p.Register("request.duration", h, c.Rate()); err != nil {
		log.Fatal(err)
	}
	exp, err := otlpmetricgrpc.New(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	reader := metric.NewPeriodicReader(exp, metric.WithProducer(p))
	mp := metric.NewMeterProvider(metric.WithReader(reader))
	defer mp.Shutdown(context.Background())
}
