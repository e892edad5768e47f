package counterprom_test

import (
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/countertest"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterprom"
	"github.com/tickstamp/counter/internal/spantest"
	"pgregory.net/rapid"
)

// traced returns the i-th exemplar of a test, read at the tick at: a trace
// id and a span id of its own, each byte telling i apart.
func traced(i int, at counter.Tickstamp) counter.Exemplar {
	var e counter.Exemplar
	for k := range e.TraceID {
		e.TraceID[k] = byte(0xa0 + k + 16*i)
	}
	for k := range e.SpanID {
		e.SpanID[k] = byte(0x0b + k + 8*i)
	}
	e.At = at
	return e
}

// ids returns e's ids as an exemplar's labels: lowercase hex.
func ids(e counter.Exemplar) map[string]string {
	return map[string]string{"trace_id": hex.EncodeToString(e.TraceID[:]), "span_id": hex.EncodeToString(e.SpanID[:])}
}

// exemplarLabels returns an exemplar's labels by name; it fails where a
// name comes twice.
func exemplarLabels(t rapid.TB, e *dto.Exemplar) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, l := range e.GetLabel() {
		if _, twice := out[l.GetName()]; twice {
			t.Fatalf("the label %s twice in %v", l.GetName(), e)
		}
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// anchored returns an Anchor of a manual clock at the rate of the tests,
// and the clock: a reading converts to the anchor's wall time plus its
// ticks since the clock's start.
func anchored(t *testing.T) (*counter.Anchor, *countertest.ManualClock) {
	t.Helper()
	clock := countertest.NewManualClock(1<<40, rate(t))
	a, err := counter.NewAnchor(clock)
	if err != nil {
		t.Fatal(err)
	}
	return a, clock
}

// A bucketExemplar is an exemplar on a classic bucket, as the OpenMetrics
// text writes it.
type bucketExemplar struct {
	count     uint64
	labels    string // as written: {trace_id="…",span_id="…"}
	value, ts float64
}

// bucketLine is a bucket of the histogram req_seconds in the OpenMetrics
// text, with or without an exemplar: its bound, count, and the exemplar's
// labels, value and timestamp.
var bucketLine = regexp.MustCompile(`^req_seconds_bucket\{le="([^"]+)"\} (\d+)(?: # (\{[^}]*\}) (\S+)(?: (\S+))?)?$`)

// scrapeOpenMetrics scrapes url over HTTP as Prometheus asks for
// OpenMetrics, and returns the buckets of req_seconds by bound, those
// without an exemplar with no labels, and the text.
func scrapeOpenMetrics(t *testing.T, url string) (map[float64]bucketExemplar, string) {
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
	text := string(body)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/openmetrics-text") || !strings.HasSuffix(text, "# EOF\n") {
		t.Fatalf("a scrape of %s, %q:\n%s", resp.Status, ct, text)
	}
	out := map[float64]bucketExemplar{}
	for line := range strings.Lines(text) {
		m := bucketLine.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
		if m == nil {
			if strings.HasPrefix(line, "req_seconds_bucket") {
				t.Fatalf("a bucket line the test cannot read: %q", line)
			}
			continue
		}
		le, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		var b bucketExemplar
		b.count, _ = strconv.ParseUint(m[2], 10, 64)
		if b.labels = m[3]; b.labels != "" {
			b.value, _ = strconv.ParseFloat(m[4], 64)
			if m[5] == "" {
				b.ts = math.NaN()
			} else {
				b.ts, _ = strconv.ParseFloat(m[5], 64)
			}
		}
		out[le] = b
	}
	return out, text
}

// openMetricsLabels returns e's ids as the OpenMetrics text writes them.
func openMetricsLabels(e counter.Exemplar) string {
	l := ids(e)
	return fmt.Sprintf(`{trace_id="%s",span_id="%s"}`, l["trace_id"], l["span_id"])
}

// TestExemplarsOverHTTP records spans with exemplars, and spans without,
// and scrapes the Collector over HTTP on 127.0.0.1 as Prometheus does,
// asking for OpenMetrics: each classic bucket that holds a span with an
// exemplar carries the exemplar of the slowest of them, its value the
// span in seconds and its timestamp its At as the Anchor converts it; the
// others carry none; the +Inf bucket carries the slowest span's. A
// Gather's native histogram carries all of them, from the fastest span.
func TestExemplarsOverHTTP(t *testing.T) {
	a, clock := anchored(t)
	h := counter.NewHistogram()
	reg := prometheus.NewRegistry()
	reg.MustRegister(counterprom.New(h, rate(t), counterprom.Opts{
		Name: "req_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.01, Anchor: a,
	}))
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true}))
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the server is at %s", srv.URL)
	}

	// At 2 GHz the bounds are 20, 200, 2,000, … ticks. Each span is in a
	// doubling of its own, ten apart at most, so that the Snapshot keeps
	// each one's exemplar; 25,000 and 50,000 ticks share a bucket.
	spans := []counter.Tickdelta{15, 150, 1500, 25_000, 50_000, 300_000_000}
	want := map[float64]int{1e-8: 0, 1e-7: 1, 1e-6: 2, 1e-4: 4, math.Inf(1): 5} // bound: index in spans
	r := h.Recorder()
	exemplars := make([]counter.Exemplar, len(spans))
	for i, d := range spans {
		exemplars[i] = traced(i, clock.Advance(time.Second))
		r.RecordExemplar(d, exemplars[i])
		r.Record(d + 1)
		r.Record(1000) // no exemplar
	}
	r.Close()
	h.RecordExemplar(-3, traced(9, clock.Now())) // counted apart, without it

	buckets, text := scrapeOpenMetrics(t, srv.URL)
	if len(buckets) != len(bounds)+1 {
		t.Fatalf("%d buckets, want %d:\n%s", len(buckets), len(bounds)+1, text)
	}
	for le, b := range buckets {
		i, ok := want[le]
		if !ok {
			if b.labels != "" {
				t.Errorf("le=%v: the exemplar %s; want none", le, b.labels)
			}
			continue
		}
		at := a.Time(exemplars[i].At)
		if wantTS := float64(at.UnixNano()) / 1e9; b.labels != openMetricsLabels(exemplars[i]) ||
			b.value != export.Seconds(spans[i], rate(t)) || math.Abs(b.ts-wantTS) > 1e-6 {
			t.Errorf("le=%v: %s %v %v; want %s %v %v", le, b.labels, b.value, b.ts, openMetricsLabels(exemplars[i]), export.Seconds(spans[i], rate(t)), wantTS)
		}
	}
	if inf := buckets[math.Inf(1)]; inf.count != 3*uint64(len(spans)) {
		t.Errorf("the +Inf bucket counts %d; want %d", inf.count, 3*len(spans))
	}
	slowest := ids(exemplars[len(spans)-1])["trace_id"]
	if !strings.Contains(text, `trace_id="`+slowest+`"`) {
		t.Errorf("no exemplar of the slowest span's trace %s in\n%s", slowest, text)
	}

	// The native exemplars, which the text format has no place for.
	h.RecordExemplar(60_000, traced(7, clock.Advance(time.Second)))
	hist := gather(t, reg, "req_seconds").GetMetric()[0].GetHistogram()
	native := hist.GetExemplars()
	if len(native) != len(spans) {
		t.Fatalf("%d native exemplars; want %d: %v", len(native), len(spans), native)
	}
	// 60,000 ticks is 50,000's doubling, and replaces it.
	spans[4], exemplars[4] = 60_000, traced(7, clock.Now())
	for i, e := range native {
		if got, want := exemplarLabels(t, e), ids(exemplars[i]); e.GetValue() != export.Seconds(spans[i], rate(t)) ||
			got["trace_id"] != want["trace_id"] || got["span_id"] != want["span_id"] || len(got) != 2 ||
			!e.GetTimestamp().AsTime().Equal(a.Time(exemplars[i].At)) {
			t.Errorf("native exemplar %d: %v; want %v s, %v at %v", i, e, export.Seconds(spans[i], rate(t)), want, a.Time(exemplars[i].At))
		}
	}
	if b := hist.GetBucket()[4]; b.GetExemplar() != native[4] {
		t.Errorf("the bucket ≤%v: %v; want the newer exemplar, %v", b.GetUpperBound(), b.GetExemplar(), native[4])
	}
}

// TestExemplarsKept checks what a series keeps from scrape to scrape: a
// classic bucket's exemplar until a later scrape's Interval has one for
// it, faster or not; a native slot's until a later one has one in its
// doubling; and, after a scrape whose Interval has none, everything, with
// its timestamp.
func TestExemplarsKept(t *testing.T) {
	a, clock := anchored(t)
	h := counter.NewHistogram()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(counterprom.New(h, rate(t), counterprom.Opts{
		Name: "req_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.1, Anchor: a,
	}))
	type want struct {
		d counter.Tickdelta
		e counter.Exemplar
	}
	check := func(round int, classic map[int]want, native []want) {
		t.Helper()
		hist := gather(t, reg, "req_seconds").GetMetric()[0].GetHistogram()
		for i, b := range hist.GetBucket() {
			w, ok := classic[i]
			if i == len(bounds) && !math.IsInf(b.GetUpperBound(), 1) {
				t.Fatalf("round %d: a bucket past the bounds, ≤%v", round, b.GetUpperBound())
			}
			if !ok {
				if b.GetExemplar() != nil {
					t.Errorf("round %d: the bucket ≤%v has %v; want none", round, b.GetUpperBound(), b.GetExemplar())
				}
				continue
			}
			if !sameExemplar(t, b.GetExemplar(), w.d, w.e, a) {
				t.Errorf("round %d: the bucket ≤%v has %v; want %v ticks, %v", round, b.GetUpperBound(), b.GetExemplar(), w.d, w.e)
			}
		}
		if _, inf := classic[len(bounds)]; inf != (len(hist.GetBucket()) == len(bounds)+1) {
			t.Errorf("round %d: %d buckets; want the +Inf one only with an exemplar", round, len(hist.GetBucket()))
		}
		got := hist.GetExemplars()
		if len(got) != len(native) {
			t.Fatalf("round %d: %d native exemplars; want %d", round, len(got), len(native))
		}
		for i, w := range native {
			if !sameExemplar(t, got[i], w.d, w.e, a) {
				t.Errorf("round %d: native exemplar %d is %v; want %v ticks, %v", round, i, got[i], w.d, w.e)
			}
		}
	}
	record := func(d counter.Tickdelta, i int) want {
		e := traced(i, clock.Advance(time.Second))
		h.RecordExemplar(d, e)
		return want{d, e}
	}

	check(0, nil, nil)
	a1, b1, c1 := record(1500, 1), record(50_000, 2), record(300_000_000, 3)
	check(1, map[int]want{2: a1, 4: b1, len(bounds): c1}, []want{a1, b1, c1})
	// 1,200 ticks: bucket 2 and 1,500's doubling, faster, but later.
	d2 := record(1200, 4)
	check(2, map[int]want{2: d2, 4: b1, len(bounds): c1}, []want{d2, b1, c1})
	h.Record(1700)
	h.Record(400_000_000)
	check(3, map[int]want{2: d2, 4: b1, len(bounds): c1}, []want{d2, b1, c1})
	check(4, map[int]want{2: d2, 4: b1, len(bounds): c1}, []want{d2, b1, c1})
}

// sameExemplar reports whether e is the exemplar x of a span of d ticks,
// stamped by a.
func sameExemplar(t *testing.T, e *dto.Exemplar, d counter.Tickdelta, x counter.Exemplar, a *counter.Anchor) bool {
	t.Helper()
	l, want := exemplarLabels(t, e), ids(x)
	return e != nil && e.GetValue() == export.Seconds(d, rate(t)) && len(l) == 2 &&
		l["trace_id"] == want["trace_id"] && l["span_id"] == want["span_id"] &&
		e.GetTimestamp().AsTime().Equal(a.Time(x.At))
}

// TestExemplarsNativeAtMostTen records spans with exemplars over 40
// doublings in each of several scrapes, some doublings at a time, and checks
// the native exemplars: at most ten, from the fastest span, among them the
// exemplar of the slowest span of the last scrape that had any, and each
// the latest of its doubling, ten apart sharing one.
func TestExemplarsNativeAtMostTen(t *testing.T) {
	h := counter.NewHistogram()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(counterprom.New(h, rate(t), counterprom.Opts{Name: "req_seconds", NativeHistogramBucketFactor: 1.01}))
	rng := rand.New(rand.NewPCG(3, 4))
	type kept struct {
		round int
		d     counter.Tickdelta
		id    string
	}
	latest := map[int]kept{} // by doubling mod 10
	n := 0
	for round := range 8 {
		var slowest kept
		for range rng.IntN(12) {
			k := 7 + rng.IntN(40) // a doubling: spans of 2ᵏ to 2ᵏ⁺¹ ticks
			d := counter.Tickdelta(1)<<k + counter.Tickdelta(rng.Int64N(1<<k))
			n++
			e := traced(n, 0)
			h.RecordExemplar(d, e)
			this := kept{round, d, ids(e)["trace_id"]}
			if d > slowest.d {
				slowest = this
			}
			// A scrape keeps the slowest of each doubling mod 10 that its
			// Interval has, in place of an earlier scrape's.
			if prev, ok := latest[k%10]; !ok || prev.round != round || d > prev.d {
				latest[k%10] = this
			}
		}
		got := gather(t, reg, "req_seconds").GetMetric()[0].GetHistogram().GetExemplars()
		if len(got) > 10 || len(got) != len(latest) {
			t.Fatalf("round %d: %d native exemplars; want %d, at most 10", round, len(got), len(latest))
		}
		have := map[string]bool{}
		for i, e := range got {
			if i > 0 && e.GetValue() < got[i-1].GetValue() {
				t.Errorf("round %d: native exemplar %d of %v s after %v s", round, i, e.GetValue(), got[i-1].GetValue())
			}
			have[exemplarLabels(t, e)["trace_id"]] = true
		}
		for slot, k := range latest {
			if !have[k.id] {
				t.Errorf("round %d: the exemplar of %d ticks, the latest of doubling %d mod 10, is missing", round, k.d, slot)
			}
		}
		if slowest.id != "" && !have[slowest.id] {
			t.Errorf("round %d: the slowest span's exemplar is missing", round)
		}
	}
}

// TestExemplarsAgainstClientGolang records random spans, some with
// exemplars, in a few rounds, and after each gathers the Collector beside
// client_golang's own Histogram with the same bounds, which observes, with
// ObserveWithExemplar, the value of each exemplar of the round's Interval
// from the fastest span to the slowest: on every classic bucket, the +Inf
// one among them, the two carry the same exemplar, but for its timestamp.
func TestExemplarsAgainstClientGolang(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		native := rapid.Bool().Draw(t, "native")
		var factor float64
		var bs []float64
		if native {
			factor = 1.1
		}
		if !native || rapid.Bool().Draw(t, "classic too") {
			bs = bounds
		}
		f, tap := newFixture()
		reg := prometheus.NewPedanticRegistry()
		r, err := counter.NewTickRate(hz)
		if err != nil {
			t.Fatal(err)
		}
		reg.MustRegister(counterprom.New(tap, r, counterprom.Opts{Name: "ours_seconds", Buckets: bs, NativeHistogramBucketFactor: factor}))
		theirs := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "theirs_seconds", Help: "client_golang's own.", Buckets: bs, NativeHistogramBucketFactor: factor})
		reg.MustRegister(theirs)
		n := 0
		for round := range rapid.IntRange(1, 4).Draw(t, "rounds") {
			rec := f.h.Recorder()
			for _, d := range drawSpans(t, fmt.Sprint("round ", round)) {
				if rapid.IntRange(0, 9).Draw(t, "with exemplar") < 3 {
					n++
					rec.RecordExemplar(d, traced(n, 0))
				} else {
					rec.Record(d)
				}
			}
			rec.Close()
			f.sync()
			for d, e := range f.taken[len(f.taken)-1].Exemplars() {
				theirs.(prometheus.ExemplarObserver).ObserveWithExemplar(export.Seconds(d, r), prometheus.Labels(ids(e)))
			}
			families, err := reg.Gather()
			if err != nil {
				t.Fatal(err)
			}
			var ours, cg *dto.Histogram
			for _, mf := range families {
				switch mf.GetName() {
				case "ours_seconds":
					ours = mf.GetMetric()[0].GetHistogram()
				case "theirs_seconds":
					cg = mf.GetMetric()[0].GetHistogram()
				}
			}
			ob, cb := ours.GetBucket(), cg.GetBucket()
			if len(ob) != len(cb) {
				t.Fatalf("round %d: %d classic buckets; client_golang's %d", round, len(ob), len(cb))
			}
			for i := range ob {
				oe, ce := ob[i].GetExemplar(), cb[i].GetExemplar()
				if ob[i].GetUpperBound() != cb[i].GetUpperBound() || (oe == nil) != (ce == nil) ||
					oe != nil && (oe.GetValue() != ce.GetValue() || !mapsEqual(exemplarLabels(t, oe), exemplarLabels(t, ce))) {
					t.Fatalf("round %d: the bucket ≤%v has %v; client_golang's ≤%v has %v", round, ob[i].GetUpperBound(), oe, cb[i].GetUpperBound(), ce)
				}
			}
			if native != (ours.Schema != nil) {
				t.Fatalf("round %d: schema %v", round, ours.Schema)
			}
		}
	})
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestExemplarEdges checks the cases where a span has no exemplar, or an
// exemplar lacks a part, and the zero Anchor.
func TestExemplarEdges(t *testing.T) {
	a, clock := anchored(t)
	gatherOne := func(t *testing.T, opts counterprom.Opts, record func(h *counter.Histogram)) *dto.Histogram {
		t.Helper()
		h := counter.NewHistogram()
		reg := prometheus.NewPedanticRegistry()
		opts.Name = "edge_seconds"
		reg.MustRegister(counterprom.New(h, rate(t), opts))
		record(h)
		return gather(t, reg, "edge_seconds").GetMetric()[0].GetHistogram()
	}
	classic := counterprom.Opts{Buckets: bounds, NativeHistogramBucketFactor: 1.1, Anchor: a}
	none := func(t *testing.T, hist *dto.Histogram) {
		t.Helper()
		if len(hist.GetBucket()) != len(bounds) || len(hist.GetExemplars()) != 0 {
			t.Errorf("%d classic buckets, native exemplars %v; want %d and none", len(hist.GetBucket()), hist.GetExemplars(), len(bounds))
		}
		for _, b := range hist.GetBucket() {
			if b.GetExemplar() != nil {
				t.Errorf("the bucket ≤%v has %v; want none", b.GetUpperBound(), b.GetExemplar())
			}
		}
	}

	t.Run("no exemplars", func(t *testing.T) {
		none(t, gatherOne(t, classic, func(h *counter.Histogram) {
			spantest.Record(h, spread(1, 1000))
		}))
	})
	t.Run("zero trace id", func(t *testing.T) {
		none(t, gatherOne(t, classic, func(h *counter.Histogram) {
			e := traced(1, clock.Now())
			e.TraceID = [16]byte{}
			h.RecordExemplar(1500, e)
			r := h.Recorder()
			r.RecordExemplar(1500, e)
			r.Close()
		}))
	})
	t.Run("negative span", func(t *testing.T) {
		h := counter.NewHistogram()
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(counterprom.New(h, rate(t), counterprom.Opts{Name: "edge_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.1, Anchor: a}))
		h.RecordExemplar(-1500, traced(1, clock.Now()))
		r := h.Recorder()
		r.RecordExemplar(-5, traced(2, clock.Now()))
		r.Close()
		none(t, gather(t, reg, "edge_seconds").GetMetric()[0].GetHistogram())
		if n := gather(t, reg, "edge_seconds_negative_spans_total").GetMetric()[0].GetCounter().GetValue(); n != 2 {
			t.Errorf("%v negative spans; want 2", n)
		}
	})
	t.Run("zero span", func(t *testing.T) {
		e := traced(1, clock.Now())
		hist := gatherOne(t, classic, func(h *counter.Histogram) { h.RecordExemplar(0, e) })
		if b := hist.GetBucket()[0]; !sameExemplar(t, b.GetExemplar(), 0, e, a) {
			t.Errorf("the first bucket has %v; want the exemplar of 0 s", b.GetExemplar())
		}
		if x := hist.GetExemplars(); len(x) != 1 || !sameExemplar(t, x[0], 0, e, a) {
			t.Errorf("native exemplars %v; want the one of 0 s", x)
		}
	})
	t.Run("no span id", func(t *testing.T) {
		e := traced(1, clock.Now())
		e.SpanID = [8]byte{}
		hist := gatherOne(t, classic, func(h *counter.Histogram) { h.RecordExemplar(1500, e) })
		got := exemplarLabels(t, hist.GetBucket()[2].GetExemplar())
		if want := ids(e)["trace_id"]; len(got) != 1 || got["trace_id"] != want {
			t.Errorf("labels %v; want trace_id=%s alone", got, want)
		}
	})
	// Without an Anchor, or with a zero At, an exemplar is stamped with the
	// time of the scrape that took it, and keeps it.
	for _, tc := range []struct {
		name string
		a    *counter.Anchor
		at   counter.Tickstamp
	}{{"no anchor", nil, clock.Now()}, {"zero At", a, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			h := counter.NewHistogram()
			reg := prometheus.NewPedanticRegistry()
			reg.MustRegister(counterprom.New(h, rate(t), counterprom.Opts{Name: "edge_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.1, Anchor: tc.a}))
			h.RecordExemplar(1500, traced(1, tc.at))
			before := time.Now()
			hist := gather(t, reg, "edge_seconds").GetMetric()[0].GetHistogram()
			after := time.Now()
			e := hist.GetBucket()[2].GetExemplar()
			ts := e.GetTimestamp().AsTime()
			if e.GetTimestamp() == nil || ts.Before(before.Truncate(time.Microsecond)) || ts.After(after) {
				t.Errorf("the timestamp %v; want the scrape's, from %v to %v", ts, before, after)
			}
			if x := hist.GetExemplars(); len(x) != 1 || x[0] != e {
				t.Errorf("native exemplars %v; want %v", x, e)
			}
			h.Record(1700)
			time.Sleep(time.Millisecond)
			if again := gather(t, reg, "edge_seconds").GetMetric()[0].GetHistogram().GetBucket()[2].GetExemplar(); !again.GetTimestamp().AsTime().Equal(ts) {
				t.Errorf("the next scrape stamps it %v; want %v still", again.GetTimestamp().AsTime(), ts)
			}
		})
	}
	// With native buckets alone, the exemplar is on the +Inf bucket, which
	// the histogram then has, as client_golang's has.
	t.Run("native alone", func(t *testing.T) {
		e := traced(1, clock.Now())
		hist := gatherOne(t, counterprom.Opts{NativeHistogramBucketFactor: 1.1, Anchor: a}, func(h *counter.Histogram) {
			h.Record(100)
			h.RecordExemplar(1500, e)
		})
		theirs := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "theirs_seconds", Help: "client_golang's own.", NativeHistogramBucketFactor: 1.1})
		theirs.Observe(export.Seconds(100, rate(t)))
		theirs.(prometheus.ExemplarObserver).ObserveWithExemplar(export.Seconds(1500, rate(t)), prometheus.Labels(ids(e)))
		var m dto.Metric
		if err := theirs.Write(&m); err != nil {
			t.Fatal(err)
		}
		cb, ob := m.GetHistogram().GetBucket(), hist.GetBucket()
		if len(ob) != 1 || len(cb) != 1 || !math.IsInf(ob[0].GetUpperBound(), 1) || ob[0].GetCumulativeCount() != 2 ||
			ob[0].GetCumulativeCount() != cb[0].GetCumulativeCount() || !sameExemplar(t, ob[0].GetExemplar(), 1500, e, a) {
			t.Errorf("buckets %v; want one +Inf bucket of 2 spans with the exemplar, as client_golang's %v", ob, cb)
		}
	})
	t.Run("zero Anchor", func(t *testing.T) {
		c := counterprom.New(counter.NewHistogram(), rate(t), counterprom.Opts{Name: "edge_seconds", Anchor: new(counter.Anchor)})
		err := register(c)
		if err == nil || !strings.Contains(err.Error(), "counterprom: Opts.Anchor is the zero Anchor") {
			t.Errorf("Register returned %v; want the zero Anchor's refusal", err)
		}
		if err := collectError(c); err == nil {
			t.Error("Collect sent a valid metric")
		}
		f, err := counter.NewFamily([]string{"route"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := register(counterprom.NewFamily(f, rate(t), counterprom.Opts{Name: "edge_seconds", Anchor: new(counter.Anchor)})); err == nil {
			t.Error("a FamilyCollector of the zero Anchor registered")
		}
	})
}

// TestFamilyExemplars checks that each series of a Family keeps exemplars
// of its own, the overflow series among them: it keeps those of the sets
// past the limit and of a member labelled as it is, the slowest span's of
// all of them where a scrape's Intervals have two for one bucket, and a
// member's never reach it, nor its a member's.
func TestFamilyExemplars(t *testing.T) {
	a, clock := anchored(t)
	f, err := counter.NewFamily([]string{"route"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(counterprom.NewFamily(f, rate(t), counterprom.Opts{Name: "req_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.1, Anchor: a}))
	O := counterprom.Overflow
	type want struct {
		d counter.Tickdelta
		e counter.Exemplar
	}
	n := 0
	record := func(route string, d counter.Tickdelta) want {
		n++
		e := traced(n, clock.Advance(time.Second))
		f.With(route).RecordExemplar(d, e)
		return want{d, e}
	}
	check := func(round int, route string, classic map[int]want, native []want) {
		t.Helper()
		m := byLabels(t, gather(t, reg, "req_seconds"), "route")[route]
		if m == nil {
			t.Fatalf("round %d: no series {%s}", round, route)
		}
		hist := m.GetHistogram()
		for i, b := range hist.GetBucket() {
			if w, ok := classic[i]; ok != (b.GetExemplar() != nil) || ok && !sameExemplar(t, b.GetExemplar(), w.d, w.e, a) {
				t.Errorf("round %d: {%s} ≤%v has %v; want %v ticks, %v", round, route, b.GetUpperBound(), b.GetExemplar(), w.d, w.e)
			}
		}
		got := hist.GetExemplars()
		if len(got) != len(native) {
			t.Fatalf("round %d: {%s} has %d native exemplars; want %d", round, route, len(got), len(native))
		}
		for i, w := range native {
			if !sameExemplar(t, got[i], w.d, w.e, a) {
				t.Errorf("round %d: {%s} native exemplar %d is %v; want %v ticks, %v", round, route, i, got[i], w.d, w.e)
			}
		}
	}

	member := record("/a", 1500)
	folded := record(O, 50_000)  // a member, exported as the overflow series
	past := record("/b", 25_000) // past the limit: bucket 4, as 50,000
	slow := record("/c", 300_000_000)
	if f.Len() != 3 {
		t.Fatalf("the Family holds %d series; want 3", f.Len())
	}
	check(1, "/a", map[int]want{2: member}, []want{member})
	check(1, O, map[int]want{4: folded, len(bounds): slow}, []want{past, folded, slow})

	later := record("/c", 20_001) // bucket 4 again, and 25,000's doubling
	check(2, "/a", map[int]want{2: member}, []want{member})
	check(2, O, map[int]want{4: later, len(bounds): slow}, []want{later, folded, slow})
}

// TestExemplarsConcurrentScrapes scrapes one Collector from two
// registries, one over HTTP on 127.0.0.1 in OpenMetrics, while writers
// record spans with exemplars: every exemplar a scrape carries is one a
// writer recorded, on the bucket its value falls in. Run with -race, it
// checks that the exemplars scrapes share are only read.
func TestExemplarsConcurrentScrapes(t *testing.T) {
	h := counter.NewHistogram()
	c := counterprom.New(h, rate(t), counterprom.Opts{Name: "req_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.1})
	regs := []*prometheus.Registry{prometheus.NewPedanticRegistry(), prometheus.NewPedanticRegistry()}
	for _, reg := range regs {
		reg.MustRegister(c)
	}
	srv := httptest.NewServer(promhttp.HandlerFor(regs[1], promhttp.HandlerOpts{EnableOpenMetrics: true}))
	t.Cleanup(srv.Close)

	const writers = 4
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			r := h.Recorder()
			defer r.Close()
			spans := spread(uint64(w), 1000)
			for !stop.Load() {
				for _, d := range spans {
					r.RecordExemplar(d, traced(w, counter.Tickstamp(d)))
				}
				runtime.Gosched() // a round at a time, so that the scrapes run
			}
		})
	}
	valid := func(e *dto.Exemplar, lo, hi float64) error {
		l := exemplarLabels(t, e)
		trace, err := hex.DecodeString(l["trace_id"])
		if err != nil || len(trace) != 16 || len(l["span_id"]) != 16 {
			return fmt.Errorf("labels %v", l)
		}
		w := int(trace[0]-0xa0) / 16
		if w < 0 || w >= writers || l["trace_id"] != ids(traced(w, 0))["trace_id"] {
			return fmt.Errorf("labels %v of no writer", l)
		}
		if v := e.GetValue(); v <= lo && lo >= 0 || v > hi {
			return fmt.Errorf("%v s, outside (%v, %v]", v, lo, hi)
		}
		return nil
	}
	for range 20 {
		hist := gather(t, regs[0], "req_seconds").GetMetric()[0].GetHistogram()
		lo := -1.0
		for _, b := range hist.GetBucket() {
			if e := b.GetExemplar(); e != nil {
				if err := valid(e, lo, b.GetUpperBound()); err != nil {
					t.Errorf("the bucket ≤%v: %v", b.GetUpperBound(), err)
				}
			}
			lo = b.GetUpperBound()
		}
		for i, e := range hist.GetExemplars() {
			if err := valid(e, -1, math.Inf(1)); err != nil {
				t.Errorf("native exemplar %d: %v", i, err)
			}
		}
		buckets, text := scrapeOpenMetrics(t, srv.URL)
		for le, b := range buckets {
			if b.labels != "" && (b.value > le || math.IsNaN(b.ts)) {
				t.Errorf("le=%v: the exemplar %s %v %v\n%s", le, b.labels, b.value, b.ts, text)
			}
		}
	}
	stop.Store(true)
	wg.Wait()
}
