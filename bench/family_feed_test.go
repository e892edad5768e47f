package bench_test

import (
	"context"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/export/counterprom"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// TestFamilyFeedBothExporters shares one Family between Prometheus and
// OpenTelemetry through a FamilyFeed: one FamilyTap served by counterprom
// and scraped over HTTP on 127.0.0.1, the other registered with
// counterotel and collected by a ManualReader, both as often as they can
// while four writers record into more sets than the Family's limit. Once
// the writers are done, each exporter's last collection holds every span
// of each series exactly once: its count, and its negative spans. The
// Family, read by the FamilyFeed, refuses either exporter as a second
// reader.
func TestFamilyFeedBothExporters(t *testing.T) {
	const writers, spans, sets, limit = 4, 5_000, 10, 6
	f, err := counter.NewFamily([]string{"route"}, limit)
	if err != nil {
		t.Fatal(err)
	}
	feed, err := export.NewFamilyFeed(f)
	if err != nil {
		t.Fatal(err)
	}
	opts := counterprom.Opts{Name: "span_seconds", Help: "Spans."}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(counterprom.NewFamily(feed.Tap(), gigahertz, opts))
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the server is at %s", srv.URL)
	}
	p := counterotel.NewProducer()
	if err := p.RegisterFamily("span", feed.Tap(), gigahertz); err != nil {
		t.Fatal(err)
	}
	reader := metric.NewManualReader(metric.WithProducer(p))
	mp := metric.NewMeterProvider(metric.WithReader(reader))
	defer func() { _ = mp.Shutdown(context.Background()) }()

	// Neither exporter reads the Family itself besides.
	if err := prometheus.NewRegistry().Register(counterprom.NewFamily(f, gigahertz, opts)); !errors.Is(err, export.ErrSecondReader) {
		t.Errorf("a FamilyCollector of the FamilyFeed's Family: %v; want ErrSecondReader", err)
	}
	if err := counterotel.NewProducer().RegisterFamily("span", f, gigahertz); !errors.Is(err, export.ErrSecondReader) {
		t.Errorf("a registration of the FamilyFeed's Family: %v; want ErrSecondReader", err)
	}

	// span is the i-th span of writer w, into set (w+i)%sets; every
	// hundredth is negative.
	span := func(w, i int) counter.Tickdelta {
		d := counter.Tickdelta(1000 + w*spans + i)
		if i%100 == 0 {
			d = -d
		}
		return d
	}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range spans {
				f.With(strconv.Itoa((w + i) % sets)).Record(span(w, i))
			}
		})
	}
	var done atomic.Bool
	var readers sync.WaitGroup
	readers.Go(func() {
		for !done.Load() {
			scrapeCounts(t, srv.URL)
		}
	})
	readers.Go(func() {
		for !done.Load() {
			collectCounts(t, reader)
		}
	})
	wg.Wait()
	done.Store(true)
	readers.Wait()
	prom, otel := scrapeCounts(t, srv.URL), collectCounts(t, reader)

	// What each series should hold: its sets' spans, and the overflow
	// series those of the sets without a series of their own.
	want := map[string][2]uint64{} // count, negative
	for w := range writers {
		for i := range spans {
			key := strconv.Itoa((w + i) % sets)
			if _, own := prom[key]; !own {
				key = counterprom.Overflow
			}
			c := want[key]
			if span(w, i) < 0 {
				c[1]++
			} else {
				c[0]++
			}
			want[key] = c
		}
	}
	if len(want) != limit {
		t.Errorf("%d series: %v; want the limit, %d", len(want), want, limit)
	}
	if !maps.Equal(prom, want) {
		t.Errorf("Prometheus: %v; want %v", prom, want)
	}
	if !maps.Equal(otel, want) {
		t.Errorf("OpenTelemetry: %v; want %v", otel, want)
	}
}

// countLine is a line of a series' count or negative spans in the text
// format: the metric, the route and the value.
var countLine = regexp.MustCompile(`^span_seconds(_count|_negative_spans_total)\{route="([^"]*)"\} (\S+)$`)

// scrapeCounts scrapes the text format at url and returns each series'
// count and negative spans, by route (counterprom.Overflow for the
// overflow series).
func scrapeCounts(t *testing.T, url string) map[string][2]uint64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Error(err)
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("scrape: %v, %s", err, resp.Status)
		return nil
	}
	out := map[string][2]uint64{}
	for line := range strings.SplitSeq(string(body), "\n") {
		m := countLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Errorf("scrape: %q: %v", line, err)
		}
		c := out[m[2]]
		if m[1] == "_count" {
			c[0] = uint64(v)
		} else {
			c[1] = uint64(v)
		}
		out[m[2]] = c
	}
	return out
}

// collectCounts collects reader and returns each point's count and
// negative spans, by route (counterprom.Overflow for the overflow point,
// so that the two exporters' counts compare).
func collectCounts(t *testing.T, reader *metric.ManualReader) map[string][2]uint64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Error(err)
		return nil
	}
	route := func(attrs attribute.Set) string {
		if v, ok := attrs.Value("route"); ok {
			return v.AsString()
		}
		return counterprom.Overflow
	}
	out := map[string][2]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.ExponentialHistogram[float64]:
				for _, dp := range d.DataPoints {
					c := out[route(dp.Attributes)]
					c[0] = dp.Count
					out[route(dp.Attributes)] = c
				}
			case metricdata.Sum[int64]:
				if m.Name != "span.negative" {
					continue
				}
				for _, dp := range d.DataPoints {
					c := out[route(dp.Attributes)]
					c[1] = uint64(dp.Value)
					out[route(dp.Attributes)] = c
				}
			}
		}
	}
	return out
}
