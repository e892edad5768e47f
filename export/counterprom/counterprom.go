// Package counterprom exports a [counter.Histogram] to Prometheus: a
// [Collector] that a program registers in one line,
//
//	prometheus.MustRegister(counterprom.New(h, c.Rate(), counterprom.Opts{Name: "request_duration_seconds"}))
//
// and that serves, on each scrape, every span recorded since it was made, in
// seconds: a histogram with classic buckets at the bounds the program chose
// and, where it asks, native buckets, as client_golang's own Histogram
// serves them. Negative spans and spans that changed CPU, which a Histogram
// counts apart, are two counters beside it.
//
// # What a scrape holds
//
// Each scrape takes the source's Interval and adds it to what the Collector
// holds, so its counts never fall. The count is exact, and the sum is
// [export.SumSeconds] of every span taken. Each span is counted once, at its
// value of [export.Values] in the Snapshot of the Interval that took it,
// which is within [counter.QuantileError] of the span: it counts toward the
// classic bound b where that value is at most b, so a span within
// b·QuantileError of b may count on either side. A quantile read at any
// point of the native bucket of schema s that holds it is within
// (1+QuantileError)·2^(2^−s)−1 of the exact order statistic: 0.94% at schema
// 7, which a NativeHistogramBucketFactor of 1.01 picks.
//
// A scrape costs time in proportion to the buckets of its Interval, the
// bounds, and the native buckets of the series' window, which runs from the
// least native bucket that holds a span to the greatest. Besides its labels
// and a fixed part, a series holds 8 bytes a bound and 8 bytes a native
// bucket of its window, and, from its first exemplar, 24 bytes a classic
// bucket and a native slot and the exemplars it keeps.
//
// # Exemplars
//
// A span recorded with an exemplar ([counter.Recorder.RecordExemplar])
// names the trace that took it. Each series keeps exemplars as
// client_golang's Histogram does. On each classic bucket, the +Inf one
// among them, it keeps the exemplar of the slowest span in it of the last
// scrape whose Interval had one there; and, where native, up to ten on
// the native buckets, one a doubling of spans (doublings ten apart share
// one), each scrape's replacing those of their doublings, so that the
// slowest of the last scrape that had any is among them. An exemplar's
// value is its span in seconds, its labels are trace_id and span_id (where
// not zero) in lowercase hex, as OpenTelemetry writes them, and its
// timestamp is its At converted by [Opts].Anchor. It is on the classic
// bucket its span falls in, which, for a span within
// [counter.QuantileError] of a bound, may be beside the bucket that
// counts it. A scrape in the protobuf format carries them all, one in
// OpenMetrics (promhttp.HandlerOpts.EnableOpenMetrics) those of the classic
// buckets, and one in the classic text format none.
//
// # Who calls Interval
//
// Each span goes to one Interval call. Where the program also calls the
// Histogram's Interval, the spans that call takes never reach the
// Collector. To read a Histogram both ways, or through two exporters, make
// an [export.Feed] of it and give each reader its own [export.Tap], and of
// a Family an [export.FamilyFeed] and an [export.FamilyTap] each. A second
// reader that this module or another exporter can see is refused:
// registering a collector of a Histogram, Family, Tap or FamilyTap that a
// Feed, a FamilyFeed or another exporter reads returns an error wrapping
// [export.ErrSecondReader].
//
// Several registries may scrape one Collector, and scrapes may overlap: a
// Collector takes one scrape at a time, and each gets the counts up to its
// own Interval.
//
// # Families
//
// A [counter.Family], a Histogram for each set of label values, is served
// by one [FamilyCollector], as client_golang serves a HistogramVec:
//
//	f, err := counter.NewFamily([]string{"method", "route"}, 0)
//	...
//	prometheus.MustRegister(counterprom.NewFamily(f, c.Rate(), counterprom.Opts{Name: "request_duration_seconds"}))
//	...
//	f.With("GET", "/users").Record(c.Now().Sub(start))
//
// Its variable labels are the Family's label names, and each series is
// exported as a Collector exports its one source. The overflow series,
// which takes the sets of values past the Family's limit, has the value
// [Overflow] for every label. A Family that forgets its idle series
// ([counter.Family.ForgetIdle], off by default) frees their places under
// its limit, and the FamilyCollector drops them too: where a series' values
// come back, its counts start again from zero, with a new created
// timestamp, which rate() reads as a counter reset.
package counterprom

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/internal/readers"
	"github.com/tickstamp/counter/export/internal/running"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Opts says how a Collector names, buckets and stamps its histogram.
// Namespace, Subsystem, Name, Help and ConstLabels are as in
// [prometheus.HistogramOpts]; Name is required.
type Opts struct {
	Namespace   string
	Subsystem   string
	Name        string
	Help        string
	ConstLabels prometheus.Labels

	// Buckets are the upper bounds of the classic buckets, in seconds, in
	// any order; the +Inf bucket is implicit. Where Buckets is nil and no
	// native buckets are asked for, they are [prometheus.DefBuckets]; where
	// native buckets are asked for, a nil Buckets means none. A bound that
	// is NaN, or given twice, is an error.
	Buckets []float64

	// NativeHistogramBucketFactor asks for native buckets where it is above
	// 1, as in prometheus.HistogramOpts: their schema is the coarsest, from
	// −4 to 8, whose buckets grow by a factor of at most this one, and 8
	// where none does: 1.1 picks schema 3, 1.01 schema 7. Spans of 0 ticks
	// are in the zero bucket, whose threshold is
	// [prometheus.DefNativeHistogramZeroThreshold].
	NativeHistogramBucketFactor float64

	// NativeHistogramMaxBucketNumber bounds the native buckets that hold
	// spans, where it is above 0 and native buckets are asked for: where
	// more hold spans, the series lowers its schema by one, merging each
	// pair of buckets as client_golang does when it halves its resolution,
	// until at most this many hold spans or the schema is −4, where a
	// series' spans may fill 5. The zero bucket is not one of them, nor are
	// the empty buckets the encoding puts between two that are. A series'
	// schema never rises. Where it is 0, the buckets are not bounded.
	//
	// There is no NativeHistogramMinResetDuration: a series never resets,
	// but where its Family forgets it (counter.Family.ForgetIdle).
	// Nor is there a NativeHistogramMaxZeroThreshold: the zero bucket holds
	// exactly the spans of 0 ticks.
	NativeHistogramMaxBucketNumber uint32

	// Anchor converts an exemplar's At to its timestamp, at the scrape
	// that takes the exemplar. Where Anchor is nil or At is zero, the
	// timestamp is the time of that scrape, after the span's record, as
	// client_golang stamps an exemplar with the time it is observed:
	// OpenMetrics allows an exemplar without one, but Prometheus drops a
	// native histogram's and stamps a classic bucket's anew at each scrape.
	// The zero Anchor is an error.
	Anchor *counter.Anchor
}

// Errors that New's Collector, and NewFamily's, report when registered.
var (
	ErrNoName    = errors.New("counterprom: Opts.Name is required")
	ErrBadBounds = errors.New("counterprom: a bucket bound is NaN or given twice")
	ErrBadFactor = errors.New("counterprom: NativeHistogramBucketFactor is NaN or infinite")
	// ErrNilSource is the refusal of a source that cannot be read: nil, a
	// nil of any kind, or a zero Histogram or Tap ([export.CheckSource]),
	// and NewFamily's of a nil or zero Family or FamilyTap
	// ([export.CheckFamilySource]). It is export.ErrNilSource, which
	// counterotel refuses too.
	ErrNilSource = export.ErrNilSource
)

// A Collector is a [prometheus.Collector] of the spans of one Histogram,
// or of any [export.Source]. Make one with [New].
type Collector struct {
	shape
	src export.Source
	err error // why the Collector collects nothing

	mu      sync.Mutex // held by one Collect at a time
	series  series
	scratch counter.Snapshot // each Interval's
	takes   uint64           // the Collects that have taken an Interval
}

// A shape is what a collector's options make of each series it exports:
// the descriptions of the histogram and its two counters, the rate, and
// the buckets.
type shape struct {
	rate    counter.TickRate
	created time.Time

	hist, negative, migrated *prometheus.Desc
	bounds                   []float64 // sorted, without +Inf
	native                   bool
	exp                      export.Exponential // at the factor's schema
	maxBuckets               int                // 0: no bound
	anchor                   *counter.Anchor    // nil: none
}

// A series is one exported histogram from scrape to scrape: its labels and
// every span it has taken. Its collector's lock is held while it is used.
type series struct {
	labels  []*dto.LabelPair // sorted, the const labels among them
	created time.Time        // its created timestamp; zero for its collector's
	total   running.Totals
	// classic[i] counts the spans above bounds[i-1] and at most bounds[i].
	classic []uint64
	zero    uint64 // the spans of 0 ticks, where native
	window
	ex *exemplars // nil until the series takes an exemplar
}

// A window is a series' native buckets: counts[i] holds the spans of
// bucket offset+i at schema. Between two Intervals, the first and the last
// counts are not 0.
type window struct {
	schema int32 // it never rises
	offset int32
	counts []uint64
	held   int // the counts that are not 0
}

// New returns a Collector of the spans of src, a *counter.Histogram or an
// [export.Tap], at the rate r, the Counter's that took them. Its first
// scrape takes src's Interval: spans recorded before then are in it, but
// for those an earlier Interval call took.
//
// New never fails: where the options are wrong (see the errors above, and
// [export.ErrZeroRate] for the zero TickRate; a Name that Prometheus does
// not allow is [prometheus.NewDesc]'s error), registering the Collector
// returns the error, as it does for client_golang's own collectors. So it
// does where src is a Histogram or a Tap that an [export.Feed] or another
// exporter reads ([export.ErrSecondReader]): from New on, the Collector is
// src's reader until it is garbage-collected (or, for a Tap, the Tap's
// Close).
func New(src export.Source, r counter.TickRate, opts Opts) *Collector {
	c := &Collector{src: src}
	c.err = c.shape.init(r, opts, nil, export.CheckSource(src))
	if c.err == nil {
		c.err = claim(opts, readers.Source[export.Tap](src, c, reader("Collector", opts)))
	}
	c.series.init(&c.shape, nil)
	return c
}

// reader returns how a refusal names a collector of the kind (Collector or
// FamilyCollector) made with opts, as the reader of what it reads.
func reader(kind string, opts Opts) string {
	return "a counterprom " + kind + " named " + strconv.Quote(prometheus.BuildFQName(opts.Namespace, opts.Subsystem, opts.Name))
}

// claim returns the refusal err of a second reader, as a collector made
// with opts reports it, or nil where err is nil.
func claim(opts Opts, err error) error {
	if err != nil {
		return fmt.Errorf("counterprom: %q: %w", opts.Name, err)
	}
	return nil
}

// init makes the descriptions, each with the variable labels, and works
// out the buckets. It returns why the options are wrong; source is why the
// source cannot be read, nil where it can.
func (sh *shape) init(r counter.TickRate, opts Opts, labels []string, source error) error {
	sh.rate, sh.created = r, time.Now()
	name := prometheus.BuildFQName(opts.Namespace, opts.Subsystem, opts.Name)
	sh.hist = prometheus.NewDesc(name, opts.Help, labels, opts.ConstLabels)
	sh.negative = prometheus.NewDesc(name+"_negative_spans_total",
		"Spans whose readings crossed, counted apart from "+name+".", labels, opts.ConstLabels)
	sh.migrated = prometheus.NewDesc(name+"_migrated_spans_total",
		"Spans whose readings came from two CPUs, counted apart from "+name+".", labels, opts.ConstLabels)
	if err := sh.configure(r, opts, labels, source); err != nil {
		return err
	}
	// NewConstMetric returns the error NewDesc recorded in a Desc: a Name
	// or a label that Prometheus does not allow. Register would report it;
	// Collect then reports it too, rather than send metrics of that Desc.
	for _, d := range []*prometheus.Desc{sh.hist, sh.negative, sh.migrated} {
		if _, err := prometheus.NewConstMetric(d, prometheus.CounterValue, 0, make([]string, len(labels))...); err != nil {
			return err
		}
	}
	return nil
}

// configure checks the options and works out the buckets.
func (sh *shape) configure(r counter.TickRate, opts Opts, labels []string, source error) error {
	switch {
	case opts.Name == "":
		return ErrNoName
	case source != nil:
		return fmt.Errorf("counterprom: %q: %w", opts.Name, source)
	case r.Hertz() == 0:
		return export.ErrZeroRate
	case math.IsNaN(opts.NativeHistogramBucketFactor) || math.IsInf(opts.NativeHistogramBucketFactor, 0):
		return ErrBadFactor
	case opts.Anchor != nil && !converts(opts.Anchor):
		return errors.New("counterprom: Opts.Anchor is the zero Anchor, which converts nothing; make one with counter.NewAnchor")
	}
	sh.native, sh.anchor = opts.NativeHistogramBucketFactor > 1, opts.Anchor
	bounds := opts.Buckets
	if bounds == nil && !sh.native {
		bounds = prometheus.DefBuckets
	}
	sh.bounds = slices.DeleteFunc(slices.Clone(bounds), func(b float64) bool { return math.IsInf(b, 1) })
	slices.Sort(sh.bounds)
	for i, b := range sh.bounds {
		if math.IsNaN(b) || i > 0 && b == sh.bounds[i-1] {
			return fmt.Errorf("%w: %v", ErrBadBounds, opts.Buckets)
		}
	}
	if sh.native {
		var err error
		sh.exp, err = export.NewExponential(schema(opts.NativeHistogramBucketFactor))
		if err != nil {
			return err
		}
		sh.maxBuckets = int(opts.NativeHistogramMaxBucketNumber)
	}
	return checkLabels(labels, opts.ConstLabels)
}

// init readies s, empty, as the series of the label values, one for each
// of sh's variable labels.
func (s *series) init(sh *shape, values []string) {
	s.labels = prometheus.MakeLabelPairs(sh.hist, values)
	s.classic = make([]uint64, len(sh.bounds)+1)
	s.schema = sh.exp.Scale()
}

// schema returns the coarsest schema, from −4 to 8, whose buckets grow by at
// most the factor f > 1: the s for which 2^(2^−s) ≤ f < 2^(2^−(s−1)), or 8
// where f < 2^(2^−8), or −4 where f ≥ 2^16.
func schema(f float64) int32 {
	s := -int32(math.Floor(math.Log2(math.Log2(f))))
	return min(max(s, -4), 8)
}

// Describe sends the descriptions of the histogram and of its two counters,
// or, where New's options were wrong or c is nil or the zero Collector, the
// error, which Register returns. It panics where ch is nil.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	mustHaveChannel(ch, "Collector.Describe")
	if err := c.unusable("Describe"); err != nil {
		ch <- prometheus.NewInvalidDesc(err)
		return
	}
	c.describe(ch)
}

// unusable returns why c collects nothing, nil where it collects: New's
// refusal of its options, or c is nil or the zero Collector. The last two
// are reported as the first is, on the channel, since the registry calls
// Describe on a goroutine of its own, where a panic would end the program.
func (c *Collector) unusable(call string) error {
	switch {
	case c == nil:
		return errors.New("counterprom: Collector." + call + ": a nil *Collector; make one with New")
	case c.err != nil:
		return c.err
	case c.src == nil:
		return errors.New("counterprom: Collector." + call + ": the zero Collector has no source; make one with New")
	}
	return nil
}

// mustHaveChannel panics, naming the method call, where ch is nil: a send
// on it would block for ever.
func mustHaveChannel[T any](ch chan<- T, call string) {
	if ch == nil {
		panic("counterprom: " + call + ": a nil ch, on which a send blocks for ever; pass the channel a registry gives")
	}
}

// describe sends the three descriptions.
func (sh *shape) describe(ch chan<- *prometheus.Desc) {
	ch <- sh.hist
	ch <- sh.negative
	ch <- sh.migrated
}

// Collect takes the spans recorded since the previous Collect, adds them to
// the Collector's own, and sends the histogram of all of them and the two
// counters. It waits for a Collect that is running to finish. Where New's
// options were wrong or c is nil or the zero Collector, it sends the error
// as an invalid metric instead. It panics where ch is nil.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	mustHaveChannel(ch, "Collector.Collect")
	if err := c.unusable("Collect"); err != nil {
		ch <- prometheus.NewInvalidMetric(prometheus.NewInvalidDesc(err), err)
		return
	}
	c.collect().send(ch)
}

// collect takes an Interval and builds the metrics of the series.
func (c *Collector) collect() *metrics {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.src.Interval(&c.scratch)
	c.takes++
	c.series.add(&c.scratch, &c.shape, &take{n: c.takes})
	return c.metrics(&c.series)
}

// add adds the spans of in, one Interval that the take t took, to s, each
// at its value of [export.Values], and keeps its exemplars.
func (s *series) add(in *counter.Snapshot, sh *shape, t *take) {
	s.total.Add(in)
	s.keep(in, sh, t)
	if sh.native && in.Max() > 0 {
		// The values come in increasing order, in.Max() the last: the
		// window reaches up to it at once, not a bucket at a time.
		s.window.reach(sh.exp.Index(export.Seconds(in.Max(), sh.rate)), sh.exp.Scale())
	}
	for v, n := range export.Values(in) {
		sec := export.Seconds(v, sh.rate)
		s.classic[sort.SearchFloat64s(sh.bounds, sec)] += n
		switch {
		case !sh.native:
		case v == 0:
			s.zero += n
		default:
			s.window.add(sh.exp.Index(sec), sh.exp.Scale(), n, sh.maxBuckets)
		}
	}
}

// add counts n spans in bucket i of the schema at, which is not below w's,
// then lowers w's schema while more than most buckets hold spans, where
// most is above 0.
func (w *window) add(i, at int32, n uint64, most int) {
	k := &w.counts[w.reach(i, at)-w.offset]
	if *k == 0 {
		w.held++
	}
	*k += n
	for most > 0 && w.held > most && w.schema > -4 {
		w.halve()
	}
}

// reach widens w to hold bucket i of the schema at, which is not below
// w's, and returns its index at w's schema. w.counts has no room to spare.
func (w *window) reach(i, at int32) int32 {
	i >>= at - w.schema
	switch {
	case len(w.counts) == 0:
		w.offset, w.counts = i, make([]uint64, 1)
	case i < w.offset:
		grown := make([]uint64, int(w.offset-i)+len(w.counts))
		copy(grown[w.offset-i:], w.counts)
		w.offset, w.counts = i, grown
	case int(i-w.offset) >= len(w.counts):
		grown := make([]uint64, int(i-w.offset)+1)
		copy(grown, w.counts)
		w.counts = grown
	}
	return i
}

// halve lowers w's schema by one: bucket i takes bucket i>>1, as
// client_golang merges a pair when it halves its resolution (in
// Prometheus's keys k = i+1, key ⌈k/2⌉).
func (w *window) halve() {
	lo, hi := w.offset>>1, (w.offset+int32(len(w.counts))-1)>>1
	w.held = 0
	for k, n := range w.counts {
		// j ≤ k: the counts before k are merged already.
		if j := int((w.offset+int32(k))>>1 - lo); j != k {
			w.counts[k] = 0
			w.counts[j] += n
		}
	}
	w.counts = append(make([]uint64, 0, hi-lo+1), w.counts[:hi-lo+1]...)
	for _, n := range w.counts {
		if n != 0 {
			w.held++
		}
	}
	w.offset = lo
	w.schema--
}

// metrics builds the histogram of s and its two counters.
func (sh *shape) metrics(s *series) *metrics {
	out := &metrics{}
	created := sh.created
	if !s.created.IsZero() {
		created = s.created
	}
	out.created.Seconds, out.created.Nanos = created.Unix(), int32(created.Nanosecond())
	out.negative.set(sh.negative, s.labels, s.total.Negative(), &out.created)
	out.migrated.set(sh.migrated, s.labels, s.total.Migrated(), &out.created)

	h := &out.hist
	h.desc, h.labels = sh.hist, s.labels
	h.count, h.sum = s.total.Count(), s.total.Seconds(sh.rate)
	m := &h.m
	m.SampleCount, m.SampleSum = &h.count, &h.sum
	m.CreatedTimestamp = &out.created

	// The buckets and their fields in four allocations, not three a bound;
	// the +Inf bucket too where it has an exemplar, which it carries.
	n := len(sh.bounds)
	if s.ex.infinite() {
		n++
	}
	m.Bucket = make([]*dto.Bucket, n)
	buckets := make([]dto.Bucket, n)
	cums := make([]uint64, n)
	ubs := append(make([]float64, 0, n), sh.bounds...)
	if n > len(sh.bounds) {
		ubs = append(ubs, math.Inf(1))
	}
	var cum uint64
	for i := range n {
		cum += s.classic[i]
		cums[i] = cum
		buckets[i].CumulativeCount, buckets[i].UpperBound = &cums[i], &ubs[i]
		m.Bucket[i] = &buckets[i]
	}
	if s.ex != nil {
		s.ex.set(m)
	}
	if sh.native {
		h.schema, h.zeroThreshold, h.zeroCount = s.schema, prometheus.DefNativeHistogramZeroThreshold, s.zero
		m.Schema, m.ZeroThreshold, m.ZeroCount = &h.schema, &h.zeroThreshold, &h.zeroCount
		m.PositiveSpan, m.PositiveDelta = s.window.encode()
	}
	return out
}

// encode returns w's buckets as Prometheus encodes them: spans of
// consecutive keys (a bucket's key is one above its index), and each
// bucket's count as its difference from the one before. Gaps of one or two
// empty buckets are filled within a span, fewer bytes than a new one. It
// returns a span of nothing where no bucket holds a span, which marks the
// histogram native, as client_golang marks its own.
func (w *window) encode() ([]*dto.BucketSpan, []int64) {
	var nspans, ndeltas int
	w.spans(func(lo, hi int) { nspans, ndeltas = nspans+1, ndeltas+hi-lo })
	store := make([]span, max(nspans, 1))
	spans := make([]*dto.BucketSpan, max(nspans, 1))
	for i := range store {
		store[i].s.Offset, store[i].s.Length = &store[i].offset, &store[i].length
		spans[i] = &store[i].s
	}
	if nspans == 0 {
		return spans, nil
	}
	deltas := make([]int64, 0, ndeltas)
	var next int32 // the key after the last span: a span's offset is from it
	var last int64 // the count of the bucket before
	i := 0
	w.spans(func(lo, hi int) {
		key := w.offset + 1 + int32(lo)
		store[i].offset, store[i].length = key-next, uint32(hi-lo)
		next, i = key+int32(hi-lo), i+1
		for _, n := range w.counts[lo:hi] {
			deltas = append(deltas, int64(n)-last)
			last = int64(n)
		}
	})
	return spans, deltas
}

// spans calls f with the bounds [lo, hi) in w.counts of each span that
// encode sends: from a count that is not 0 to the last one that is not 0
// before three that are, or the end.
func (w *window) spans(f func(lo, hi int)) {
	lo, last := -1, -1
	for i, n := range w.counts {
		if n == 0 {
			continue
		}
		if lo >= 0 && i-last > 3 {
			f(lo, last+1)
			lo = -1
		}
		if lo < 0 {
			lo = i
		}
		last = i
	}
	if lo >= 0 {
		f(lo, last+1)
	}
}

// A span is a BucketSpan with its fields' storage.
type span struct {
	s      dto.BucketSpan
	offset int32
	length uint32
}

// metrics are one scrape of a series, made whole before they are sent: its
// histogram and two counters, in one allocation.
type metrics struct {
	hist               histogram
	negative, migrated total
	created            timestamppb.Timestamp // the series', for all three
}

// send sends the histogram, then the counters of negative and migrated
// spans.
func (m *metrics) send(ch chan<- prometheus.Metric) {
	ch <- &m.hist
	ch <- &m.negative
	ch <- &m.migrated
}

// A histogram is one scrape's histogram, with the storage of its scalar
// fields.
type histogram struct {
	desc   *prometheus.Desc
	labels []*dto.LabelPair
	m      dto.Histogram

	count, zeroCount   uint64
	sum, zeroThreshold float64
	schema             int32
}

func (h *histogram) Desc() *prometheus.Desc { return h.desc }

func (h *histogram) Write(out *dto.Metric) error {
	out.Label = h.labels
	out.Histogram = &h.m
	return nil
}

// A total is one scrape's counter of the spans a histogram counts apart,
// with the storage of its value.
type total struct {
	desc   *prometheus.Desc
	labels []*dto.LabelPair
	m      dto.Counter
	value  float64
}

// set makes t the counter of n spans, created at the time created holds.
func (t *total) set(desc *prometheus.Desc, labels []*dto.LabelPair, n uint64, created *timestamppb.Timestamp) {
	t.desc, t.labels, t.value = desc, labels, float64(n)
	t.m.Value, t.m.CreatedTimestamp = &t.value, created
}

func (t *total) Desc() *prometheus.Desc { return t.desc }

func (t *total) Write(out *dto.Metric) error {
	out.Label = t.labels
	out.Counter = &t.m
	return nil
}
