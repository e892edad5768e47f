package counterprom_test

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterprom"
	"github.com/tickstamp/counter/internal/spantest"
	"google.golang.org/protobuf/proto"
)

// labelsOf returns a metric's labels by name.
func labelsOf(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// byLabels returns the metrics of mf by their labels, in the order of
// names, joined by commas; it fails where two have the same.
func byLabels(t *testing.T, mf *dto.MetricFamily, names ...string) map[string]*dto.Metric {
	t.Helper()
	out := map[string]*dto.Metric{}
	for _, m := range mf.GetMetric() {
		l := labelsOf(m)
		values := make([]string, len(names))
		for i, n := range names {
			values[i] = l[n]
		}
		key := strings.Join(values, ",")
		if out[key] != nil {
			t.Fatalf("%s: two metrics of labels %s", mf.GetName(), key)
		}
		out[key] = m
	}
	return out
}

// withoutCreated returns a copy of h without its created timestamp, which
// is each collector's own.
func withoutCreated(h *dto.Histogram) *dto.Histogram {
	h = proto.Clone(h).(*dto.Histogram)
	h.CreatedTimestamp = nil
	return h
}

// TestFamilyAgainstCollectors serves a Family's FamilyCollector over HTTP
// on 127.0.0.1 and, beside it, a Collector of a Histogram of its own for
// each series that records the same spans: the overflow series' Histogram
// records those of every set past the limit. In each of three rounds, each
// series' histogram and counters, scraped as protobuf, are the Collector's
// but for the labels and the created timestamp: its count, sum, classic
// and native buckets, and schema, which NativeHistogramMaxBucketNumber
// lowers for the wide series and leaves at 7 for the narrow one. Sets
// first recorded in the second round appear in its scrape; the limit holds
// the export to four series, the overflow's labels all Overflow.
func TestFamilyAgainstCollectors(t *testing.T) {
	const limit = 4
	f, err := counter.NewFamily([]string{"method", "route"}, limit)
	if err != nil {
		t.Fatal(err)
	}
	opts := counterprom.Opts{
		Namespace: "app", Name: "req_seconds", Help: "How long a request takes.",
		ConstLabels: prometheus.Labels{"service": "api"},
		Buckets:     bounds, NativeHistogramBucketFactor: 1.01, NativeHistogramMaxBucketNumber: 160,
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(counterprom.NewFamily(f, rate(t), opts))
	url := serve(t, reg)

	// Sets 0 to 2 are members; 3 and 4, past the limit, the overflow's.
	sets := [][]string{{"GET", "/a"}, {"POST", "/a"}, {"GET", "/b"}, {"PUT", "/c"}, {"DELETE", "/d"}}
	overflow := []string{counterprom.Overflow, counterprom.Overflow}
	exported := [][]string{sets[0], sets[1], sets[2], overflow}
	refs := make(map[string]*counter.Histogram)
	refRegs := make(map[string]*prometheus.Registry)
	for _, want := range exported {
		key := strings.Join(want, ",")
		refs[key] = counter.NewHistogram()
		refRegs[key] = prometheus.NewPedanticRegistry()
		refRegs[key].MustRegister(counterprom.New(refs[key], rate(t), opts))
	}
	refOf := func(set int) *counter.Histogram {
		if set >= limit-1 {
			return refs[strings.Join(overflow, ",")]
		}
		return refs[strings.Join(sets[set], ",")]
	}
	record := func(set int, spans []counter.Tickdelta) {
		spantest.Record(f.With(sets[set]...), spans)
		spantest.Record(refOf(set), spans)
		for _, h := range []*counter.Histogram{f.With(sets[set]...), refOf(set)} {
			r := h.Recorder()
			r.Record(-counter.Tickdelta(set + 1))     // negative
			r.RecordCPU(counter.Tickdelta(set), 0, 1) // migrated
			r.Close()
		}
	}

	for round := range 3 {
		for set := range sets {
			if round == 0 && set >= 2 {
				continue // sets 2 to 4 are made in round 1
			}
			spans := spread(uint64(10*round+set), 20_000)
			if set == 0 {
				// Narrow: about 20 native buckets, which 160 does not lower.
				spans = spantest.LogUniform(rand.New(rand.NewPCG(uint64(round), 9)), 20_000, 1000, 1100)
			}
			record(set, spans)
		}
		families := scrape(t, url, expfmt.NewFormat(expfmt.TypeProtoDelim))
		wantSeries := len(exported)
		if round == 0 {
			wantSeries = 2
		}
		for _, name := range []string{"app_req_seconds", "app_req_seconds_negative_spans_total", "app_req_seconds_migrated_spans_total"} {
			mf := families[name]
			if mf == nil {
				t.Fatalf("round %d: no %s", round, name)
			}
			got := byLabels(t, mf, "method", "route")
			if len(got) != wantSeries {
				t.Fatalf("round %d: %s has %d series, want %d: %v", round, name, len(got), wantSeries, slices.Collect(maps.Keys(got)))
			}
			for key, m := range got {
				if l := labelsOf(m); len(l) != 3 || l["service"] != "api" {
					t.Errorf("round %d: %s{%s} has labels %v", round, name, key, l)
				}
				refMF := gather(t, refRegs[key], name)
				ref := refMF.GetMetric()[0]
				switch name {
				case "app_req_seconds":
					if !proto.Equal(withoutCreated(m.GetHistogram()), withoutCreated(ref.GetHistogram())) {
						t.Errorf("round %d: {%s}:\n%v\nwant the Collector's\n%v", round, key, m.GetHistogram(), ref.GetHistogram())
					}
				default:
					if m.GetCounter().GetValue() != ref.GetCounter().GetValue() || m.GetCounter().GetValue() == 0 {
						t.Errorf("round %d: %s{%s} = %v, want the Collector's %v", round, name, key, m.GetCounter().GetValue(), ref.GetCounter().GetValue())
					}
				}
			}
		}
		if round > 0 {
			hists := byLabels(t, families["app_req_seconds"], "method", "route")
			narrow, wide := hists["GET,/a"].GetHistogram(), hists["POST,/a"].GetHistogram()
			if narrow.GetSchema() != 7 || wide.GetSchema() >= 7 {
				t.Errorf("round %d: schemas %d and %d, want 7 and below", round, narrow.GetSchema(), wide.GetSchema())
			}
		}
	}
	if n := f.Len(); n != limit {
		t.Errorf("the Family holds %d series, want %d", n, limit)
	}
	// The text format, as a scrape without protobuf reads it.
	text := scrape(t, url, expfmt.NewFormat(expfmt.TypeTextPlain))
	overflowed := byLabels(t, text["app_req_seconds"], "method", "route")["__overflow__,__overflow__"]
	if overflowed == nil || overflowed.GetHistogram().GetSampleCount() != 2*2*20_000 {
		t.Errorf("the text format's overflow series: %v, want the 80000 spans of two sets in two rounds", overflowed)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

// TestFamilyFolds checks the series whose labels would be the overflow
// series': their spans are exported in the overflow series, beside those
// of sets past the limit, and the pedantic registry gathers every series
// without error. A set with only some values Overflow is a series of its
// own, and so is one with a value that is not UTF-8 or is too long, which
// the Family made valid: the registry gathers it with a collector of
// another kind beside.
func TestFamilyFolds(t *testing.T) {
	f, err := counter.NewFamily([]string{"a", "b"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(counterprom.NewFamily(f, rate(t), counterprom.Opts{Name: "fold_seconds", Buckets: bounds}))
	other := prometheus.NewCounter(prometheus.CounterOpts{Name: "other_total", Help: "Another instrument."})
	reg.MustRegister(other)
	other.Inc()
	O := counterprom.Overflow
	count := func() map[string]uint64 {
		out := map[string]uint64{}
		for key, m := range byLabels(t, gather(t, reg, "fold_seconds"), "a", "b") {
			out[key] = m.GetHistogram().GetSampleCount()
		}
		return out
	}

	f.With(O, O).Record(10) // a member, but labelled as the overflow series
	if got, want := count(), map[string]uint64{O + "," + O: 1}; !maps.Equal(got, want) {
		t.Errorf("got %v; want %v", got, want)
	}
	long := strings.Repeat("y", counter.MaxValueLen) + "z"
	cut := strings.Repeat("y", counter.MaxValueLen-len("…")) + "…"
	f.With(O, "x").Record(20)
	f.With("\xff", "x").Record(30)
	f.With("\xfe", long).Record(35)
	f.With("past", "limit").Record(40)
	f.With("past", "limit").Record(50)
	want := map[string]uint64{O + ",x": 1, "\uFFFD,x": 1, "\uFFFD," + cut: 1, O + "," + O: 3}
	if got := count(); !maps.Equal(got, want) {
		t.Errorf("got %v; want %v", got, want)
	}
	if got := gather(t, reg, "other_total").GetMetric()[0].GetCounter().GetValue(); got != 1 {
		t.Errorf("other_total = %v; want 1", got)
	}
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

// TestFamilyDescribe checks that a FamilyCollector describes its histogram
// as client_golang's HistogramVec of the same options and label names
// does, and its counters with the same variable labels.
func TestFamilyDescribe(t *testing.T) {
	f, err := counter.NewFamily([]string{"method", "quantile"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	opts := counterprom.Opts{Namespace: "app", Name: "d_seconds", Help: "Spans.", ConstLabels: prometheus.Labels{"service": "api"}}
	describe := func(c prometheus.Collector) []string {
		ch := make(chan *prometheus.Desc, 4)
		c.Describe(ch)
		close(ch)
		var out []string
		for d := range ch {
			out = append(out, d.String())
		}
		return out
	}
	c := counterprom.NewFamily(f, rate(t), opts)
	got := describe(c)
	vec := describe(prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: "app", Name: "d_seconds", Help: "Spans.", ConstLabels: prometheus.Labels{"service": "api"},
	}, []string{"method", "quantile"}))
	if len(got) != 3 || got[0] != vec[0] {
		t.Fatalf("got %q; want %q first", got, vec)
	}
	for _, d := range got[1:] {
		if !strings.Contains(d, "variableLabels: {method,quantile}") {
			t.Errorf("counter %s; want the Family's labels", d)
		}
	}
	// "quantile" is a summary's label, which a histogram may have.
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(c); err != nil {
		t.Fatal(err)
	}
	f.With("GET", "0.5").Record(100)
	if n := len(gather(t, reg, "app_d_seconds").GetMetric()); n != 1 {
		t.Errorf("%d series, want 1", n)
	}
}

// TestFamilyBadOptions checks each refusal of NewFamily's arguments, the
// sources that cannot be read among them: an error at Register that wraps
// the sentinel, and at Collect an invalid metric, never a panic.
func TestFamilyBadOptions(t *testing.T) {
	family := func(labels ...string) *counter.Family {
		f, err := counter.NewFamily(labels, 0)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	good := family("route")
	type call struct {
		name string
		f    export.FamilySource
		rate counter.TickRate
		opts counterprom.Opts
		want error
	}
	var unreadable []call
	for name, f := range spantest.UnreadableFamilySources() {
		unreadable = append(unreadable, call{name, f, rate(t), counterprom.Opts{Name: "x"}, counterprom.ErrNilSource})
	}
	for _, tc := range append(unreadable, []call{
		{"le", family("route", "le"), rate(t), counterprom.Opts{Name: "x"}, counterprom.ErrBadLabel},
		{"reserved", family("__name__"), rate(t), counterprom.Opts{Name: "x"}, counterprom.ErrBadLabel},
		{"not UTF-8", family("a\xff"), rate(t), counterprom.Opts{Name: "x"}, counterprom.ErrBadLabel},
		{"const label", good, rate(t), counterprom.Opts{Name: "x", ConstLabels: prometheus.Labels{"route": "/"}}, counterprom.ErrBadLabel},
		{"no name", good, rate(t), counterprom.Opts{}, counterprom.ErrNoName},
		{"zero rate", good, counter.TickRate{}, counterprom.Opts{Name: "x"}, export.ErrZeroRate},
		{"NaN bound", good, rate(t), counterprom.Opts{Name: "x", Buckets: []float64{math.NaN()}}, counterprom.ErrBadBounds},
		{"NaN factor", good, rate(t), counterprom.Opts{Name: "x", NativeHistogramBucketFactor: math.NaN()}, counterprom.ErrBadFactor},
		{"bad name", good, rate(t), counterprom.Opts{Name: "bad\xffname"}, nil},
		{"bad const label", good, rate(t), counterprom.Opts{Name: "x", ConstLabels: prometheus.Labels{"__c": "v"}}, nil},
	}...) {
		t.Run(tc.name, func(t *testing.T) {
			c := counterprom.NewFamily(tc.f, tc.rate, tc.opts)
			err := prometheus.NewRegistry().Register(c)
			if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("Register returned %v; want %v", err, tc.want)
			}
			ch := make(chan prometheus.Metric, 16)
			c.Collect(ch)
			close(ch)
			n := 0
			for m := range ch {
				n++
				if m.Write(&dto.Metric{}) == nil {
					t.Error("a metric was collected")
				}
			}
			if n != 1 {
				t.Errorf("%d metrics collected, want one invalid", n)
			}
		})
	}
}

// TestFamilyConcurrentScrapes scrapes one FamilyCollector from two
// registries, one of them over HTTP on 127.0.0.1, while four writers
// record into sets of values of their own, a set a round in turn, so that
// series appear between scrapes, and more sets than the limit holds: half
// of each round through a Recorder of the set's, half through
// Histogram.Record. The writers go on until each scraper has scraped ten
// times. Each series' count never falls, and once the writers stop and
// close their Recorders, each series holds exactly the spans of its sets:
// a member those of its one set, the overflow series those of every set
// without a series of its own.
func TestFamilyConcurrentScrapes(t *testing.T) {
	const writers, setsEach, limit, round = 4, 3, 7, 500
	f, err := counter.NewFamily([]string{"writer", "set"}, limit)
	if err != nil {
		t.Fatal(err)
	}
	c := counterprom.NewFamily(f, rate(t), counterprom.Opts{Name: "busy_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.1})
	regs := []*prometheus.Registry{prometheus.NewPedanticRegistry(), prometheus.NewPedanticRegistry()}
	for _, reg := range regs {
		reg.MustRegister(c)
	}
	url := serve(t, regs[1])

	f.With("0", "0")         // so that the first scrape has a metric family
	var scraped atomic.Int32 // the scrapers that have scraped ten times, or failed
	recorded := make([]map[string]uint64, writers)
	recorders := make([]map[string]*counter.Recorder, writers)
	var wg sync.WaitGroup
	for w := range writers {
		recorded[w], recorders[w] = map[string]uint64{}, map[string]*counter.Recorder{}
		wg.Go(func() {
			spans := spread(uint64(w), round)
			for n := 0; scraped.Load() < int32(len(regs)) || n < setsEach; n++ {
				key := fmt.Sprint(w) + "," + fmt.Sprint(n%setsEach)
				h := f.With(strings.Split(key, ",")...)
				r := recorders[w][key]
				if r == nil {
					r = h.Recorder()
					recorders[w][key] = r
				}
				for _, d := range spans[:round/2] {
					r.Record(d)
				}
				for _, d := range spans[round/2:] {
					h.Record(d)
				}
				recorded[w][key] += round
			}
		})
	}
	done := make(chan struct{})
	var scrapers sync.WaitGroup
	for i := range regs {
		scrapers.Go(func() {
			counted := false
			defer func() {
				if !counted { // failed: the writers must stop all the same
					scraped.Add(1)
				}
			}()
			last := map[string]uint64{}
			for n := 1; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				var mf *dto.MetricFamily
				if i == 0 {
					mf = gather(t, regs[0], "busy_seconds")
				} else {
					mf = scrape(t, url, expfmt.NewFormat(expfmt.TypeProtoDelim))["busy_seconds"]
				}
				if got := len(mf.GetMetric()); got > limit {
					t.Errorf("%d series, past the limit of %d", got, limit)
				}
				for key, m := range byLabels(t, mf, "writer", "set") {
					if n := m.GetHistogram().GetSampleCount(); n < last[key] {
						t.Errorf("{%s}: count %d after %d", key, n, last[key])
					} else {
						last[key] = n
					}
				}
				if n == 10 {
					scraped.Add(1)
					counted = true
				}
			}
		})
	}
	wg.Wait()
	close(done)
	scrapers.Wait()
	for _, rs := range recorders {
		for _, r := range rs {
			r.Close()
		}
	}

	want := map[string]uint64{}
	for _, r := range recorded {
		maps.Copy(want, r)
	}
	got := map[string]uint64{}
	for key, m := range byLabels(t, gather(t, regs[0], "busy_seconds"), "writer", "set") {
		got[key] = m.GetHistogram().GetSampleCount()
	}
	if len(got) != limit {
		t.Errorf("%d series, want the limit, %d", len(got), limit)
	}
	var overflow uint64
	for key, n := range want {
		if _, own := got[key]; !own {
			overflow += n
			want[key] = 0
		}
	}
	key := counterprom.Overflow + "," + counterprom.Overflow
	maps.DeleteFunc(want, func(_ string, n uint64) bool { return n == 0 })
	want[key] = overflow
	if !maps.Equal(got, want) {
		t.Errorf("counts %v; want %v", got, want)
	}
}

// TestFamilyAllocs checks that a FamilyCollector's Collect allocates for
// each series no more than a Collector's does for its one, with 128 spans
// recorded into each between collections.
func TestFamilyAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocations are counted over many collections")
	}
	const series = 20
	spans := spread(5, 20_000)
	drain := func(c prometheus.Collector) {
		ch := make(chan prometheus.Metric, 3*series+3)
		c.Collect(ch)
		close(ch)
		for m := range ch {
			_ = m.Write(&dto.Metric{})
		}
	}
	h := counter.NewHistogram()
	single := counterprom.New(h, rate(t), counterprom.Opts{Name: "one_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.01})
	f, err := counter.NewFamily([]string{"n"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	family := counterprom.NewFamily(f, rate(t), counterprom.Opts{Name: "many_seconds", Buckets: bounds, NativeHistogramBucketFactor: 1.01})
	members := make([]*counter.Histogram, series)
	for i := range members {
		members[i] = f.With(fmt.Sprint(i))
		spantest.Record(members[i], spans)
	}
	spantest.Record(h, spans)
	i := 0
	next := func() []counter.Tickdelta { i++; return spans[i%128*128:][:128] }
	one := testing.AllocsPerRun(50, func() {
		for _, d := range next() {
			h.Record(d)
		}
		drain(single)
	})
	all := testing.AllocsPerRun(50, func() {
		s := next()
		for _, m := range members {
			for _, d := range s {
				m.Record(d)
			}
		}
		drain(family)
	})
	t.Logf("a Collector's collect: %v allocations; a FamilyCollector's of %d series: %v", one, series, all)
	if all > series*one {
		t.Errorf("%v allocations for %d series, past %d times a Collector's %v", all, series, series, one)
	}
}

// TestFamilyForget serves a FamilyCollector of a Family that forgets a
// series idle for one Interval, over HTTP on 127.0.0.1, through five
// scrapes. A series that records nothing in a scrape's Interval is
// exported by that scrape and by none after, its counters with it; a new
// set takes the place under the limit that it freed, not the overflow
// series'. Where its values come back, their series starts again from
// zero, its counters too, with a created timestamp no earlier than the
// scrape before, which Prometheus reads as a counter reset. A series that
// records before each scrape keeps its counts and the FamilyCollector's
// created timestamp.
func TestFamilyForget(t *testing.T) {
	f, err := counter.NewFamily([]string{"route"}, 3) // two series and the overflow
	if err != nil {
		t.Fatal(err)
	}
	if err := f.ForgetIdle(1); err != nil {
		t.Fatal(err)
	}
	made := time.Now()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(counterprom.NewFamily(f, rate(t), counterprom.Opts{Name: "r_seconds", Buckets: bounds}))
	madeBy := time.Now()
	url := serve(t, reg)

	type exported struct {
		count, negative uint64
		created         time.Time
	}
	get := func() map[string]exported {
		families := scrape(t, url, expfmt.NewFormat(expfmt.TypeProtoDelim))
		out := map[string]exported{}
		for key, m := range byLabels(t, families["r_seconds"], "route") {
			out[key] = exported{count: m.GetHistogram().GetSampleCount(), created: m.GetHistogram().GetCreatedTimestamp().AsTime()}
		}
		neg := byLabels(t, families["r_seconds_negative_spans_total"], "route")
		if len(neg) != len(out) {
			t.Fatalf("%d series of negative spans for %d histograms", len(neg), len(out))
		}
		for key, m := range neg {
			e := out[key]
			e.negative = uint64(m.GetCounter().GetValue())
			out[key] = e
		}
		return out
	}
	record := func(route string, n int) {
		for i := range n {
			f.With(route).Record(counter.Tickdelta(1000 * (i + 1)))
		}
	}
	// check compares one scrape with want, by route: the counts, and a
	// created timestamp from the interval given.
	type want struct {
		count, negative uint64
		from, to        time.Time
	}
	check := func(scrape int, got map[string]exported, wants map[string]want) {
		t.Helper()
		if len(got) != len(wants) {
			t.Errorf("scrape %d: series %v; want %v", scrape, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(wants)))
		}
		for route, w := range wants {
			g, ok := got[route]
			switch {
			case !ok:
				t.Errorf("scrape %d: no series %s", scrape, route)
			case g.count != w.count || g.negative != w.negative:
				t.Errorf("scrape %d: %s holds %d spans and %d negative; want %d and %d", scrape, route, g.count, g.negative, w.count, w.negative)
			case g.created.Before(w.from.Truncate(time.Microsecond)) || g.created.After(w.to):
				t.Errorf("scrape %d: %s created at %v; want from %v to %v", scrape, route, g.created, w.from, w.to)
			}
		}
	}

	record("/a", 2)
	record("/b", 3)
	f.With("/b").Record(-1)
	check(1, get(), map[string]want{"/a": {2, 0, made, madeBy}, "/b": {3, 1, made, madeBy}})

	record("/a", 1)
	before2 := time.Now()
	check(2, get(), map[string]want{"/a": {3, 0, made, madeBy}, "/b": {3, 1, made, madeBy}}) // /b idle: forgotten after

	record("/a", 1)
	record("/c", 1) // /b's place
	before3 := time.Now()
	check(3, get(), map[string]want{"/a": {4, 0, made, madeBy}, "/c": {1, 0, before2, before3}})

	record("/a", 1)
	before4 := time.Now()
	check(4, get(), map[string]want{"/a": {5, 0, made, madeBy}, "/c": {1, 0, before2, before3}}) // /c idle: forgotten after

	record("/a", 1)
	record("/b", 1) // /b back, in /c's place: from zero
	before5 := time.Now()
	check(5, get(), map[string]want{"/a": {6, 0, made, madeBy}, "/b": {1, 0, before4, before5}})
	if problems, err := testutil.GatherAndLint(reg); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}
