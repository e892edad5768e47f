package counterprom

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/model"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/internal/byvalues"
	"github.com/tickstamp/counter/export/internal/readers"
)

// Overflow is the value of every label of the overflow series that a
// [FamilyCollector] exports, Prometheus's analogue of the OpenTelemetry
// SDK's otel.metric.overflow="true": an extra label would make the overflow
// series' label names differ from the others', which one metric family
// cannot hold, so the marker is a value instead. It begins with "__", as
// the names Prometheus reserves do.
const Overflow = "__overflow__"

// ErrBadLabel is wrapped by a FamilyCollector's refusal, when it is
// registered, of a Family's label name that its histogram cannot have: "le",
// the label of a classic bucket's bound; one that begins with "__", which
// Prometheus reserves; one that is not UTF-8; or one of Opts.ConstLabels.
// "quantile" is a summary's label, not a histogram's, and is allowed, as
// client_golang allows it.
var ErrBadLabel = errors.New("counterprom: a family's label name is not allowed")

// A FamilyCollector is a [prometheus.Collector] of the series of one
// [counter.Family], as a client_golang HistogramVec is of its histograms,
// or of any [export.FamilySource], such as an [export.FamilyTap]: one
// metric family named by [Opts], whose variable labels are the Family's
// label names, with a histogram for each series, and the two counters of
// negative and migrated spans with the same labels. Make one with
// [NewFamily].
//
// Each series is exported as a [Collector] exports its one source, with a
// native schema and exemplars of its own. The Family's overflow series is
// exported with every label [Overflow]; so are the spans of a series of
// the Family's own whose every value is Overflow. Every other series is
// exported with its own values, which the Family made valid UTF-8
// ([counter.Family.With]), so that no series makes a scrape of the
// registry fail.
//
// A Collect takes one Interval of the source, of all the series, and sends
// their metrics, holding the FamilyCollector's lock as a HistogramVec holds
// its own; a series made after it starts is exported from the next. As for
// a Collector, each span goes to one Interval call. A series that an
// Interval does not visit, one the Family forgot
// ([counter.Family.ForgetIdle]), is dropped with its counts, as
// HistogramVec's DeleteLabelValues drops one: where its values come back,
// their series starts again from zero, which Prometheus reads as a counter
// reset. A series' created timestamp is the FamilyCollector's creation
// time where the first Collect saw it, and otherwise the time the Collect
// before the one that saw it first began.
type FamilyCollector struct {
	shape
	f      export.FamilySource
	labels int   // how many label names f has
	err    error // why the FamilyCollector collects nothing

	mu sync.Mutex // held by one Collect at a time, as it sends too
	// members are the series of the Family's members, by their values,
	// but those whose labels Prometheus would take for the overflow
	// series'.
	members byvalues.Table[*series]
	// visited are the members that the running Collect's Interval
	// visited, in that order.
	visited []*series
	// overflow is the series exported with the labels Overflow, nil until
	// the Family's overflow series or a member that folds into it is
	// visited.
	overflow *series
	last     time.Time                                  // when the previous Collect began; zero before the first
	take     func(values []string, s *counter.Snapshot) // c.merge, made once
	current  take                                       // the running Collect's
}

// NewFamily returns a FamilyCollector of the series of f, a
// *counter.Family or an [export.FamilyTap], each span at the rate r, the
// Counter's that took them, with f's label names as its variable labels.
//
// NewFamily never fails: where the options are wrong, as for [New], where f
// is nil or a zero Family or FamilyTap ([ErrNilSource]), where a label name
// is one a histogram cannot have ([ErrBadLabel]), or where another exporter
// or a FamilyFeed reads f ([export.ErrSecondReader]), registering the
// FamilyCollector returns the error. From NewFamily on, the
// FamilyCollector is f's reader until it is garbage-collected (or, for a
// FamilyTap, the FamilyTap's Close). A series of f read on its own
// besides, by its Histogram's Interval or another exporter, is not
// refused, but the two readers split its spans: read a Family's series
// through the Family alone.
func NewFamily(f export.FamilySource, r counter.TickRate, opts Opts) *FamilyCollector {
	c := &FamilyCollector{f: f}
	var labels []string
	source := export.CheckFamilySource(f)
	if source == nil {
		labels = f.Labels()
		if len(labels) == 0 {
			source = ErrNilSource // a Family has a label
		}
	}
	c.labels = len(labels)
	c.err = c.shape.init(r, opts, labels, source)
	if c.err == nil {
		c.err = claim(opts, readers.FamilySource[export.FamilyTap](f, c, reader("FamilyCollector", opts)))
	}
	c.take = c.merge
	return c
}

// checkLabels returns the refusal of the first of labels that a histogram
// with the const labels cannot have, nil where none is.
func checkLabels(labels []string, consts prometheus.Labels) error {
	for _, l := range labels {
		var why string
		switch _, isConst := consts[l]; {
		case l == "le":
			why = "is the label of a classic bucket's bound"
		case strings.HasPrefix(l, "__"):
			why = "begins with __, which Prometheus reserves"
		case !model.UTF8Validation.IsValidLabelName(l):
			why = "is not UTF-8"
		case isConst:
			why = "is one of Opts.ConstLabels too"
		default:
			continue
		}
		return fmt.Errorf("%w: %q %s", ErrBadLabel, l, why)
	}
	return nil
}

// Describe sends the descriptions of the histogram and of its two
// counters, each with the Family's label names as variable labels, or,
// where NewFamily's arguments were wrong or c is nil or the zero
// FamilyCollector, the error, which Register returns. It panics where ch is
// nil.
func (c *FamilyCollector) Describe(ch chan<- *prometheus.Desc) {
	mustHaveChannel(ch, "FamilyCollector.Describe")
	if err := c.unusable("Describe"); err != nil {
		ch <- prometheus.NewInvalidDesc(err)
		return
	}
	c.describe(ch)
}

// unusable returns why c collects nothing, nil where it collects, as
// Collector's does: NewFamily's refusal, or c is nil or the zero
// FamilyCollector.
func (c *FamilyCollector) unusable(call string) error {
	switch {
	case c == nil:
		return errors.New("counterprom: FamilyCollector." + call + ": a nil *FamilyCollector; make one with NewFamily")
	case c.err != nil:
		return c.err
	case c.f == nil:
		return errors.New("counterprom: FamilyCollector." + call + ": the zero FamilyCollector has no Family; make one with NewFamily")
	}
	return nil
}

// Collect takes the spans recorded in each series of the Family since the
// previous Collect, adds them to the series' own, and sends the histogram
// and two counters of each series: the Family's in the order the Interval
// visits them, then the overflow series. It waits for a Collect that is
// running to finish. Where NewFamily's arguments were wrong or c is nil or
// the zero FamilyCollector, it sends the error as an invalid metric
// instead. It panics where ch is nil.
func (c *FamilyCollector) Collect(ch chan<- prometheus.Metric) {
	mustHaveChannel(ch, "FamilyCollector.Collect")
	if err := c.unusable("Collect"); err != nil {
		ch <- prometheus.NewInvalidMetric(prometheus.NewInvalidDesc(err), err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	began := time.Now()
	c.current = take{n: c.current.n + 1}
	c.members.Begin()
	c.f.Interval(c.take)
	c.members.Sweep(nil) // the series the Family forgot
	c.last = began
	for _, s := range c.visited {
		c.metrics(s).send(ch)
	}
	clear(c.visited)
	c.visited = c.visited[:0]
	if c.overflow != nil {
		c.metrics(c.overflow).send(ch)
	}
}

// merge adds the spans of one series' Interval, s, to its series' total:
// the overflow series' where values is nil or every value is Overflow,
// and otherwise the member's of values, made where it is new. c.mu is
// held.
func (c *FamilyCollector) merge(values []string, s *counter.Snapshot) {
	var to *series
	switch {
	case values == nil, !slices.ContainsFunc(values, func(v string) bool { return v != Overflow }):
		to = c.overflowSeries()
	default:
		var ok bool
		if to, ok = c.members.Find(values); !ok {
			to = new(series)
			to.init(&c.shape, values) // the values are strings, which MakeLabelPairs keeps
			to.created = c.last       // zero at the first Collect: the FamilyCollector's
			c.members.Add(values, to)
		}
		c.visited = append(c.visited, to)
	}
	to.add(s, &c.shape, &c.current)
}

// overflowSeries returns the series exported with the labels Overflow,
// made on the first call. c.mu is held.
func (c *FamilyCollector) overflowSeries() *series {
	if c.overflow == nil {
		values := make([]string, c.labels)
		for i := range values {
			values[i] = Overflow
		}
		c.overflow = new(series)
		c.overflow.init(&c.shape, values)
	}
	return c.overflow
}
