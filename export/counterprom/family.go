package counterprom

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/model"
	"github.com/tickstamp/counter"
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
// [counter.Family], as a client_golang HistogramVec is of its histograms:
// one metric family named by [Opts], whose variable labels are the Family's
// label names, with a histogram for each series, and the two counters of
// negative and migrated spans with the same labels. Make one with
// [NewFamily].
//
// Each series is exported as a [Collector] exports its one source, with a
// native schema and exemplars of its own and the FamilyCollector's
// creation time as its created timestamp. The Family's overflow series is
// exported with every label [Overflow]; so are the spans of a series of
// the Family's own whose every value is Overflow. Every other series is
// exported with its own values, which the Family made valid UTF-8
// ([counter.Family.With]), so that no series makes a scrape of the
// registry fail.
//
// A Collect takes one [counter.Family.Interval] of all the series and sends
// their metrics, holding the FamilyCollector's lock as a HistogramVec holds
// its own; a series made after it starts is exported from the next. As for
// a Collector, each span goes to one Interval call.
type FamilyCollector struct {
	shape
	f      *counter.Family
	labels int   // how many label names f has
	err    error // why the FamilyCollector collects nothing

	mu sync.Mutex // held by one Collect at a time, as it sends too
	// members are the series of the Family's members, in the order that
	// Interval visits them, which is the order they were made: the i-th
	// set of values that a Collect's Interval visits is members[i]. A
	// member whose labels Prometheus would take for the overflow series'
	// is overflow itself.
	members []*series
	// overflow is the series exported with the labels Overflow, nil until
	// the Family's overflow series or a member that folds into it is
	// visited.
	overflow *series
	next     int                                        // the index in members of the next set Interval visits
	take     func(values []string, s *counter.Snapshot) // c.merge, made once
	current  take                                       // the running Collect's
}

// NewFamily returns a FamilyCollector of the series of f, each span at the
// rate r, the Counter's that took them, with f's label names as its
// variable labels.
//
// NewFamily never fails: where the options are wrong, as for [New], where f
// is nil or the zero Family ([ErrNilSource]), where a label name is one a
// histogram cannot have ([ErrBadLabel]), or where another exporter reads f
// ([export.ErrSecondReader]), registering the FamilyCollector returns the
// error. From NewFamily on, the FamilyCollector is f's reader until it is
// garbage-collected. A series of f read on its own besides, by its
// Histogram's Interval or another exporter, is not refused, but the two
// readers split its spans: read a Family's series through the Family
// alone.
func NewFamily(f *counter.Family, r counter.TickRate, opts Opts) *FamilyCollector {
	c := &FamilyCollector{f: f}
	var labels []string
	if f != nil {
		labels = f.Labels()
	}
	var source error
	if len(labels) == 0 {
		source = ErrNilSource // a Family made by NewFamily has a label
	}
	c.labels = len(labels)
	c.err = c.shape.init(r, opts, labels, source)
	if c.err == nil {
		c.err = claim(opts, readers.Family(f, c, reader("FamilyCollector", opts)))
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
// and two counters of each series: the Family's in the order they were
// made, then the overflow series. It waits for a Collect that is running
// to finish. Where NewFamily's arguments were wrong or c is nil or the zero
// FamilyCollector, it sends the error as an invalid metric instead. It
// panics where ch is nil.
func (c *FamilyCollector) Collect(ch chan<- prometheus.Metric) {
	mustHaveChannel(ch, "FamilyCollector.Collect")
	if err := c.unusable("Collect"); err != nil {
		ch <- prometheus.NewInvalidMetric(prometheus.NewInvalidDesc(err), err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.next = 0
	c.current = take{n: c.current.n + 1}
	c.f.Interval(c.take)
	for _, s := range c.members {
		if s != c.overflow {
			c.metrics(s).send(ch)
		}
	}
	if c.overflow != nil {
		c.metrics(c.overflow).send(ch)
	}
}

// merge adds the spans of one series' Interval, s, to its series' total:
// the overflow series' where values is nil, and otherwise the next
// member's, made where it is new. c.mu is held.
func (c *FamilyCollector) merge(values []string, s *counter.Snapshot) {
	var to *series
	switch {
	case values == nil:
		to = c.overflowSeries()
	case c.next < len(c.members):
		to = c.members[c.next]
		c.next++
	default:
		to = c.newMember(values)
		c.members = append(c.members, to)
		c.next++
	}
	to.add(s, &c.shape, &c.current)
}

// newMember returns the series of a member of the Family that c has not
// seen before, by its values: a new series, or the overflow series where
// the member's labels would be the overflow series'. The values are UTF-8,
// as a Family's are.
func (c *FamilyCollector) newMember(values []string) *series {
	if !slices.ContainsFunc(values, func(v string) bool { return v != Overflow }) {
		return c.overflowSeries()
	}
	s := new(series)
	s.init(&c.shape, values) // the values are strings, which MakeLabelPairs keeps
	return s
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
