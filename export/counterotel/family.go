package counterotel

import (
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/internal/byvalues"
	"github.com/tickstamp/counter/export/internal/readers"
)

// overflowKey is the key of the attribute, true, that marks a Family's
// overflow point, as the OpenTelemetry SDK marks its own overflow point
// (internal/aggregate's overflowSet, go.opentelemetry.io/otel/sdk/metric
// v1.47.0).
const overflowKey = "otel.metric.overflow"

// A FamilyError is a refusal of [Producer.RegisterFamily]'s labels or
// attributes, or of a registration whose points could have the attributes
// of a point of a registered Family, or the reverse. Test for it with
// [errors.As]; it wraps [ErrInvalidAttribute] or [ErrDuplicate], its Err.
type FamilyError struct {
	Name string // the metric's name
	// Key is the label name or attribute key refused, and "" where the
	// refusal is of a whole set of attributes (ErrDuplicate) or of an
	// empty key.
	Key string
	Err error // ErrInvalidAttribute or ErrDuplicate
	why string
}

// Error returns the message, which starts with Err's and names what was
// refused.
func (e *FamilyError) Error() string {
	switch {
	case e == nil:
		panic("counterotel: FamilyError.Error: a nil *FamilyError; RegisterFamily returns one only with a refusal")
	case e.Err == nil:
		return "counterotel: a FamilyError without its Err: " + strconv.Quote(e.why)
	}
	return e.Err.Error() + ": " + e.why
}

// Unwrap returns e.Err, nil for a nil *FamilyError.
func (e *FamilyError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// A familyReg is what a Producer keeps of a registered Family: each of its
// series that the last Produce saw, by its values, and its overflow
// series.
type familyReg struct {
	f        export.FamilySource
	attrs    attribute.Set // the registration's own
	labels   []string      // f's label names, the keys of its series' attributes
	members  byvalues.Table[*series]
	overflow *series
	last     time.Time // the previous Produce's time, or RegisterFamily's
}

// RegisterFamily adds every series of f, a *counter.Family or an
// [export.FamilyTap], to what each Produce exports, each as a data point
// of the histogram name, in seconds at rate, and of the sums
// name+".negative" and name+".migrated" once they count a span, as
// [Producer.Register] adds one Source: a series' point has the attributes
// attrs and one string attribute for each of f's labels, whose key is the
// label's name and whose value is the series' value of it; f's overflow
// series' point has attrs and otel.metric.overflow=true, as the
// OpenTelemetry SDK marks its own overflow point, and no label's attribute.
// The package doc's section on families says when each point starts, and
// ends.
//
// RegisterFamily refuses what Register refuses (a nil f, or a zero Family
// or FamilyTap, wraps [ErrNilSource]), and with a [*FamilyError]: a label
// name or attribute key that is empty, not UTF-8, otel.metric.overflow, or
// both a label name and an attribute key, or an attribute's string value
// that is not UTF-8 ([ErrInvalidAttribute]), and a registration whose
// points could have the name and attributes of another registration's
// ([ErrDuplicate]): the package doc says which.
//
// RegisterFamily refuses too an f that a FamilyFeed, another exporter or
// another registration reads ([export.ErrSecondReader]). From
// RegisterFamily on, the registration is f's reader until the Producer is
// garbage-collected, or for a FamilyTap until its Close; only the Producer
// should call f's Interval, or the Interval of any of its series (see the
// package doc).
func (p *Producer) RegisterFamily(name string, f export.FamilySource, rate counter.TickRate, attrs ...attribute.KeyValue) error {
	if p == nil {
		return errNilProducer("RegisterFamily")
	}
	if p.err != nil {
		return p.err
	}
	if err := checkName(name); err != nil {
		return err
	}
	var labels []string
	if export.CheckFamilySource(f) == nil {
		labels = f.Labels()
	}
	if len(labels) == 0 { // a Family has a label
		return fmt.Errorf("counterotel: %q: a Family or FamilyTap that is nil or was not made by NewFamily or FamilyFeed.Tap: %w", name, ErrNilSource)
	}
	if rate.Hertz() == 0 {
		return fmt.Errorf("counterotel: %q: %w", name, export.ErrZeroRate)
	}
	set := attribute.NewSet(slices.Clone(attrs)...)
	if err := checkFamily(name, attrs, &set, labels); err != nil {
		return err
	}

	p.mu.Lock()
	defer p.mu.Unlock()
	p.init()
	if err := p.clash(name); err != nil {
		return err
	}
	fr := &familyReg{f: f, attrs: set, labels: labels, last: time.Now()}
	if g := p.byName[name]; g != nil {
		for _, r := range g.regs {
			if err := overlap(name, r.patterns(), fr); err != nil {
				return err
			}
		}
	}
	if err := readers.FamilySource[export.FamilyTap](f, p, readerName(name)); err != nil {
		return fmt.Errorf("counterotel: %q: %w", name, err)
	}
	g := p.group(name)
	g.regs = append(g.regs, &registration{rate: rate, places: newPlaces(&p.layout, rate), fam: fr})
	return nil
}

// checkFamily returns a *FamilyError wrapping ErrInvalidAttribute where
// the attributes attrs, whose set is set, and the label names labels
// cannot be the keys of a family's points.
func checkFamily(name string, attrs []attribute.KeyValue, set *attribute.Set, labels []string) error {
	refuse := func(key, why string) error {
		return &FamilyError{Name: name, Key: key, Err: ErrInvalidAttribute, why: strconv.Quote(name) + ": " + why}
	}
	for _, a := range attrs {
		if why := badAttribute(a); why != "" {
			return refuse(string(a.Key), "an attribute "+why)
		}
	}
	if set.HasValue(overflowKey) {
		return refuse(overflowKey, "the attribute "+overflowKey+" marks the family's overflow point")
	}
	for i, l := range labels {
		switch {
		case l == "":
			return refuse("", "label "+strconv.Itoa(i+1)+" of the family has an empty name")
		case !utf8.ValidString(l):
			return refuse(l, "label "+strconv.Itoa(i+1)+" of the family has a name that is not UTF-8: "+strconv.Quote(l))
		case l == overflowKey:
			return refuse(l, "the label "+overflowKey+" would not tell a series from the overflow point")
		case set.HasValue(attribute.Key(l)):
			return refuse(l, "the family's label "+strconv.Quote(l)+" is also an attribute of the registration")
		}
	}
	return nil
}

// overlap returns a *FamilyError wrapping ErrDuplicate where a set of
// attributes is of one of mine, the patterns of a registration's points,
// and of a point of the family registration fr of the same name.
func overlap(name string, mine []pattern, fr *familyReg) error {
	for _, a := range mine {
		for _, b := range fr.patterns() {
			if a.meets(b) {
				return &FamilyError{Name: name, Err: ErrDuplicate, why: strconv.Quote(name) + ": " + a.what + " and " + b.what + " could have the same attributes"}
			}
		}
	}
	return nil
}

// A pattern is the attribute sets of some points: fixed, and a string
// attribute, of any value, for each key of free.
type pattern struct {
	fixed attribute.Set
	free  []string // none of them a key of fixed
	what  string   // the points, as an error names them
}

// patterns returns the patterns of r's points.
func (r *registration) patterns() []pattern {
	if r.fam != nil {
		return r.fam.patterns()
	}
	return []pattern{single(r.one.attrs)}
}

// single returns the pattern of the point of a Register with the
// attributes set.
func single(set attribute.Set) pattern {
	return pattern{fixed: set, what: "a registration with attributes {" + set.Encoded(attribute.DefaultEncoder()) + "}"}
}

// patterns returns the patterns of fr's points: of its series, and of its
// overflow series.
func (fr *familyReg) patterns() []pattern {
	of := fmt.Sprintf("a family of labels %q with attributes {%s}", fr.labels, fr.attrs.Encoded(attribute.DefaultEncoder()))
	return []pattern{
		{fixed: fr.attrs, free: fr.labels, what: "a series of " + of},
		{fixed: fr.overflowAttrs(), what: "the overflow series of " + of},
	}
}

// meets reports whether a set of attributes is of both a and b: both have
// the same keys, and a key fixed in both has one value, and one fixed in
// one only has a string value.
func (a pattern) meets(b pattern) bool {
	if a.fixed.Len()+len(a.free) != b.fixed.Len()+len(b.free) {
		return false
	}
	// Each key of a is one of b's, where both may have the same value.
	for it := a.fixed.Iter(); it.Next(); {
		kv := it.Attribute()
		if v, ok := b.fixed.Value(kv.Key); ok {
			if v != kv.Value {
				return false
			}
		} else if kv.Value.Type() != attribute.STRING || !slices.Contains(b.free, string(kv.Key)) {
			return false
		}
	}
	for _, k := range a.free {
		if v, ok := b.fixed.Value(attribute.Key(k)); ok {
			if v.Type() != attribute.STRING {
				return false
			}
		} else if !slices.Contains(b.free, k) {
			return false
		}
	}
	return true
}

// takeFamily takes the Interval of every series of r's Family, with one
// Interval of its source, and appends each series' points to b, all at the
// time of the first visit, in the order visited. A series is found by its
// values; one first seen here starts at the previous Produce's time, and
// one the Interval does not visit, which the Family forgot, is dropped.
// p.mu is held.
func (p *Producer) takeFamily(b *batch, r *registration) {
	fr := r.fam
	var now time.Time
	fr.members.Begin()
	fr.f.Interval(func(values []string, s *counter.Snapshot) {
		if now.IsZero() {
			now = time.Now()
		}
		var sr *series
		switch {
		case values == nil:
			if fr.overflow == nil {
				fr.overflow = p.newSeries(fr.overflowAttrs(), fr.last)
			}
			sr = fr.overflow
		default:
			var ok bool
			if sr, ok = fr.members.Find(values); !ok {
				sr = p.newSeries(fr.seriesAttrs(values), fr.last)
				fr.members.Add(values, sr)
			}
		}
		p.take(b, sr, s, r, now)
	})
	fr.members.Sweep(nil)
	if now.IsZero() { // no series yet
		now = time.Now()
	}
	fr.last = now
}

// seriesAttrs returns the attributes of the point of the series of values.
func (fr *familyReg) seriesAttrs(values []string) attribute.Set {
	kvs := make([]attribute.KeyValue, 0, fr.attrs.Len()+len(values))
	kvs = append(kvs, fr.attrs.ToSlice()...)
	for i, v := range values {
		kvs = append(kvs, attribute.String(fr.labels[i], v))
	}
	return attribute.NewSet(kvs...)
}

// overflowAttrs returns the attributes of the overflow series' point.
func (fr *familyReg) overflowAttrs() attribute.Set {
	return attribute.NewSet(append(fr.attrs.ToSlice(), attribute.Bool(overflowKey, true))...)
}
