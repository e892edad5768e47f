package counterotel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/internal/readers"
)

// The defaults of [WithMaxSize] and [WithMaxScale]; the package doc says
// why these.
const (
	// DefaultMaxSize is the most positive buckets of a data point where
	// WithMaxSize does not say: 160, as in the OpenTelemetry SDK's
	// exponential histograms.
	DefaultMaxSize = 160

	// DefaultMaxScale is the finest scale of a data point where
	// WithMaxScale does not say: 7, 128 buckets a doubling, as a
	// Snapshot's.
	DefaultMaxScale = 7
)

// The range of WithMaxScale: the SDK's least scale, and the finest that
// [export.Exponential] numbers.
const (
	minScale = -10
	maxScale = 8
)

// ScopeName is the name of the instrumentation scope of every metric a
// Producer returns.
const ScopeName = "github.com/tickstamp/counter/export/counterotel"

// The suffixes of the names of the sums beside each histogram.
const (
	negativeSuffix = ".negative"
	migratedSuffix = ".migrated"
)

// maxNameLen is the longest name Register takes: OpenTelemetry's instrument
// names are at most 255 characters, and the sums' names add a suffix.
const maxNameLen = 255 - len(negativeSuffix)

// The errors of [Producer.Register], besides [export.ErrZeroRate], and of
// [Producer.Produce], besides the context's. Each error Register returns
// wraps one of them, in a message that names what was refused.
var (
	// ErrInvalidOption is the refusal of an option of [NewProducer] outside
	// its range: [WithMaxSize] below 2, [WithMaxScale] outside −10 to 8,
	// [WithAnchor] of the zero Anchor.
	// NewProducer does not fail: every Register and Produce of its Producer
	// returns an error wrapping ErrInvalidOption, which names the first
	// wrong option, so that a reader's Collect reports it too.
	ErrInvalidOption = errors.New("counterotel: invalid option")

	// ErrInvalidName is the refusal of a name that is not an OpenTelemetry
	// instrument name of at most 246 characters: a letter, then letters,
	// digits and the characters _ . - /. (The limit leaves room for the
	// suffixes of the sums beside the histogram in OpenTelemetry's 255.)
	ErrInvalidName = errors.New("counterotel: invalid metric name")

	// ErrInvalidAttribute is the refusal of an attribute with an empty key,
	// or with a key or string value that is not UTF-8, which OTLP cannot
	// carry.
	ErrInvalidAttribute = errors.New("counterotel: invalid attribute")

	// ErrNilSource is the refusal of a Source that cannot be read: nil, a
	// nil of any kind, or a zero Histogram or Tap ([export.CheckSource]),
	// and RegisterFamily's of a nil or zero Family or FamilyTap
	// ([export.CheckFamilySource]). It is export.ErrNilSource, which
	// counterprom refuses too.
	ErrNilSource = export.ErrNilSource

	// ErrDuplicate is the refusal of a name and set of attributes already
	// registered, of a registration whose points could have the name and
	// attributes of a registered Family's points, or the reverse (the
	// package doc's section on families says which), or of a name that one
	// of the metrics of another registration already has: name+".negative"
	// and name+".migrated" are taken by each registration of name.
	ErrDuplicate = errors.New("counterotel: already registered")
)

// A Producer is an OpenTelemetry metric.Producer of the spans of
// [counter.Histogram]s, or of any [export.Source]: register it on one
// reader with metric.WithProducer, and each Source with [Producer.Register].
// The package doc says what it produces. Make one with [NewProducer]; the
// zero Producer is one too, with no option.
//
// Its methods may be called from any goroutine; they take turns.
type Producer struct {
	temporality       metric.TemporalitySelector
	maxSize, maxScale int32           // as the options set them; 0 and 0 in the zero Producer, for the defaults
	anchor            *counter.Anchor // WithAnchor's; nil for none
	err               error           // the first wrong option

	mu           sync.Mutex
	groups       []*group          // in the order of their first Register
	byName       map[string]*group // the histograms' names
	registered   map[key]bool
	descriptions map[string]string
	layout       layout
	scratch      counter.Snapshot // the Interval of one registration
	delta        expBuckets       // the buckets of one Interval, for a delta point
}

// A group is the registrations of one name: one metric of each kind.
type group struct {
	name               string
	negative, migrated string // the sums' names
	negDoc, migDoc     string // and descriptions
	regs               []*registration
}

// key tells registrations apart.
type key struct {
	name  string
	attrs attribute.Distinct
}

// A registration is one Source, exported as one data point of each of its
// group's metrics, or one Family, exported as a data point of each for
// each of its series.
type registration struct {
	rate   counter.TickRate
	places *places       // of rate, at the Producer's layout
	src    export.Source // Register's; nil for a Family
	one    *series       // src's points
	fam    *familyReg    // RegisterFamily's; nil for a Source
}

// An Option changes how [NewProducer] makes a Producer.
type Option func(*Producer)

// WithTemporalitySelector makes the Producer report each metric in the
// temporality sel returns for its kind of instrument: give it the selector
// the reader was given, or the exporter's Temporality method
// (WithTemporalitySelector(exp.Temporality)). The SDK does not pass the
// reader's on to a Producer. A temporality other than
// metricdata.DeltaTemporality is read as cumulative, and a nil sel as
// metric.DefaultTemporalitySelector, the default: cumulative.
func WithTemporalitySelector(sel metric.TemporalitySelector) Option {
	return func(p *Producer) {
		if sel != nil {
			p.temporality = sel
		}
	}
}

// WithMaxSize makes each data point hold at most n positive buckets, n ≥ 2,
// lowering its scale from the maximum scale ([WithMaxScale]) until they fit,
// as the package doc says. The default is [DefaultMaxSize], 160, the
// OpenTelemetry SDK's. Where n is below 2, Register and Produce return an
// error wrapping [ErrInvalidOption]: one bucket cannot hold spans on both
// sides of 1 s at any scale.
func WithMaxSize(n int32) Option {
	return func(p *Producer) {
		if n < 2 {
			p.fail(fmt.Errorf("%w: WithMaxSize(%d) is below 2: no bucket of any scale holds spans both below and above 1 s", ErrInvalidOption, n))
			return
		}
		p.maxSize = n
	}
}

// WithMaxScale makes s, from −10 to 8, the finest scale of each data point,
// which a point takes where its buckets at s are at most the maximum size
// ([WithMaxSize]), and otherwise the finest coarser scale at which they are.
// The default is [DefaultMaxScale], 7. −10 is the SDK's least scale; 8 is
// the finest that [export.Exponential] numbers, and a Snapshot's own
// buckets are 128 a doubling, scale 7's (the package doc says what a
// finer one gains). Where s is outside −10 to 8, Register and Produce
// return an error wrapping [ErrInvalidOption].
func WithMaxScale(s int32) Option {
	return func(p *Producer) {
		if s < minScale || s > maxScale {
			p.fail(fmt.Errorf("%w: WithMaxScale(%d) is outside %d to %d", ErrInvalidOption, s, minScale, maxScale))
			return
		}
		p.maxScale = s
	}
}

// WithAnchor makes the Producer export the time of an exemplar whose At is
// not 0 as a converts it ([counter.Anchor.Time]); give it an Anchor of the
// clock whose readings the exemplars' At holds. Without it, or with a nil
// a, and for an At of 0, an exemplar's time is that of the Produce that
// took it. Where a is the zero Anchor, which NewAnchor did not make,
// Register and Produce return an error wrapping [ErrInvalidOption].
func WithAnchor(a *counter.Anchor) Option {
	return func(p *Producer) {
		// A zero Anchor's first field, read, is nil, a made one's set
		// before NewAnchor returns and never changed: IsZero stops at it,
		// so a Run that re-anchors a meanwhile is no race
		// (TestExemplarAnchor checks under -race).
		if a != nil && reflect.ValueOf(a).Elem().IsZero() {
			p.fail(fmt.Errorf("%w: WithAnchor of the zero Anchor, which NewAnchor did not make", ErrInvalidOption))
			return
		}
		p.anchor = a
	}
}

// errNilProducer returns the refusal of the method call on a nil
// *Producer.
func errNilProducer(call string) error {
	return errors.New("counterotel: Producer." + call + ": a nil *Producer; make one with NewProducer")
}

// fail keeps err where it is the first wrong option.
func (p *Producer) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// NewProducer returns a Producer with no registrations. It does not fail:
// where an option is wrong, the Producer's Register and Produce return the
// error.
func NewProducer(opts ...Option) *Producer {
	p := &Producer{
		temporality: metric.DefaultTemporalitySelector,
		maxSize:     DefaultMaxSize,
		maxScale:    DefaultMaxScale,
	}
	for _, o := range opts {
		if o != nil {
			o(p)
		}
	}
	return p
}

// init makes what a zero Producer lacks. p.mu is held.
func (p *Producer) init() {
	if p.byName != nil {
		return
	}
	p.byName = make(map[string]*group)
	p.registered = make(map[key]bool)
	p.descriptions = make(map[string]string)
	if p.temporality == nil {
		p.temporality = metric.DefaultTemporalitySelector
	}
	if p.maxSize == 0 { // the zero Producer
		p.maxSize, p.maxScale = DefaultMaxSize, DefaultMaxScale
	}
	p.layout = newLayout(p.maxSize, p.maxScale)
}

// Register adds src to what each Produce exports: as a data point of the
// histogram name, with the given attributes, in seconds at rate, and of
// the sums name+".negative" and name+".migrated" once they count one of
// its spans. The point's StartTime for cumulative temporality is the
// time of this call.
//
// Several registrations may share a name, with different sets of
// attributes (their order does not matter, and of two attributes with one
// key the last is kept): they are data points of one metric. Register
// refuses, with an error wrapping the sentinel named: every registration
// of a Producer whose option was wrong ([ErrInvalidOption]), a name that is not an
// instrument name or is longer than 246 characters ([ErrInvalidName]), an
// attribute with an empty key, or a key or string value that is not UTF-8
// ([ErrInvalidAttribute]), a src that cannot
// be read: nil, a nil of any kind, a zero Histogram or Tap ([ErrNilSource]), the zero rate
// ([export.ErrZeroRate]), a name and set of attributes registered
// before, or that a point of a registered Family could have (a
// [*FamilyError]), or a name another registration's sums have
// ([ErrDuplicate]), and a src, Histogram or Tap, that a Feed, another
// exporter or another registration reads ([export.ErrSecondReader]).
//
// From Register on, the registration is src's reader until the Producer
// is garbage-collected, or for a Tap until its Close; only the Producer
// should call src's Interval (see the package doc).
func (p *Producer) Register(name string, src export.Source, rate counter.TickRate, attrs ...attribute.KeyValue) error {
	if p == nil {
		return errNilProducer("Register")
	}
	if p.err != nil {
		return p.err
	}
	if err := checkName(name); err != nil {
		return err
	}
	for _, a := range attrs {
		if why := badAttribute(a); why != "" {
			return fmt.Errorf("%w: %q has an attribute %s", ErrInvalidAttribute, name, why)
		}
	}
	if err := export.CheckSource(src); err != nil {
		return fmt.Errorf("counterotel: %q: %w", name, err)
	}
	if rate.Hertz() == 0 {
		return fmt.Errorf("counterotel: %q: %w", name, export.ErrZeroRate)
	}
	set := attribute.NewSet(slices.Clone(attrs)...) // NewSet sorts its argument
	k := key{name, set.Equivalent()}

	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	if p.registered[k] {
		return fmt.Errorf("%w: %q with attributes {%s}", ErrDuplicate, name, set.Encoded(attribute.DefaultEncoder()))
	}
	if err := p.clash(name); err != nil {
		return err
	}
	if g := p.byName[name]; g != nil {
		for _, r := range g.regs {
			if r.fam == nil {
				continue
			}
			if err := overlap(name, []pattern{single(set)}, r.fam); err != nil {
				return err
			}
		}
	}
	if err := readers.Source[export.Tap](src, p, readerName(name)); err != nil {
		return fmt.Errorf("counterotel: %q: %w", name, err)
	}
	g := p.group(name)
	g.regs = append(g.regs, &registration{src: src, rate: rate, places: newPlaces(&p.layout, rate), one: p.newSeries(set, time.Now())})
	p.registered[k] = true
	return nil
}

// badAttribute returns why a is an attribute that no point may have, "" where
// it may: an empty key, or a key or string value that is not UTF-8, which
// would make every OTLP export of the batch fail.
func badAttribute(a attribute.KeyValue) string {
	switch {
	case !a.Valid():
		return "with an empty key"
	case !utf8.ValidString(string(a.Key)):
		return fmt.Sprintf("key %q that is not UTF-8", a.Key)
	case a.Value.Type() == attribute.STRING && !utf8.ValidString(a.Value.AsString()):
		return fmt.Sprintf("%q whose value is not UTF-8", a.Key)
	case a.Value.Type() == attribute.STRINGSLICE && slices.ContainsFunc(a.Value.AsStringSlice(), func(v string) bool { return !utf8.ValidString(v) }):
		return fmt.Sprintf("%q with a value that is not UTF-8", a.Key)
	}
	return ""
}

// readerName returns how a refusal of a second reader names the
// registration name as the first.
func readerName(name string) string {
	return "a counterotel Producer's registration " + strconv.Quote(name)
}

// group returns the group of name, made where there is none. p.mu is held.
func (p *Producer) group(name string) *group {
	if g := p.byName[name]; g != nil {
		return g
	}
	g := &group{
		name:     name,
		negative: name + negativeSuffix,
		migrated: name + migratedSuffix,
		negDoc:   "Spans of " + name + " that were negative, their readings crossed; they are not in " + name + ".",
		migDoc:   "Spans of " + name + " whose thread changed CPU during them; they are not in " + name + ".",
	}
	p.byName[name] = g
	p.groups = append(p.groups, g)
	return g
}

// Describe sets the description of the histogram name, for the
// registrations of that name made before and after the call. The sums
// beside it have descriptions of their own, which say what they count.
func (p *Producer) Describe(name, description string) {
	if p == nil {
		panic(errNilProducer("Describe").Error())
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	p.descriptions[name] = description
}

// checkName returns an error wrapping ErrInvalidName where name is not an
// instrument name Register takes.
func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: the name is empty", ErrInvalidName)
	}
	if len(name) > maxNameLen {
		return fmt.Errorf("%w: %q is %d characters, more than %d", ErrInvalidName, name, len(name), maxNameLen)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if i == 0 && !letter {
			return fmt.Errorf("%w: %q does not start with a letter", ErrInvalidName, name)
		}
		if !letter && !('0' <= c && c <= '9') && c != '_' && c != '.' && c != '-' && c != '/' {
			return fmt.Errorf("%w: %q has %q, which is not a letter, a digit or one of _ . - /", ErrInvalidName, name, rune(c))
		}
	}
	return nil
}

// clash returns an error wrapping ErrDuplicate where a metric named name
// and the sums beside it would share a name with another registration's
// metrics of another kind. p.mu is held.
func (p *Producer) clash(name string) error {
	for _, suffix := range []string{negativeSuffix, migratedSuffix} {
		if p.byName[name+suffix] != nil {
			return fmt.Errorf("%w: %q would name the sum beside %q, but a histogram is registered as %q", ErrDuplicate, name+suffix, name, name+suffix)
		}
		if base, ok := strings.CutSuffix(name, suffix); ok && p.byName[base] != nil {
			return fmt.Errorf("%w: %q is the name of a sum beside the registered %q", ErrDuplicate, name, base)
		}
	}
	return nil
}

// Produce takes the spans each registered Source or Family recorded since
// the previous Produce and returns the Producer's metrics, as the package
// doc describes them, in one ScopeMetrics of scope [ScopeName]: for each
// name, in the order of its first registration, its histogram, then its
// sum of negative spans, then of migrated ones, each with a point for each
// registration of the name, in the order of registration, or for a
// Family's, one for each of its series, in the order its Interval visits
// them and its overflow series last; a sum has points only for the
// registrations whose spans it counts, and is left out where it has none
// (see the package doc). It returns nothing
// where nothing is registered, and the error where an option of
// [NewProducer] was wrong ([ErrInvalidOption]). What it returns is the
// caller's: no later Produce changes it.
//
// Where ctx is done before Produce starts, it returns ctx.Err() and takes
// no span: the next Produce has them. Once started, it finishes, since the
// spans it has taken are nowhere else.
func (p *Producer) Produce(ctx context.Context) ([]metricdata.ScopeMetrics, error) {
	switch {
	case p == nil:
		return nil, errNilProducer("Produce")
	case p.err != nil:
		return nil, p.err
	case ctx == nil:
		return nil, errors.New("counterotel: Producer.Produce: a nil ctx; pass the reader's context")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := ctx.Err(); err != nil { // it may have ended while we waited
		return nil, err
	}
	if len(p.groups) == 0 {
		return nil, nil
	}
	b := &batch{
		histDelta: p.temporality(metric.InstrumentKindHistogram) == metricdata.DeltaTemporality,
		sumDelta:  p.temporality(metric.InstrumentKindCounter) == metricdata.DeltaTemporality,
	}
	var metrics []metricdata.Metrics
	for _, g := range p.groups {
		from, negFrom, migFrom := len(b.hists), len(b.negs), len(b.migs)
		for _, r := range g.regs {
			if r.fam != nil {
				p.takeFamily(b, r)
				continue
			}
			r.src.Interval(&p.scratch)
			p.take(b, r.one, &p.scratch, r, time.Now())
		}
		to := len(b.hists)
		metrics = append(metrics, metricdata.Metrics{
			Name:        g.name,
			Description: p.descriptions[g.name],
			Unit:        "s",
			Data: metricdata.ExponentialHistogram[float64]{
				DataPoints:  b.hists[from:to:to],
				Temporality: temporality(b.histDelta),
			},
		})
		// A sum is a metric where one of its points is: a span to count
		// (take).
		if to := len(b.negs); to > negFrom {
			metrics = append(metrics, metricdata.Metrics{
				Name:        g.negative,
				Description: g.negDoc,
				Unit:        "{span}",
				Data:        metricdata.Sum[int64]{DataPoints: b.negs[negFrom:to:to], Temporality: temporality(b.sumDelta), IsMonotonic: true},
			})
		}
		if to := len(b.migs); to > migFrom {
			metrics = append(metrics, metricdata.Metrics{
				Name:        g.migrated,
				Description: g.migDoc,
				Unit:        "{span}",
				Data:        metricdata.Sum[int64]{DataPoints: b.migs[migFrom:to:to], Temporality: temporality(b.sumDelta), IsMonotonic: true},
			})
		}
	}
	return []metricdata.ScopeMetrics{{Scope: instrumentation.Scope{Name: ScopeName}, Metrics: metrics}}, nil
}

func temporality(delta bool) metricdata.Temporality {
	if delta {
		return metricdata.DeltaTemporality
	}
	return metricdata.CumulativeTemporality
}

// toInt64 returns n, or the largest int64 where n is more.
func toInt64(n uint64) int64 {
	return int64(min(n, math.MaxInt64))
}
