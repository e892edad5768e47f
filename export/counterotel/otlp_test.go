package counterotel_test

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	collectormetricspb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	mpb "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/grpc"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/internal/spantest"
)

// A receiver is an OTLP metrics service that hands on what it receives.
type receiver struct {
	collectormetricspb.UnimplementedMetricsServiceServer
	got chan *collectormetricspb.ExportMetricsServiceRequest
}

func (r *receiver) Export(ctx context.Context, req *collectormetricspb.ExportMetricsServiceRequest) (*collectormetricspb.ExportMetricsServiceResponse, error) {
	select {
	case r.got <- req:
	default: // nobody is waiting: the export at shutdown
	}
	return &collectormetricspb.ExportMetricsServiceResponse{}, nil
}

// startReceiver serves a receiver on a port of 127.0.0.1 until the test
// ends, and returns it and its address.
func startReceiver(t *testing.T) (*receiver, string) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &receiver{got: make(chan *collectormetricspb.ExportMetricsServiceRequest, 1)}
	srv := grpc.NewServer()
	collectormetricspb.RegisterMetricsServiceServer(srv, r)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(lis) }()
	t.Cleanup(func() {
		srv.Stop()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return r, lis.Addr().String()
}

// received returns the metric named name in the request.
func received(t *testing.T, req *collectormetricspb.ExportMetricsServiceRequest, name string) *mpb.Metric {
	t.Helper()
	for _, rm := range req.GetResourceMetrics() {
		for _, sm := range rm.GetScopeMetrics() {
			if sm.GetScope().GetName() != counterotel.ScopeName {
				continue
			}
			for _, m := range sm.GetMetrics() {
				if m.GetName() == name {
					return m
				}
			}
		}
	}
	t.Fatalf("no metric %q received", name)
	return nil
}

// TestOTLP exports through the real OTLP gRPC exporter to a receiver in
// the test, in both temporalities, and checks what arrives: every field of
// the exponential histogram's point with checkPoint and against a Snapshot
// of the spans, and the sums beside it;
// and beside it the points of a registered Family, two series and the
// overflow, each with its attributes and its spans. The registration, a
// series and the overflow record a span with an exemplar at each
// collection, in another doubling each time: its trace and span ids, its
// seconds and the time of the collection that took it arrive on the
// point, one of each collection's where it is cumulative; the other
// series' point has none.
func TestOTLP(t *testing.T) {
	for _, tm := range temporalities {
		t.Run(tm.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			recv, addr := startReceiver(t)
			exp, err := otlpmetricgrpc.New(ctx,
				otlpmetricgrpc.WithEndpoint(addr),
				otlpmetricgrpc.WithInsecure(),
				otlpmetricgrpc.WithTemporalitySelector(tm.sel))
			if err != nil {
				t.Fatal(err)
			}
			p := counterotel.NewProducer(counterotel.WithTemporalitySelector(exp.Temporality))
			reader := metric.NewPeriodicReader(exp, metric.WithProducer(p), metric.WithInterval(time.Hour))
			mp := metric.NewMeterProvider(metric.WithReader(reader))
			defer func() {
				if err := mp.Shutdown(ctx); err != nil {
					t.Error(err)
				}
			}()

			h := counter.NewHistogram()
			if err := p.Register("request.duration", h, rate, attribute.String("route", "/r")); err != nil {
				t.Fatal(err)
			}
			f, err := counter.NewFamily([]string{"method"}, 3)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.RegisterFamily("request.duration", f, rate, attribute.String("route", "/f")); err != nil {
				t.Fatal(err)
			}
			// The family's points by their attributes, and the sets of
			// values each takes: the last two are past the limit.
			family := map[string][]string{
				"method=GET,route=/f":                {"GET"},
				"method=POST,route=/f":               {"POST"},
				"otel.metric.overflow=true,route=/f": {"PUT", "DELETE"},
			}
			familyAll := map[string][][]counter.Tickdelta{} // a batch a collection
			rnd := rand.New(rand.NewPCG(11, 11))
			var all [][]counter.Tickdelta
			var start uint64
			// The spans with an exemplar, one a collection, and the
			// first exemplar's number of each point that has them.
			exSpans := []counter.Tickdelta{3000, 100_000}
			exFirst := map[string]int{"route=/r": 1, "method=GET,route=/f": 11, "otel.metric.overflow=true,route=/f": 21}
			times := map[string][]time.Time{} // of each point, at each collection
			for c := range 2 {
				batch := spantest.Distributions[(3*c)%len(spantest.Distributions)].Spans(rnd, 40_000) // log-uniform, then with zeros
				spantest.Record(h, batch)
				h.RecordExemplar(exSpans[c], numbered(exFirst["route=/r"]+c))
				batch = append(batch, exSpans[c])
				h.Record(-5)
				all = append(all, batch)
				familyBatch := map[string][]counter.Tickdelta{}
				for _, attrs := range slices.Sorted(maps.Keys(family)) {
					for _, v := range family[attrs] {
						spans := spantest.Distributions[(3*c)%len(spantest.Distributions)].Spans(rnd, 1000)
						spantest.Record(f.With(v), spans)
						if first, ok := exFirst[attrs]; ok && v != "DELETE" {
							f.With(v).RecordExemplar(exSpans[c], numbered(first+c))
							spans = append(spans, exSpans[c])
						}
						familyBatch[attrs] = append(familyBatch[attrs], spans...)
					}
					familyAll[attrs] = append(familyAll[attrs], familyBatch[attrs])
				}
				f.With("PUT").Record(-5) // past the limit, once GET and POST have series
				if err := mp.ForceFlush(ctx); err != nil {
					t.Fatal(err)
				}
				var req *collectormetricspb.ExportMetricsServiceRequest
				select {
				case req = <-recv.got:
				case <-ctx.Done():
					t.Fatal("nothing received")
				}

				m := received(t, req, "request.duration")
				eh := m.GetExponentialHistogram()
				if m.GetUnit() != "s" || eh == nil || len(eh.GetDataPoints()) != 1+len(family) {
					t.Fatalf("received %v", m)
				}
				if eh.GetAggregationTemporality() != temporalityPB(tm.want) {
					t.Errorf("temporality %v, want %v", eh.GetAggregationTemporality(), tm.want)
				}
				dp := eh.GetDataPoints()[0]
				if got := attrsOf(dp.GetAttributes()); got != "route=/r" {
					t.Errorf("attributes %s", got)
				}
				for _, p := range eh.GetDataPoints() {
					attrs := attrsOf(p.GetAttributes())
					times[attrs] = append(times[attrs], time.Unix(0, int64(p.GetTimeUnixNano())))
					var want []wantExemplar
					if first, ok := exFirst[attrs]; ok {
						for k := range c + 1 {
							if k == c || tm.name == "cumulative" {
								want = append(want, wantExemplar{exSpans[k], numbered(first + k), times[attrs][k]})
							}
						}
					}
					checkReceivedExemplars(t, attrs, p.GetExemplars(), want)
				}
				for i, fdp := range eh.GetDataPoints()[1:] {
					attrs := attrsOf(fdp.GetAttributes())
					want, ok := familyAll[attrs]
					if tm.name == "delta" {
						want = want[c:]
					}
					if !ok {
						t.Errorf("family point %d: attributes %s", i, attrs)
						continue
					}
					if fdp.GetTimeUnixNano() != eh.GetDataPoints()[1].GetTimeUnixNano() {
						t.Errorf("family point %d {%s}: time %d, the first's %d", i, attrs, fdp.GetTimeUnixNano(), eh.GetDataPoints()[1].GetTimeUnixNano())
					}
					checkPoint(t, fromProto(fdp), want, defaults)
				}
				if c == 0 {
					start = dp.GetStartTimeUnixNano()
				} else if got := dp.GetStartTimeUnixNano(); (tm.name == "cumulative") != (got == start) {
					t.Errorf("collection %d starts at %d, the first at %d", c, got, start)
				}

				want, negative := all, int64(c+1)
				if tm.name == "delta" {
					want, negative = all[c:], 1
				}
				pt := fromProto(dp)
				checkPoint(t, pt, want, defaults)
				// The figures, as the Snapshot of the same spans has them.
				ref := spantest.SnapshotOf(slices.Concat(want...))
				if pt.count != ref.Count() || pt.sum != export.SumSeconds(ref, rate) ||
					pt.min != export.Seconds(ref.Min(), rate) || pt.max != export.Seconds(ref.Max(), rate) {
					t.Errorf("count %d, sum %g, min %g, max %g; the Snapshot's %d, %g, %g, %g", pt.count, pt.sum, pt.min, pt.max,
						ref.Count(), export.SumSeconds(ref, rate), export.Seconds(ref.Min(), rate), export.Seconds(ref.Max(), rate))
				}

				// The negative spans: the registration's, and one a
				// collection in the overflow; the family's other series
				// have none, and no point.
				neg := received(t, req, "request.duration.negative").GetSum()
				if neg == nil || !neg.GetIsMonotonic() || len(neg.GetDataPoints()) != 2 || neg.GetDataPoints()[0].GetAsInt() != negative {
					t.Fatalf("request.duration.negative: %v, want %d", neg, negative)
				}
				if ndp := neg.GetDataPoints()[1]; ndp.GetAsInt() != negative || !strings.Contains(attrsOf(ndp.GetAttributes()), "otel.metric.overflow=true") {
					t.Errorf("request.duration.negative {%s}: %d, want %d in the overflow", attrsOf(ndp.GetAttributes()), ndp.GetAsInt(), negative)
				}
				// No span migrated: the sum of them is not sent.
				for _, rm := range req.GetResourceMetrics() {
					for _, sm := range rm.GetScopeMetrics() {
						for _, m := range sm.GetMetrics() {
							if m.GetName() == "request.duration.migrated" {
								t.Errorf("received %v, a sum that counts no span", m)
							}
						}
					}
				}
				if neg.GetAggregationTemporality() != temporalityPB(tm.want) {
					t.Errorf("request.duration.negative: temporality %v", neg.GetAggregationTemporality())
				}
			}
		})
	}
}

// checkReceivedExemplars checks the exemplars of the point of attributes
// attrs against want, in order: the ids, the span in seconds, the time,
// and no attributes.
func checkReceivedExemplars(t *testing.T, attrs string, got []*mpb.Exemplar, want []wantExemplar) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("{%s}: %d exemplars %v; want %d %v", attrs, len(got), got, len(want), want)
		return
	}
	for i, w := range want {
		g := got[i]
		if !bytes.Equal(g.GetTraceId(), w.e.TraceID[:]) || !bytes.Equal(g.GetSpanId(), w.e.SpanID[:]) ||
			g.GetAsDouble() != float64(w.d)/hz || g.GetTimeUnixNano() != uint64(w.at.UnixNano()) || len(g.GetFilteredAttributes()) != 0 {
			t.Errorf("{%s}: exemplar %d: %v; want trace %x, span %x, %g s at %d", attrs, i, g, w.e.TraceID, w.e.SpanID, float64(w.d)/hz, w.at.UnixNano())
		}
	}
}

// attrsOf returns the attributes as key=value, in the order of their keys,
// parted by commas: attribute.DefaultEncoder's encoding of their set.
func attrsOf(kvs []*commonpb.KeyValue) string {
	var s []string
	for _, kv := range kvs {
		v := kv.GetValue()
		switch v.GetValue().(type) {
		case *commonpb.AnyValue_StringValue:
			s = append(s, kv.GetKey()+"="+v.GetStringValue())
		case *commonpb.AnyValue_BoolValue:
			s = append(s, kv.GetKey()+"="+strconv.FormatBool(v.GetBoolValue()))
		default:
			s = append(s, kv.GetKey()+"=?")
		}
	}
	slices.Sort(s)
	return strings.Join(s, ",")
}

// temporalityPB returns OTLP's name of the SDK's temporality.
func temporalityPB(t metricdata.Temporality) mpb.AggregationTemporality {
	switch t {
	case metricdata.DeltaTemporality:
		return mpb.AggregationTemporality_AGGREGATION_TEMPORALITY_DELTA
	case metricdata.CumulativeTemporality:
		return mpb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE
	}
	return mpb.AggregationTemporality_AGGREGATION_TEMPORALITY_UNSPECIFIED
}

// TestOTLPInvalidValue exports, through the real OTLP gRPC exporter, a
// Family one of whose series was made with values that are not UTF-8 or
// too long, beside an instrument of the SDK's own: every export succeeds,
// in every round, and carries the SDK's instrument and each series, with
// its values as the Family made them valid. A registration whose
// attributes OTLP cannot carry is refused, so it never joins a batch.
func TestOTLPInvalidValue(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	recv, addr := startReceiver(t)
	exp, err := otlpmetricgrpc.New(ctx, otlpmetricgrpc.WithEndpoint(addr), otlpmetricgrpc.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	p := counterotel.NewProducer()
	mp := metric.NewMeterProvider(metric.WithReader(metric.NewPeriodicReader(exp, metric.WithProducer(p), metric.WithInterval(time.Hour))))
	defer func() {
		if err := mp.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	}()
	sdk, err := mp.Meter("test").Int64Counter("sdk.requests")
	if err != nil {
		t.Fatal(err)
	}
	f, err := counter.NewFamily([]string{"route"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.RegisterFamily("request.duration", f, rate); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []attribute.KeyValue{
		attribute.String("route", "\xff"),
		attribute.String("\xff", "x"),
		attribute.StringSlice("routes", []string{"a", "\xfe"}),
	} {
		if err := p.Register("bad", counter.NewHistogram(), rate, bad); !errors.Is(err, counterotel.ErrInvalidAttribute) {
			t.Errorf("Register with %v: %v; want ErrInvalidAttribute", bad, err)
		}
		if err := p.RegisterFamily("bad.family", f, rate, bad); !errors.Is(err, counterotel.ErrInvalidAttribute) {
			t.Errorf("RegisterFamily with %v: %v; want ErrInvalidAttribute", bad, err)
		}
	}
	g, err := counter.NewFamily([]string{"a\xff"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.RegisterFamily("bad.label", g, rate); !errors.Is(err, counterotel.ErrInvalidAttribute) {
		t.Errorf("RegisterFamily of a label name that is not UTF-8: %v; want ErrInvalidAttribute", err)
	}

	long := strings.Repeat("r", counter.MaxValueLen+1)
	want := map[string]bool{"route=/ok": true, "route=/caf\uFFFD": true, "route=" + strings.Repeat("r", counter.MaxValueLen-len("…")) + "…": true}
	for round := range 2 {
		f.With("/ok").Record(10)
		f.With("/caf\xe9").Record(20)
		f.With(long).Record(30)
		sdk.Add(ctx, 1)
		if err := mp.ForceFlush(ctx); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		var req *collectormetricspb.ExportMetricsServiceRequest
		select {
		case req = <-recv.got:
		case <-ctx.Done():
			t.Fatalf("round %d: nothing received", round)
		}
		got := map[string]bool{}
		for _, dp := range received(t, req, "request.duration").GetExponentialHistogram().GetDataPoints() {
			got[attrsOf(dp.GetAttributes())] = true
		}
		if !maps.Equal(got, want) {
			t.Errorf("round %d: the family's points %q; want %q", round, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
		var sdkValue int64 = -1
		for _, rm := range req.GetResourceMetrics() {
			for _, sm := range rm.GetScopeMetrics() {
				for _, m := range sm.GetMetrics() {
					if m.GetName() == "sdk.requests" {
						sdkValue = m.GetSum().GetDataPoints()[0].GetAsInt()
					}
				}
			}
		}
		if sdkValue != int64(round+1) {
			t.Errorf("round %d: sdk.requests = %d; want %d", round, sdkValue, round+1)
		}
	}
}
