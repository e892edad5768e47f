package bench_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	collectormetricspb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	mpb "go.opentelemetry.io/proto/otlp/metrics/v1"
	"google.golang.org/grpc"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/counterhttp"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/export/counterprom"
)

// The service of TestExemplarEndToEnd: e2eRequests requests of e2eRoute,
// from e2eClients goroutines at once, the e2eSlowAt-th of which, in the
// order the service takes them, sleeps e2eSleep; the others return at once.
// The test holds only where the slow request is the slowest: a 2-CPU
// machine at a load of 20, two busy loops among it, has held up a fast one
// for 0.4 s, and the sleep is well past that.
const (
	e2eRequests = 40
	e2eClients  = 4
	e2eSlowAt   = 20
	e2eSleep    = time.Second
	e2eRoute    = "GET /work"
	e2ePromName = "http_server_request_duration_seconds"
	e2eOTelName = "http.server.request.duration"
)

// e2eRateError bounds, relatively, how far a span by the counter and the
// same span by the monotonic clock may differ: a rate that Discover found,
// or the monotonic clock's own, is far closer than this.
const e2eRateError = 0.01

// TestExemplarEndToEnd follows a slow request's trace from an HTTP service
// to both backends (issue 49). The service runs on 127.0.0.1 behind
// otelhttp, with the OpenTelemetry SDK's tracer sampling every request,
// and times each request with counterhttp.Handler, its exemplar from
// counterotel.Exemplar. One request of many is slow. Then:
//
//   - In a scrape of the Prometheus registry over HTTP, in OpenMetrics, the
//     exemplar of greatest value names the slow request's trace and server
//     span, and is on the bucket that holds the slowest span.
//   - In the OTLP export to a gRPC receiver on 127.0.0.1, the route's point
//     has an exemplar of the same trace and span whose value is the point's
//     Max, the greatest of its exemplars.
//   - Each exemplar's time, its At by the Anchor, is within the slow
//     request's server span by the wall clock, after its sleep.
//   - The spans nest, and so do their values: the sleep, within the
//     Prometheus span, within the OTLP span, within the SDK's server span.
func TestExemplarEndToEnd(t *testing.T) {
	s := startE2EService(t)
	metricsURL := e2eServePrometheus(t, s.prom, s.c.Rate(), s.anchor)
	collect := e2eExportOTLP(t, s.otel, s.c.Rate(), s.anchor)

	s.drive(t)
	s.close() // waits for every handler, and so for every record and span
	slow := <-s.slow
	span := s.serverSpan(t, slow)
	s.checkSlowest(t, slow)

	prom := e2eScrape(t, metricsURL)
	checkPrometheusExemplar(t, prom, slow)
	dp := collect()
	checkOTLPExemplar(t, dp, slow)
	top := dp.GetExemplars()[len(dp.GetExemplars())-1]

	// The Handlers read At after the sleep and before otelhttp ends its
	// span. A conversion is off by at most the anchor's bound, a
	// nanosecond, and the error of the rate, and of a wall clock that NTP
	// slews, since the anchor: the margin takes 1,000 ppm of that.
	from, to := span.StartTime().Add(e2eSleep), span.EndTime()
	slack := s.anchor.Bound() + time.Millisecond + time.Since(s.anchored)/1000
	for what, at := range map[string]time.Time{
		"the OpenMetrics exemplar": prom.top.at,
		"the OTLP exemplar":        time.Unix(0, int64(top.GetTimeUnixNano())),
	} {
		if at.Before(from.Add(-slack)) || at.After(to.Add(slack)) {
			t.Errorf("%s is at %v; want from %v (the slow span's start and its sleep) to %v (its end), ±%v",
				what, at.Format(time.RFC3339Nano), from.Format(time.RFC3339Nano), to.Format(time.RFC3339Nano), slack)
		}
	}

	// The inner Handler's span is within the outer's, read by one counter
	// on one goroutine; the sleep and otelhttp's span are by the monotonic
	// clock, and otelhttp ends its span after the outer Handler returns.
	promValue, otlpMax, spanSeconds := prom.top.value, dp.GetMax(), span.EndTime().Sub(span.StartTime()).Seconds()
	if promValue < e2eSleep.Seconds()*(1-e2eRateError) || promValue > otlpMax*(1+1e-9) ||
		otlpMax > spanSeconds*(1+e2eRateError) {
		t.Errorf("the slow request: %v asleep, %g s in Prometheus, %g s in OTLP, %g s by the SDK's span; want each within the next", e2eSleep, promValue, otlpMax, spanSeconds)
	}
	t.Logf("slow request: trace %s, span %s: %v asleep, %.6f s in Prometheus, %.6f s in OTLP, %.6f s by the SDK's span",
		slow.TraceID(), slow.SpanID(), e2eSleep, promValue, otlpMax, spanSeconds)
}

// An e2eService is the service of TestExemplarEndToEnd and what it records
// into.
type e2eService struct {
	url    string
	client *http.Client
	close  func() // closes the server, once every request's handler has returned

	c        counter.Counter
	anchor   *counter.Anchor
	anchored time.Time // when the anchor was made
	// prom and otel are the two Families of method, route and status,
	// one for each exporter.
	prom, otel *counter.Family
	spans      *tracetest.SpanRecorder // every span the tracer ended
	slow       chan trace.SpanContext  // the slow request's server span
}

// startE2EService starts the service on 127.0.0.1, for the rest of the test.
//
// A Family has one reader, and an export.Feed shares a Histogram, not a
// Family: so each exporter reads a Family of its own, and two
// counterhttp.Handlers, one inside the other, record each request into
// both. Both run within otelhttp's span, so both exemplars name the same
// trace and span, of the same request; the outer Handler's span holds the
// inner's. One service keeps it one slow request, traced once, where a
// service for each exporter would make two.
func startE2EService(t *testing.T) *e2eService {
	s := &e2eService{spans: tracetest.NewSpanRecorder(), slow: make(chan trace.SpanContext, 1)}
	var err error
	if s.c, err = counter.Discover(); err != nil {
		t.Logf("no counter here (%v): the monotonic clock instead", err)
		s.c = counter.Monotonic()
	}
	if s.anchor, err = counter.NewAnchor(s.c); err != nil {
		t.Fatal(err)
	}
	s.anchored = time.Now()
	labels := []string{"method", "route", "status"}
	if s.prom, err = counter.NewFamily(labels, 0); err != nil {
		t.Fatal(err)
	}
	if s.otel, err = counter.NewFamily(labels, 0); err != nil {
		t.Fatal(err)
	}

	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithSpanProcessor(s.spans))
	t.Cleanup(func() {
		if err := tp.Shutdown(context.Background()); err != nil {
			t.Error(err)
		}
	})

	var served atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc(e2eRoute, func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1) == e2eSlowAt {
			s.slow <- trace.SpanContextFromContext(r.Context())
			time.Sleep(e2eSleep)
		}
		io.WriteString(w, "done\n")
	})
	ex := counterhttp.Exemplars(counterotel.Exemplar)
	timed := counterhttp.Handler(s.otel, s.c, counterhttp.Handler(s.prom, s.c, mux, ex), ex)
	srv := httptest.NewServer(otelhttp.NewHandler(timed, "work",
		otelhttp.WithTracerProvider(tp), otelhttp.WithMeterProvider(noop.NewMeterProvider())))
	t.Cleanup(srv.Close)
	e2eOnLoopback(t, srv)
	s.url, s.client, s.close = srv.URL, srv.Client(), srv.Close
	return s
}

// e2eOnLoopback fails the test where srv is not on 127.0.0.1.
func e2eOnLoopback(t *testing.T, srv *httptest.Server) {
	t.Helper()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("a server at %s; want one on 127.0.0.1", srv.URL)
	}
}

// drive sends the service its requests, from e2eClients goroutines, and
// checks each response.
func (s *e2eService) drive(t *testing.T) {
	errs := make(chan error, e2eRequests)
	var wg sync.WaitGroup
	for range e2eClients {
		wg.Go(func() {
			for range e2eRequests / e2eClients {
				resp, err := s.client.Get(s.url + "/work")
				if err != nil {
					errs <- err
					return
				}
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err == nil && resp.StatusCode != http.StatusOK {
					err = fmt.Errorf("GET /work: %s", resp.Status)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// serverSpan returns the span the SDK ended for sc, which must be a
// sampled server span of the tracer's.
func (s *e2eService) serverSpan(t *testing.T, sc trace.SpanContext) sdktrace.ReadOnlySpan {
	t.Helper()
	if !sc.IsValid() || !sc.IsSampled() {
		t.Fatalf("the slow request's span context %v is not a valid sampled one", sc)
	}
	for _, span := range s.spans.Ended() {
		if span.SpanContext().Equal(sc) {
			if span.SpanKind() != trace.SpanKindServer {
				t.Fatalf("the slow request's span %q is of kind %v; want server", span.Name(), span.SpanKind())
			}
			return span
		}
	}
	t.Fatalf("the tracer ended no span %s/%s (%d ended)", sc.TraceID(), sc.SpanID(), len(s.spans.Ended()))
	return nil
}

// checkSlowest fails the test, saying why, where the machine held up a
// request other than slow so long that the counter could have timed it
// above slow's sleep: the test's premise, and no fault of the exemplars.
// By the SDK's spans, which hold the Handlers' spans, each other request
// took under the sleep, with room for the counter rate's error.
func (s *e2eService) checkSlowest(t *testing.T, slow trace.SpanContext) {
	t.Helper()
	for _, span := range s.spans.Ended() {
		d := span.EndTime().Sub(span.StartTime())
		if !span.SpanContext().Equal(slow) && d.Seconds() >= e2eSleep.Seconds()*(1-2*e2eRateError) {
			t.Fatalf("a fast request took %v, by its span %s, and the slow one slept %v: this machine is too loaded to tell them apart", d, span.SpanContext().SpanID(), e2eSleep)
		}
	}
}

// e2eServePrometheus registers a collector of f, at rate r and with the
// anchor a, in a registry of its own, and serves the registry on
// 127.0.0.1 as Prometheus scrapes it, OpenMetrics offered, until the test
// ends. It returns the URL.
func e2eServePrometheus(t *testing.T, f *counter.Family, r counter.TickRate, a *counter.Anchor) string {
	reg := prometheus.NewRegistry()
	err := reg.Register(counterprom.NewFamily(f, r, counterprom.Opts{Name: e2ePromName, Help: "The requests' spans.", Anchor: a}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true}))
	t.Cleanup(srv.Close)
	e2eOnLoopback(t, srv)
	return srv.URL
}

// An omExemplar is a classic bucket's exemplar as the OpenMetrics text
// writes it.
type omExemplar struct {
	traceID, spanID string
	value           float64
	at              time.Time
}

// An omSeries is the route's series in an OpenMetrics scrape: each classic
// bucket's count and exemplar by bound, and the exemplar of greatest value.
type omSeries struct {
	counts    map[float64]uint64
	exemplars map[float64]omExemplar
	top       omExemplar
	text      string
}

var (
	// omBucket is a bucket line of the histogram: its labels, its count,
	// and the labels, value and timestamp of its exemplar, if it has one.
	omBucket = regexp.MustCompile(`^` + e2ePromName + `_bucket\{([^}]*)\} (\d+)(?: # \{([^}]*)\} (\S+) (\S+))?$`)
	omLabel  = regexp.MustCompile(`([a-z_]+)="([^"]*)"`)
)

// omLabels returns the labels of a label set as OpenMetrics writes it.
func omLabels(set string) map[string]string {
	out := map[string]string{}
	for _, m := range omLabel.FindAllStringSubmatch(set, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// e2eScrape scrapes url asking for OpenMetrics, as Prometheus does, and
// returns the series of e2eRoute.
func e2eScrape(t *testing.T, url string) omSeries {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := omSeries{counts: map[float64]uint64{}, exemplars: map[float64]omExemplar{}, top: omExemplar{value: -1}, text: string(body)}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/openmetrics-text") || !strings.HasSuffix(s.text, "# EOF\n") {
		t.Fatalf("a scrape: %s, %q:\n%s", resp.Status, ct, s.text)
	}
	for line := range strings.Lines(s.text) {
		m := omBucket.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
		if m == nil {
			if strings.HasPrefix(line, e2ePromName+"_bucket") {
				t.Fatalf("a bucket line the test cannot read: %q", line)
			}
			continue
		}
		labels := omLabels(m[1])
		if labels["method"] != "GET" || labels["route"] != e2eRoute || labels["status"] != "200" {
			t.Fatalf("a series of %v; want the route's alone", labels)
		}
		le, err := strconv.ParseFloat(labels["le"], 64)
		if err != nil {
			t.Fatal(err)
		}
		s.counts[le], _ = strconv.ParseUint(m[2], 10, 64)
		if m[3] == "" {
			continue
		}
		ids := omLabels(m[3])
		e := omExemplar{traceID: ids["trace_id"], spanID: ids["span_id"]}
		e.value, _ = strconv.ParseFloat(m[4], 64)
		ts, _ := strconv.ParseFloat(m[5], 64)
		sec := math.Floor(ts)
		e.at = time.Unix(int64(sec), int64((ts-sec)*1e9))
		s.exemplars[le] = e
		if e.value > s.top.value {
			s.top = e
		}
	}
	return s
}

// checkPrometheusExemplar checks the scraped series: it counts every
// request, and its exemplar of greatest value names slow and is on the
// bucket that holds the slowest span, the least bound whose count is the
// +Inf bucket's. As in client_golang, a bucket's exemplar is of a span in
// that bucket, above the bound below: so the +Inf bucket has none here.
func checkPrometheusExemplar(t *testing.T, s omSeries, slow trace.SpanContext) {
	t.Helper()
	all := s.counts[math.Inf(1)]
	if all != e2eRequests {
		t.Errorf("the +Inf bucket counts %d; want %d:\n%s", all, e2eRequests, s.text)
	}
	if len(s.exemplars) == 0 {
		t.Fatalf("no exemplar in the scrape:\n%s", s.text)
	}
	if s.top.traceID != slow.TraceID().String() || s.top.spanID != slow.SpanID().String() {
		t.Errorf("the exemplar of greatest value: trace %s, span %s, %g s; want trace %s, span %s:\n%s",
			s.top.traceID, s.top.spanID, s.top.value, slow.TraceID(), slow.SpanID(), s.text)
	}
	slowest := math.Inf(1)
	for le, n := range s.counts {
		if n == all && le < slowest {
			slowest = le
		}
	}
	if got := s.exemplars[slowest]; got != s.top {
		t.Errorf("the bucket of the slowest span, le=%v, carries %+v; want the exemplar of greatest value, %+v:\n%s", slowest, got, s.top, s.text)
	}
}

// A otlpReceiver is an OTLP metrics service that hands on what it
// receives.
type otlpReceiver struct {
	collectormetricspb.UnimplementedMetricsServiceServer
	got chan *collectormetricspb.ExportMetricsServiceRequest
}

func (r *otlpReceiver) Export(ctx context.Context, req *collectormetricspb.ExportMetricsServiceRequest) (*collectormetricspb.ExportMetricsServiceResponse, error) {
	select {
	case r.got <- req:
	default: // nobody is waiting: the export at shutdown
	}
	return &collectormetricspb.ExportMetricsServiceResponse{}, nil
}

// startOTLPReceiver serves a receiver on 127.0.0.1 until the test ends,
// and returns it and its address.
func startOTLPReceiver(t *testing.T) (*otlpReceiver, string) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &otlpReceiver{got: make(chan *collectormetricspb.ExportMetricsServiceRequest, 1)}
	srv := grpc.NewServer()
	collectormetricspb.RegisterMetricsServiceServer(srv, r)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(lis) }()
	t.Cleanup(func() {
		srv.Stop()
		if err := <-done; err != nil {
			t.Errorf("the OTLP receiver: %v", err)
		}
	})
	return r, lis.Addr().String()
}

// e2eExportOTLP registers f, at rate r, with a Producer of the anchor a,
// read by the SDK's OTLP gRPC exporter into a receiver on 127.0.0.1. It
// returns a function that exports once and returns the route's point as
// the receiver got it.
func e2eExportOTLP(t *testing.T, f *counter.Family, r counter.TickRate, a *counter.Anchor) func() *mpb.ExponentialHistogramDataPoint {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	recv, addr := startOTLPReceiver(t)
	exp, err := otlpmetricgrpc.New(ctx, otlpmetricgrpc.WithEndpoint(addr), otlpmetricgrpc.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	p := counterotel.NewProducer(counterotel.WithAnchor(a), counterotel.WithTemporalitySelector(exp.Temporality))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(
		sdkmetric.NewPeriodicReader(exp, sdkmetric.WithProducer(p), sdkmetric.WithInterval(time.Hour))))
	t.Cleanup(func() {
		if err := mp.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	})
	if err := p.RegisterFamily(e2eOTelName, f, r); err != nil {
		t.Fatal(err)
	}
	return func() *mpb.ExponentialHistogramDataPoint {
		t.Helper()
		if err := mp.ForceFlush(ctx); err != nil {
			t.Fatal(err)
		}
		var req *collectormetricspb.ExportMetricsServiceRequest
		select {
		case req = <-recv.got:
		case <-ctx.Done():
			t.Fatal("the OTLP receiver got nothing")
		}
		return e2ePoint(t, req)
	}
}

// e2ePoint returns the one point of e2eOTelName in req, which must be the
// route's.
func e2ePoint(t *testing.T, req *collectormetricspb.ExportMetricsServiceRequest) *mpb.ExponentialHistogramDataPoint {
	t.Helper()
	for _, rm := range req.GetResourceMetrics() {
		for _, sm := range rm.GetScopeMetrics() {
			for _, m := range sm.GetMetrics() {
				if sm.GetScope().GetName() != counterotel.ScopeName || m.GetName() != e2eOTelName {
					continue
				}
				points := m.GetExponentialHistogram().GetDataPoints()
				if len(points) != 1 {
					t.Fatalf("%s: %d points %v; want the route's alone", e2eOTelName, len(points), points)
				}
				attrs := map[string]string{}
				for _, kv := range points[0].GetAttributes() {
					attrs[kv.GetKey()] = kv.GetValue().GetStringValue()
				}
				if attrs["method"] != "GET" || attrs["route"] != e2eRoute || attrs["status"] != "200" || len(attrs) != 3 {
					t.Fatalf("%s: a point of %v; want the route's", e2eOTelName, attrs)
				}
				return points[0]
			}
		}
	}
	t.Fatalf("the OTLP receiver got no %s: %v", e2eOTelName, req)
	return nil
}

// checkOTLPExemplar checks the route's point: it counts every request, and
// its exemplar of greatest value names slow and has the point's Max as its
// value. The exemplars come from the fastest span, so that one is the
// last.
func checkOTLPExemplar(t *testing.T, dp *mpb.ExponentialHistogramDataPoint, slow trace.SpanContext) {
	t.Helper()
	if dp.GetCount() != e2eRequests {
		t.Errorf("the point counts %d; want %d", dp.GetCount(), e2eRequests)
	}
	exs := dp.GetExemplars()
	if len(exs) == 0 {
		t.Fatalf("the point has no exemplar: %v", dp)
	}
	top := exs[len(exs)-1]
	for _, e := range exs {
		if e.GetAsDouble() > top.GetAsDouble() {
			t.Errorf("exemplar %v is greater than the last, %v", e, top)
		}
	}
	traceID, spanID := slow.TraceID(), slow.SpanID()
	if !bytes.Equal(top.GetTraceId(), traceID[:]) || !bytes.Equal(top.GetSpanId(), spanID[:]) {
		t.Errorf("the exemplar of greatest value: trace %x, span %x, %g s; want trace %s, span %s",
			top.GetTraceId(), top.GetSpanId(), top.GetAsDouble(), traceID, spanID)
	}
	if top.GetAsDouble() != dp.GetMax() {
		t.Errorf("the exemplar of greatest value is %g s; want the point's Max, %g s", top.GetAsDouble(), dp.GetMax())
	}
}
