// Package counterprom exports a [counter.Histogram] to Prometheus: a
// [Collector] that a program registers in one line,
//
//	prometheus.MustRegister(counterprom.New(h, c.Rate(), counterprom.Opts{Name: "request_duration_seconds"}))
//
// and that serves, on each scrape, the distribution of every span recorded
// since it was made, in seconds: a histogram with classic buckets at the
// bounds the program chose and, where it asks, native buckets, as
// client_golang's own Histogram serves them. Negative spans and spans that
// changed CPU, which a Histogram counts apart, are two counters beside it.
//
// # What a scrape holds
//
// Each scrape takes the spans recorded since the previous one with the
// source's Interval and adds them to a total the Collector keeps, so its
// counts never fall: the counts and sums of the Snapshot that every
// Interval merges into, as if it were kept. The count is
// [counter.Snapshot.Count] and the sum [export.SumSeconds], exact but for
// the conversion to a float64 of seconds. Each span is counted at its
// value of [export.Values] in that Snapshot, which is within
// [counter.QuantileError] of it, and that value's place among the bounds
// says which buckets count it: a span x counts toward the classic bound b
// where x ≤ b, but for spans within b·QuantileError of b, which may count on
// either side of it. In native buckets of schema s, a quantile read at any
// point of the right bucket is within 2^(2^−s)−1 of the Snapshot's:
// 2^(1/128)−1 at schema 7, under one part in a hundred, which a
// NativeHistogramBucketFactor of 1.01 picks. As the Snapshot's is within
// [counter.QuantileError] of the exact order statistic, the bucket's is
// within (1+QuantileError)·2^(2^−s)−1 of it. The schema is the factor's,
// or a lower one that [Opts.NativeHistogramMaxBucketNumber] forces.
//
// A scrape costs in proportion to the buckets of its Interval and to the
// ones it exports, not to the total's: the total keeps its first and last
// buckets aside ([export.Ends]) and the others' spans at their bounds and
// native buckets, and the Collector remembers where each bucket of a
// Snapshot lies among them ([export.Memo]: 464 bytes, and 1,024 more for
// each doubling of spans it placed, from the first scrape of one). A
// series keeps 8 bytes a bound and 16 bytes a native bucket, whatever the
// range of its spans. A Collector of a [counter.Histogram] takes the
// buckets of its writers' tallies as its Interval takes them
// ([export.Direct]), without their passing through a Snapshot.
//
// # Who calls Interval
//
// The Collector takes its spans through the Source's Interval, and each
// span goes to one Interval call. Where the program also calls the
// Histogram's Interval, for its own reports, the spans that call takes never
// reach the Collector: its counts still never fall, but they miss those
// spans. To read a Histogram both ways, or through two exporters, make an
// [export.Feed] of it and give each reader its own [export.Tap].
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
// exported as a Collector exports its one source, with a total and a
// native schema of its own. The overflow series, which takes the sets of
// values past the Family's limit, has the value [Overflow] for every label.
package counterprom

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Opts says how a Collector names and buckets its histogram. Namespace,
// Subsystem, Name, Help and ConstLabels are as in [prometheus.HistogramOpts];
// Name is required.
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
	// where none does: 1.1 picks schema 3, 1.01 schema 7. Every bucket that
	// holds a span is exported, but for NativeHistogramMaxBucketNumber;
	// spans of 0 ticks are in the zero bucket, whose threshold is
	// [prometheus.DefNativeHistogramZeroThreshold].
	NativeHistogramBucketFactor float64

	// NativeHistogramMaxBucketNumber bounds the native buckets that hold
	// spans, where it is above 0 and native buckets are asked for: each
	// scrape exports them at the largest schema, from the factor's down to
	// −4, at which at most this many hold spans, merging pairs of buckets
	// as client_golang's Histogram does when it halves its resolution. The
	// zero bucket is not one of them, and empty buckets the encoding puts
	// between two that hold spans are not either, as in client_golang. A
	// maximum below 5 may not be met: the spans of one Collector may fill
	// 5 buckets even at schema −4, which it then exports. Where it is 0,
	// the buckets are not bounded.
	//
	// Once lowered, the schema stays lowered for the life of the Collector,
	// as it does for a client_golang Histogram that never resets: each
	// scrape looks for the largest schema that fits from the previous
	// scrape's down, not from the factor's. As the counts never fall, the
	// schema changes only where the buckets outgrow it, and never rises.
	// Each step down squares the factor 2^(2^−s) by which the buckets of
	// schema s grow, and so widens the bound on a quantile's error that
	// "What a scrape holds" states.
	//
	// There is no NativeHistogramMinResetDuration: a Collector's counts are
	// those of every span since it was made, and it never resets them. Nor
	// is there a NativeHistogramMaxZeroThreshold: the zero bucket holds
	// exactly the spans of 0 ticks, and the shortest spans keep buckets of
	// their own.
	NativeHistogramMaxBucketNumber uint32
}

// Errors that New's Collector, and NewFamily's, report when registered.
var (
	ErrNoName    = errors.New("counterprom: Opts.Name is required")
	ErrBadBounds = errors.New("counterprom: a bucket bound is NaN or given twice")
	ErrBadFactor = errors.New("counterprom: NativeHistogramBucketFactor is NaN or infinite")
	// ErrNilSource is the refusal of a source that cannot be read: nil, a
	// nil pointer, or a zero Histogram or Tap ([export.CheckSource]), and
	// NewFamily's of a nil or zero Family. It is export.ErrNilSource, which
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
	scratch counter.Snapshot
	// direct takes the Intervals: the writers' tallies go to series.taken
	// as it takes them, without passing through scratch.
	direct *export.Direct
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

	// counts, pending and merged are the native buckets of one scrape, of
	// one Interval, and of a series' merged with an Interval's, kept for
	// their arrays: the collector's lock is held while they are used.
	counts, pending, merged []count
	// places is where the middle of each bucket a series handed on lies,
	// among the bounds and the native buckets ([export.Memo] of place).
	places export.Memo[place]
}

// A place is where a value lies: the index of the first bound at least as
// large, and its native bucket at the factor's schema.
type place struct{ classic, native int32 }

// place returns where the middle of b lies: for bucket 0, whose middle is
// 0 s, in native bucket 0, which no span between the ends is in (bucket 0's
// spans, where it holds any, are in the first end).
func (sh *shape) place(b counter.Bucket) place {
	sec := export.Seconds(export.Middle(b), sh.rate)
	pl := place{int32(sort.SearchFloat64s(sh.bounds, sec)), 0}
	if sh.native && sec > 0 {
		pl.native = sh.exp.Index(sec)
	}
	return pl
}

// A series is the state of one exported histogram from scrape to scrape:
// its labels and every span it has taken, as figures and as buckets of
// its own. Its collector's lock is held while [series.add] and
// [shape.metrics] read and write it.
//
// The buckets are kept as [export.Ends] keeps them: the first and the last
// bucket of the total aside, and the spans of every other bucket, once,
// at its middle, in classic (by bound) and in the native buckets of
// schema, so that a scrape costs in proportion to the buckets of its
// Interval and of its export, and not to those of the total.
type series struct {
	labels []*dto.LabelPair // sorted, the const labels among them
	total  export.Totals
	ends   export.Ends
	// classic[i] counts the spans between the ends above bounds[i-1] and
	// at most bounds[i]; nil before the first.
	classic []uint64
	// inner are the native buckets of the spans between the ends, at
	// schema, in increasing order of index.
	inner  []count
	schema int32 // of the native buckets; it never rises
}

// New returns a Collector of the spans of src, a *counter.Histogram or an
// [export.Tap], at the rate r, the Counter's that took them. It is the
// Collector's first scrape that first takes src's Interval: spans recorded
// before then are in it too, but for any an earlier Interval call took.
//
// New never fails: where the options are wrong (see the errors above, and
// [export.ErrZeroRate] for the zero TickRate; a Name that Prometheus does
// not allow is [prometheus.NewDesc]'s error), registering the Collector
// returns the error, as it does for client_golang's own collectors.
func New(src export.Source, r counter.TickRate, opts Opts) *Collector {
	c := &Collector{src: src}
	c.err = c.shape.init(r, opts, nil, export.CheckSource(src))
	c.series.init(&c.shape, nil)
	c.direct = export.NewDirect(func(tk *export.Taken) { c.series.taken(tk, &c.shape) })
	return c
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
	sh.places = export.NewMemo(sh.place)
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
	}
	sh.native = opts.NativeHistogramBucketFactor > 1
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
// or, where New's options were wrong, the error.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) { c.describe(c.err, ch) }

// describe sends the three descriptions, or err where it is not nil.
func (sh *shape) describe(err error, ch chan<- *prometheus.Desc) {
	if err != nil {
		ch <- prometheus.NewInvalidDesc(err)
		return
	}
	ch <- sh.hist
	ch <- sh.negative
	ch <- sh.migrated
}

// Collect takes the spans recorded since the previous Collect, adds them to
// the Collector's own, and sends the histogram of all of them and the two
// counters. It waits for a Collect that is running to finish.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	if c.err != nil {
		ch <- prometheus.NewInvalidMetric(prometheus.NewInvalidDesc(c.err), c.err)
		return
	}
	c.collect().send(ch)
}

// collect takes an Interval and builds the metrics of the total.
func (c *Collector) collect() *metrics {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.direct.Interval(c.src, &c.scratch)
	c.series.add(&c.scratch, &c.shape)
	return c.metrics(&c.series)
}

// add adds the spans of in, an Interval, to s: its figures, and the
// buckets that taken did not take already. sh's collector's lock is held.
func (s *series) add(in *counter.Snapshot, sh *shape) {
	s.total.Add(in)
	if in.Count() == 0 {
		return
	}
	pending, classic, shift := s.run(sh)
	for k, n := range s.ends.Between(in) {
		pl, ok := sh.places.Known(k)
		if !ok {
			pl = sh.places.Value(k)
		}
		classic[pl.classic] += n
		if sh.native {
			pending = append(pending, count{pl.native >> shift, n})
		}
	}
	s.addPending(pending, sh)
}

// taken adds the buckets of tk, a writer's tally that an Interval took
// ([export.Direct]), as add adds a Snapshot's: add then adds the Interval's
// figures and its other buckets. sh's collector's lock is held.
func (s *series) taken(tk *export.Taken, sh *shape) {
	pending, classic, shift := s.run(sh)
	for k, n := range s.ends.BetweenTaken(tk) {
		pl, ok := sh.places.Known(k)
		if !ok {
			pl = sh.places.Value(k)
		}
		classic[pl.classic] += n
		if sh.native {
			pending = append(pending, count{pl.native >> shift, n})
		}
	}
	s.addPending(pending, sh)
}

// run readies s for a run of buckets to place, each between the ends,
// at its middle: it returns sh's array of pending native counts, empty,
// s's classic counts, made at the first run, and by how much a native
// bucket's index at the factor's schema shifts to s's schema, which a run
// does not change. The loops that place a run's buckets are written out
// in add and in taken, not in a function they call, so that each bucket
// costs no call.
func (s *series) run(sh *shape) (pending []count, classic []uint64, shift int32) {
	if s.classic == nil {
		s.classic = make([]uint64, len(sh.bounds)+1)
	}
	return sh.pending[:0], s.classic, sh.exp.Scale() - s.schema
}

// addPending adds pending, the native counts of a run of buckets in
// increasing order of index but for the first end that a lower bucket
// took the place of, to s's, and lowers s's schema where they need it.
// pending's array is sh's, kept for the next.
func (s *series) addPending(pending []count, sh *shape) {
	if len(pending) > 0 {
		sortCounts(pending)
		if rest := addWithin(s.inner, pending); len(rest) > 0 {
			s.inner, sh.merged = mergeCounts(sh.merged, rest, s.inner), s.inner
		}
		// Buckets between the ends never empty, so where they alone need
		// a coarser schema, every later scrape does too.
		s.inner, s.schema = fit(s.inner, s.schema, s.schema, sh.maxBuckets)
	}
	sh.pending = pending[:0]
}

// sortCounts orders counts by index, in place. Those of one Interval come
// in order but for at most one, the first end that a lower bucket took the
// place of (Take hands it on at that bucket, which is the Interval's
// first): an insertion sort orders them in a step each and that one's
// moves, where a general sort would compare each count about seven times.
func sortCounts(counts []count) {
	for i := 1; i < len(counts); i++ {
		k := counts[i]
		j := i
		for ; j > 0 && counts[j-1].index > k.index; j-- {
			counts[j] = counts[j-1]
		}
		counts[j] = k
	}
}

// addWithin adds each count of a to the count of its index in b, where b
// has one at the place its index is past b's first (as it has where b's
// indexes run without a gap up to there), and returns the others, in a's
// storage and order. Both are in increasing order of index (a's may
// repeat). Once a series has taken spans over its range, most of an
// Interval's counts fall in buckets it has: they are added so, a step
// each, and only the rest are merged.
func addWithin(b, a []count) (rest []count) {
	rest = a[:0]
	if len(b) == 0 {
		return a
	}
	first := b[0].index
	for _, k := range a {
		if j := int(k.index) - int(first); j >= 0 && j < len(b) && b[j].index == k.index {
			b[j].n += k.n
			continue
		}
		rest = append(rest, k) // rest is behind k in a's storage
	}
	return rest
}

// mergeCounts appends to dst, emptied, the counts of a and of b, each in
// increasing order of index (a's indexes may repeat), in increasing order
// of index, one count an index, and returns it.
func mergeCounts(dst, a, b []count) []count {
	dst = dst[:0]
	i := 0
	for _, k := range b {
		for ; i < len(a) && a[i].index < k.index; i++ {
			dst = appendCount(dst, a[i])
		}
		dst = appendCount(dst, k)
	}
	for ; i < len(a); i++ {
		dst = appendCount(dst, a[i])
	}
	return dst
}

// metrics builds the histogram of s's total and its two counters, and
// lowers s's schema where NativeHistogramMaxBucketNumber asks.
func (sh *shape) metrics(s *series) *metrics {
	out := &metrics{}
	out.created.Seconds, out.created.Nanos = sh.created.Unix(), int32(sh.created.Nanosecond())
	out.negative.set(sh.negative, s.labels, s.total.Negative(), &out.created)
	out.migrated.set(sh.migrated, s.labels, s.total.Migrated(), &out.created)

	h := &out.hist
	h.desc, h.labels = sh.hist, s.labels
	h.count, h.sum = s.total.Count(), s.total.Seconds(sh.rate)
	m := &h.m
	m.SampleCount, m.SampleSum = &h.count, &h.sum
	m.CreatedTimestamp = &out.created

	// in[i] counts the spans above bounds[i-1] and at most bounds[i]: the
	// spans between the ends, and the ends' values.
	in := make([]uint64, len(sh.bounds)+1)
	copy(in, s.classic)
	var b native
	var ends [6]count // the ends' values: three each at most
	e := 0
	for v, n := range s.ends.Values(s.total.Min(), s.total.Max()) {
		sec := export.Seconds(v, sh.rate)
		in[sort.SearchFloat64s(sh.bounds, sec)] += n
		switch {
		case !sh.native:
		case v == 0:
			b.zero += n
		default:
			ends[e] = count{sh.exp.Index(sec), n}
			e++
		}
	}
	if sh.native {
		// The ends' values go among the buckets between them, at schema.
		for i := range ends[:e] {
			ends[i].index >>= sh.exp.Scale() - s.schema
		}
		counts, schema := fit(mergeCounts(sh.counts, ends[:e], s.inner), s.schema, s.schema, sh.maxBuckets)
		if schema < s.schema {
			s.inner = coarsen(s.inner, s.schema-schema)
			s.schema = schema
		}
		b.reserve(counts)
		for _, k := range counts {
			// Prometheus's key is one above the bucket's index.
			b.add(int(k.index)+1, k.n)
		}
		sh.counts = counts[:0]
	}
	// The buckets and their fields in four allocations, not three a bound.
	m.Bucket = make([]*dto.Bucket, len(sh.bounds))
	buckets := make([]dto.Bucket, len(sh.bounds))
	cums := make([]uint64, len(sh.bounds))
	ubs := slices.Clone(sh.bounds)
	var cum uint64
	for i := range sh.bounds {
		cum += in[i]
		cums[i] = cum
		buckets[i].CumulativeCount, buckets[i].UpperBound = &cums[i], &ubs[i]
		m.Bucket[i] = &buckets[i]
	}
	if sh.native {
		h.schema, h.zeroThreshold, h.zeroCount = s.schema, prometheus.DefNativeHistogramZeroThreshold, b.zero
		m.Schema, m.ZeroThreshold, m.ZeroCount = &h.schema, &h.zeroThreshold, &h.zeroCount
		m.PositiveSpan, m.PositiveDelta = b.spans, b.deltas
		if len(m.PositiveSpan) == 0 {
			// A span of nothing marks the histogram native where it has
			// no bucket, as client_golang marks its own.
			m.PositiveSpan = []*dto.BucketSpan{{Offset: proto.Int32(0), Length: proto.Uint32(0)}}
		}
	}
	return out
}

// A count is the spans of one native bucket, by the bucket's index at some
// schema ([export.Exponential.Index]).
type count struct {
	index int32
	n     uint64
}

// appendCount appends k to counts, ordered by index, where no count of its
// index is there already, and otherwise adds its spans to that one's.
func appendCount(counts []count, k count) []count {
	if last := len(counts) - 1; last >= 0 && counts[last].index == k.index {
		counts[last].n += k.n
		return counts
	}
	return append(counts, k)
}

// fit returns the native buckets to export and their schema: counts, the
// buckets of schema from in increasing order of index, merged into those of
// the largest schema s ≤ at that has at most most of them, or of −4 where
// none has; of at where most is 0. It reuses counts' array.
//
// Bucket i of schema s holds buckets 2i and 2i+1 of schema s+1, as
// client_golang merges them when it halves its resolution: the same
// bucket, in Prometheus's keys k = i+1, as its ⌈k/2⌉.
func fit(counts []count, from, at int32, most int) ([]count, int32) {
	counts = coarsen(counts, from-at)
	for most > 0 && len(counts) > most && at > -4 {
		counts = coarsen(counts, 1)
		at--
	}
	return counts, at
}

// coarsen merges counts, in increasing order of index, into the buckets d
// schemas below theirs: bucket i >> d takes bucket i. It reuses counts'
// array.
func coarsen(counts []count, d int32) []count {
	if d == 0 {
		return counts
	}
	out := counts[:0]
	for _, k := range counts {
		k.index >>= d
		out = appendCount(out, k)
	}
	return out
}

// native encodes native buckets as Prometheus does: spans of consecutive
// keys, and each bucket's count as its difference from the one before.
type native struct {
	zero   uint64
	spans  []*dto.BucketSpan
	deltas []int64
	key    int   // the key of the last bucket
	count  int64 // and its count
	slab   []span
}

// A span is a BucketSpan with its fields' storage, allocated in slabs.
type span struct {
	s      dto.BucketSpan
	offset int32
	length uint32
}

// reserve makes room for the spans and deltas of counts, in increasing
// order of index, so that adding them (as add does, a key each) allocates
// each slice once and no larger than it needs: most scrapes have a span or
// a few, and a fixed slab of spans and room for deltas, zeroed and
// scanned, cost more than the adds.
func (b *native) reserve(counts []count) {
	if len(counts) == 0 {
		return
	}
	spans, deltas := 1, len(counts)
	for i := 1; i < len(counts); i++ {
		switch gap := int(counts[i].index-counts[i-1].index) - 1; {
		case gap > 2:
			spans++
		case gap > 0:
			deltas += gap
		}
	}
	b.slab = make([]span, 0, spans)
	b.deltas = make([]int64, 0, deltas)
	b.spans = make([]*dto.BucketSpan, 0, spans)
}

// newSpan starts a span at the offset.
func (b *native) newSpan(offset int) {
	if len(b.slab) == cap(b.slab) {
		b.slab = make([]span, 0, 32)
	}
	b.slab = b.slab[:len(b.slab)+1] // not append: a BucketSpan is not copied
	sp := &b.slab[len(b.slab)-1]
	sp.offset = int32(offset)
	sp.s.Offset, sp.s.Length = &sp.offset, &sp.length
	b.spans = append(b.spans, &sp.s)
	if b.deltas == nil {
		b.deltas = make([]int64, 0, 256)
	}
}

// add counts n spans in the bucket of the key, which is at least that of the
// bucket before.
func (b *native) add(key int, n uint64) {
	if len(b.spans) > 0 && key == b.key {
		b.count += int64(n)
		b.deltas[len(b.deltas)-1] += int64(n)
		return
	}
	switch gap := key - b.key - 1; {
	case len(b.spans) == 0:
		b.newSpan(key)
	case gap > 2:
		// A new span, whose offset is the gap after the last one.
		b.newSpan(gap)
	default:
		// Fill a gap of one or two empty buckets within the span: fewer
		// bytes than a new span.
		for range gap {
			b.deltas = append(b.deltas, -b.count)
			b.count = 0
			*b.spans[len(b.spans)-1].Length++
		}
	}
	b.deltas = append(b.deltas, int64(n)-b.count)
	b.count = int64(n)
	b.key = key
	*b.spans[len(b.spans)-1].Length++
}

// metrics are one scrape of a series, made whole before they are sent: its
// histogram and two counters, in one allocation.
type metrics struct {
	hist               histogram
	negative, migrated total
	created            timestamppb.Timestamp // the collector's, for all three
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
