package counterotel

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// Scale is the scale of the exported exponential histograms: 2^Scale
// buckets for each doubling, each bucket's upper bound 2^(2^−Scale) times
// its lower. The package doc says why 7.
const Scale = 7

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

// The errors of [Producer.Register], besides [export.ErrZeroRate]. Each
// error Register returns wraps one of them, in a message that names what
// was refused.
var (
	// ErrInvalidName is the refusal of a name that is not an OpenTelemetry
	// instrument name of at most 246 characters: a letter, then letters,
	// digits and the characters _ . - /. (The limit leaves room for the
	// suffixes of the sums beside the histogram in OpenTelemetry's 255.)
	ErrInvalidName = errors.New("counterotel: invalid metric name")

	// ErrInvalidAttribute is the refusal of an attribute with an empty key.
	ErrInvalidAttribute = errors.New("counterotel: invalid attribute")

	// ErrNilSource is the refusal of a Source that cannot be read: nil, a
	// nil pointer, or a zero Histogram or Tap ([export.CheckSource]). It is
	// export.ErrNilSource, which counterprom refuses too.
	ErrNilSource = export.ErrNilSource

	// ErrDuplicate is the refusal of a name and set of attributes already
	// registered, or of a name that one of the metrics of another
	// registration already has: name+".negative" and name+".migrated" are
	// taken by each registration of name.
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
	temporality metric.TemporalitySelector

	mu           sync.Mutex
	families     []*family          // in the order of their first Register
	byName       map[string]*family // the histograms' names
	registered   map[key]bool
	descriptions map[string]string
	scratch      counter.Snapshot // the Interval of one registration
	buckets      export.Exponential
}

// A family is the registrations of one name: one metric of each kind.
type family struct {
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
// family's metrics.
type registration struct {
	src   export.Source
	rate  counter.TickRate
	attrs attribute.Set
	start time.Time        // when it was registered
	last  time.Time        // the previous Produce's time, or start
	total counter.Snapshot // every span taken since start
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

// NewProducer returns a Producer with no registrations.
func NewProducer(opts ...Option) *Producer {
	p := &Producer{temporality: metric.DefaultTemporalitySelector}
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
	p.byName = make(map[string]*family)
	p.registered = make(map[key]bool)
	p.descriptions = make(map[string]string)
	p.buckets, _ = export.NewExponential(Scale) // a scale it takes
	if p.temporality == nil {
		p.temporality = metric.DefaultTemporalitySelector
	}
}

// Register adds src to what each Produce exports: as a data point of the
// histogram name, with the given attributes, in seconds at rate, and of
// the sums name+".negative" and name+".migrated". The point's StartTime
// for cumulative temporality is the time of this call.
//
// Several registrations may share a name, with different sets of
// attributes (their order does not matter, and of two attributes with one
// key the last is kept): they are data points of one metric. Register
// refuses, with an error wrapping the sentinel named: a name that is not an
// instrument name or is longer than 246 characters ([ErrInvalidName]), an
// attribute with an empty key ([ErrInvalidAttribute]), a src that cannot
// be read: nil, a nil pointer, a zero Histogram or Tap ([ErrNilSource]), the zero rate
// ([export.ErrZeroRate]), and a name and set of attributes registered
// before, or a name another registration's sums have ([ErrDuplicate]).
//
// From Register on, only the Producer should call src's Interval (see the
// package doc).
func (p *Producer) Register(name string, src export.Source, rate counter.TickRate, attrs ...attribute.KeyValue) error {
	if err := checkName(name); err != nil {
		return err
	}
	for _, a := range attrs {
		if !a.Valid() {
			return fmt.Errorf("%w: %q has an attribute with an empty key", ErrInvalidAttribute, name)
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
	f := p.byName[name]
	if f == nil {
		f = &family{
			name:     name,
			negative: name + negativeSuffix,
			migrated: name + migratedSuffix,
			negDoc:   "Spans of " + name + " that were negative, their readings crossed; they are not in " + name + ".",
			migDoc:   "Spans of " + name + " whose thread changed CPU during them; they are not in " + name + ".",
		}
		p.byName[name] = f
		p.families = append(p.families, f)
	}
	now := time.Now()
	f.regs = append(f.regs, &registration{src: src, rate: rate, attrs: set, start: now, last: now})
	p.registered[k] = true
	return nil
}

// Describe sets the description of the histogram name, for the
// registrations of that name made before and after the call. The sums
// beside it have descriptions of their own, which say what they count.
func (p *Producer) Describe(name, description string) {
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

// Produce takes the spans each registered Source recorded since the
// previous Produce and returns the Producer's metrics, as the package doc
// describes them, in one ScopeMetrics of scope [ScopeName]: for each name,
// in the order of its first Register, its histogram, then its sum of
// negative spans, then of migrated ones, each with a point for each
// registration of the name, in the order of Register. It returns nothing
// where nothing is registered.
//
// Where ctx is done before Produce starts, it returns ctx.Err() and takes
// no span: the next Produce has them. Once started, it finishes, since the
// spans it has taken are nowhere else.
func (p *Producer) Produce(ctx context.Context) ([]metricdata.ScopeMetrics, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := ctx.Err(); err != nil { // it may have ended while we waited
		return nil, err
	}
	if len(p.families) == 0 {
		return nil, nil
	}
	histDelta := p.temporality(metric.InstrumentKindHistogram) == metricdata.DeltaTemporality
	sumDelta := p.temporality(metric.InstrumentKindCounter) == metricdata.DeltaTemporality

	metrics := make([]metricdata.Metrics, 0, 3*len(p.families))
	for _, f := range p.families {
		hist := metricdata.ExponentialHistogram[float64]{
			DataPoints:  make([]metricdata.ExponentialHistogramDataPoint[float64], len(f.regs)),
			Temporality: temporality(histDelta),
		}
		negative := metricdata.Sum[int64]{
			DataPoints:  make([]metricdata.DataPoint[int64], len(f.regs)),
			Temporality: temporality(sumDelta),
			IsMonotonic: true,
		}
		migrated := metricdata.Sum[int64]{
			DataPoints:  make([]metricdata.DataPoint[int64], len(f.regs)),
			Temporality: temporality(sumDelta),
			IsMonotonic: true,
		}
		for i, r := range f.regs {
			r.src.Interval(&p.scratch)
			now := time.Now()
			r.total.Merge(&p.scratch) // at once where the Interval is empty
			s, start := &r.total, r.start
			if histDelta {
				s, start = &p.scratch, r.last
			}
			hist.DataPoints[i] = p.point(s, r.rate, r.attrs, start, now)
			s, start = &r.total, r.start
			if sumDelta {
				s, start = &p.scratch, r.last
			}
			negative.DataPoints[i] = metricdata.DataPoint[int64]{
				Attributes: r.attrs, StartTime: start, Time: now, Value: toInt64(s.Negative()),
			}
			migrated.DataPoints[i] = metricdata.DataPoint[int64]{
				Attributes: r.attrs, StartTime: start, Time: now, Value: toInt64(s.Migrated()),
			}
			r.last = now
		}
		metrics = append(metrics,
			metricdata.Metrics{Name: f.name, Description: p.descriptions[f.name], Unit: "s", Data: hist},
			metricdata.Metrics{
				Name:        f.negative,
				Description: f.negDoc,
				Unit:        "{span}",
				Data:        negative,
			},
			metricdata.Metrics{
				Name:        f.migrated,
				Description: f.migDoc,
				Unit:        "{span}",
				Data:        migrated,
			},
		)
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

// point returns the data point of the spans of s, in seconds at rate.
func (p *Producer) point(s *counter.Snapshot, rate counter.TickRate, attrs attribute.Set, start, now time.Time) metricdata.ExponentialHistogramDataPoint[float64] {
	dp := metricdata.ExponentialHistogramDataPoint[float64]{
		Attributes: attrs,
		StartTime:  start,
		Time:       now,
		Count:      s.Count(),
		Scale:      Scale,
	}
	if dp.Count == 0 {
		return dp
	}
	dp.Sum = export.SumSeconds(s, rate)
	dp.Min = metricdata.NewExtrema(export.Seconds(s.Min(), rate))
	dp.Max = metricdata.NewExtrema(export.Seconds(s.Max(), rate))
	if s.Max() <= 0 {
		dp.ZeroCount = dp.Count
		return dp
	}
	last := p.buckets.Index(export.Seconds(s.Max(), rate))
	var counts []uint64
	var offset int32
	// Values come from the least, and Index never decreases: the first
	// positive value's bucket is the offset, and the largest's the last.
	for v, n := range export.Values(s) {
		if v <= 0 {
			dp.ZeroCount += n
			continue
		}
		i := p.buckets.Index(export.Seconds(v, rate))
		if counts == nil {
			offset = i
			counts = make([]uint64, last-offset+1)
		}
		counts[i-offset] += n
	}
	dp.PositiveBucket = metricdata.ExponentialBucket{Offset: offset, Counts: counts}
	return dp
}
