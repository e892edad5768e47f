package counter

import (
	"errors"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/tickstamp/counter/internal/handover"
)

// The refusals of [NewFamily] and [Family.Get]. Test for them with
// [errors.Is]: each refusal wraps one in a message that names what was
// refused.
var (
	// ErrLabels is wrapped by the refusal of a family's labels: NewFamily's
	// label names where there are none, or one is empty or given twice;
	// Get's values where there are not as many as the family has labels,
	// and With's, whose panic value is that error; and Get on a nil or zero
	// Family, which has no labels.
	ErrLabels = errors.New("counter: invalid labels")

	// ErrLimit is wrapped by NewFamily's refusal of a negative limit on
	// the number of a family's series, and ForgetIdle's of a negative
	// count of Intervals.
	ErrLimit = errors.New("counter: invalid series limit")
)

// defaultFamilyLimit is the limit of a Family made with limit 0: the
// OpenTelemetry Go SDK's default cardinality limit.
const defaultFamilyLimit = 2000

// A Family is a set of [Histogram]s, its series, one for each set of label
// values that a service measures by, such as (method, route, status):
// [Family.With] returns the series of a set of values, made on its first
// use, and [Family.Interval] reads every series, for an exporter.
//
// A Family holds at most limit series, the overflow series included, as the
// OpenTelemetry Go SDK's cardinality limit does (its internal/aggregate
// package, read at go.opentelemetry.io/otel/sdk/metric v1.47.0): the first
// limit−1 sets of values each get a series of their own, and every set
// after them shares one overflow series, made at its first use, whose
// values are nil (the SDK's otel.metric.overflow=true). By default a
// Family keeps its series for its life, as Prometheus's cumulative series
// expect: a set that has a series keeps it, and past the limit a new set
// never gets one. [Family.ForgetIdle] makes it forget idle series instead,
// as the SDK forgets its sets at each delta collection, so that the limit
// frees up.
//
// Each series is a Histogram, made as [NewHistogram] makes one, whose
// locks follow contention as Histogram's doc says: none before its first
// record, one for a series that goroutines record into one at a time, and
// one more for each record that found every lock held, at most S of
// Histogram's doc as the series was made. A series' memory is an empty
// Histogram's 256 bytes and locks of about 390 bytes each, plus what
// Histogram's doc says each Histogram holds for what was recorded: a tally
// for each lock that recorded lately and for each [Recorder], of a size
// that follows the range of its spans, and after an Interval one for the
// locks and a spare at most for each Recorder. The
// Family adds a copy of each set of values, a table of at most
// max(8, 4·limit) pointers to find them, and one Snapshot for Interval. A
// forgotten series' memory is kept until it has been idle for as many
// Intervals again as ForgetIdle's count, then left to the garbage
// collector.
//
// The zero Family is not usable: make one with NewFamily.
type Family struct {
	labels []string
	// limit is the most series the Family holds, the overflow included.
	limit int
	seed  maphash.Seed

	// table finds a member by its values without a lock: With loads it and
	// probes its slots with atomic loads. An insert, under mu, stores a
	// new member into an empty slot of the table (a reader sees the slot
	// empty or the member whole, as the store publishes it) or, where more
	// than half the slots would be full, publishes a table twice as large
	// that holds every member. Forgetting, under mu, publishes a table of
	// the members left. A reader that misses a member added meanwhile
	// looks again under mu; one that finds a member forgotten meanwhile
	// gets its Histogram, which Interval still reads (forgotten).
	table atomic.Pointer[familyTable]
	// overflow is the overflow series, nil until its first use.
	overflow atomic.Pointer[Histogram]
	// forget is ForgetIdle's count of Intervals, 0 for never.
	forget atomic.Int64

	// mu is held to add a member, make the overflow series, or forget; it
	// guards members, which are in the order they were made (or taken
	// back), forgotten, the members forgotten that Interval still reads,
	// and each member's idle and gone.
	mu        sync.Mutex
	members   []*member
	forgotten []*member

	// interval is held by Interval throughout, so that calls take turns;
	// it guards scratch and values, what Interval hands to visit, and
	// collectors, the series' collectors it reads.
	interval   sync.Mutex
	scratch    *Snapshot
	values     []string
	collectors []*handover.Collector
}

// A member is a series of its own: its values, which the Family owns, and
// their hash. Its first three fields never change once it is in a table.
type member struct {
	hash   uint64
	values []string
	h      *Histogram

	// held reports whether the series' last Interval held a span: Interval
	// alone writes and reads it, holding f.interval.
	held bool
	// idle counts the Intervals in a row that found the series without a
	// span, since it was made, taken back or forgotten; gone reports
	// whether it is forgotten. f.mu guards both.
	idle int
	gone bool
}

// A familyTable is an open-addressed hash table of members, probed
// linearly; a power of two of slots, never more than half of them full, so
// that a probe meets an empty slot.
type familyTable struct {
	slots []atomic.Pointer[member]
	// full reports whether the table holds the Family's limit−1 members.
	// It is stored after the last member's insert, and a table that is
	// full takes no other (a table that forgetting publishes is a new
	// one), so a reader that loads it before probing finds every member
	// in the table, and knows the Family was full while the table was its
	// own.
	full atomic.Bool
}

// newFamilyTable returns a table of the members, of the least power of two
// of slots, at least 8, that leaves at least half of them empty.
func newFamilyTable(members []*member) *familyTable {
	n := 8
	for 2*len(members) > n {
		n *= 2
	}
	t := &familyTable{slots: make([]atomic.Pointer[member], n)}
	for _, m := range members {
		t.insert(m)
	}
	return t
}

// NewFamily returns an empty Family whose series are keyed by the label
// names labels, in that order: at least one, each non-empty and none given
// twice, and otherwise unchecked (an exporter checks them against its own
// rules). Label values are made valid UTF-8 of at most [MaxValueLen]
// bytes, as [Family.With] says. limit is the most series the Family holds, the overflow series
// included; 0 means 2000, the OpenTelemetry Go SDK's default, and a
// negative limit is refused. Refusals wrap [ErrLabels] or [ErrLimit].
func NewFamily(labels []string, limit int) (*Family, error) {
	if len(labels) == 0 {
		return nil, &wrapError{msg: "counter: a family needs at least one label name", wrapped: ErrLabels}
	}
	for i, l := range labels {
		if l == "" {
			return nil, &wrapError{msg: "counter: label name " + strconv.Itoa(i+1) + " of " + quoteAll(labels) + " is empty", wrapped: ErrLabels}
		}
		if slices.Contains(labels[:i], l) {
			return nil, &wrapError{msg: "counter: label name " + strconv.Quote(l) + " is given twice in " + quoteAll(labels), wrapped: ErrLabels}
		}
	}
	switch {
	case limit < 0:
		return nil, &wrapError{msg: "counter: a family's limit of " + strconv.Itoa(limit) + " series is negative", wrapped: ErrLimit}
	case limit == 0:
		limit = defaultFamilyLimit
	}
	f := &Family{
		labels: slices.Clone(labels),
		limit:  limit,
		seed:   maphash.MakeSeed(),
	}
	t := newFamilyTable(nil)
	t.full.Store(limit == 1)
	f.table.Store(t)
	return f, nil
}

// quoteAll returns the strings quoted and parted by commas, in brackets.
func quoteAll(s []string) string { return "[" + quoteList(s) + "]" }

// quoteList returns the strings quoted and parted by commas.
func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// With returns the series of the label values, one for each of the
// Family's labels in order, and makes it on the first call with them; from
// any goroutine, and calls with the same values get the same Histogram.
// Values are compared byte for byte, and the Family keeps a copy of each
// new set, made valid for every exporter first: each run of bytes that is
// not UTF-8 becomes U+FFFD, as [strings.ToValidUTF8] makes it, and a value
// longer than [MaxValueLen] bytes is cut to that many at a rune boundary,
// ending in "…" (U+2026); so "a\xff" and "a\uFFFD" share a series, and so
// do two long values that differ only past the cut. Such a value costs a
// copy at each call. Past the limit, a set that has no series gets the
// overflow series. A series that the Family forgot ([Family.ForgetIdle])
// is made anew, or taken back where Interval still reads it. Values not
// as many as the labels are a mistake in the code, and With panics with
// an error that wraps [ErrLabels] and names the labels and the values, as
// client_golang's WithLabelValues panics; [Family.Get] returns that error
// instead. Once the series exists (the overflow series
// too), With takes no lock and does not allocate.
func (f *Family) With(values ...string) *Histogram {
	if f == nil {
		panic("counter: Family.With on a nil *Family: make one with NewFamily")
	}
	t := f.table.Load()
	if t == nil {
		panic("counter: the zero Family has no labels: make one with NewFamily")
	}
	full := t.full.Load() // before the probe: see its doc
	if len(values) != len(f.labels) {
		panic(f.countError("With", values))
	}
	hash := f.hash(values)
	if m := t.find(hash, values); m != nil {
		return m.h
	}
	return f.miss(full, t, hash, values)
}

// miss returns the series of values, of hash hash, that With did not find
// in t, having loaded full before t. Every member's values are clean
// (cleanValues), so values that are not never match one: miss makes them
// clean and looks them up again, off the path of a set that has a series.
func (f *Family) miss(full bool, t *familyTable, hash uint64, values []string) *Histogram {
	if clean, ok := cleanValues(values); !ok {
		values, hash = clean, f.hash(clean)
		if m := t.find(hash, values); m != nil {
			return m.h
		}
	}
	if !full {
		return f.add(hash, values)
	}
	return f.overflowSeries()
}

// MaxValueLen is the most bytes of a label value that a [Family] keeps:
// With and Get cut a longer value at a rune boundary to at most
// MaxValueLen bytes, "…" (U+2026) included, which ends it as the mark of
// the cut. 1,024 bytes holds a route or a user agent, and keeps the
// values of a Family's default limit of 2,000 series within 2 MB each
// label.
const MaxValueLen = 1024

// cutMark ends a value cut to MaxValueLen.
const cutMark = "\u2026"

// cleanValues returns values, and true, where each is valid UTF-8 of at
// most MaxValueLen bytes; otherwise a copy of values with each made so by
// cleanValue, and false.
func cleanValues(values []string) ([]string, bool) {
	i := slices.IndexFunc(values, func(v string) bool {
		return len(v) > MaxValueLen || !utf8.ValidString(v)
	})
	if i < 0 {
		return values, true
	}
	clean := slices.Clone(values)
	for ; i < len(clean); i++ {
		clean[i] = cleanValue(clean[i])
	}
	return clean, false
}

// cleanValue returns v with each run of bytes that is not UTF-8 replaced
// by U+FFFD, as strings.ToValidUTF8(v, "\uFFFD") does, and cut at a rune
// boundary to at most MaxValueLen bytes, cutMark included, where longer.
func cleanValue(v string) string {
	if len(v) <= MaxValueLen && utf8.ValidString(v) {
		return v
	}
	var b strings.Builder
	room := MaxValueLen - len(cutMark) // what a cut value keeps of v
	kept := -1                         // b's length at the last rune that fits room, -1 before one does not
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRuneInString(v[i:])
		piece := v[i : i+n]
		if r == utf8.RuneError && n == 1 {
			for i += n; i < len(v); i++ { // the run of bytes that are not UTF-8
				if r, n := utf8.DecodeRuneInString(v[i:]); r != utf8.RuneError || n != 1 {
					break
				}
			}
			piece = "\uFFFD"
		} else {
			i += n
		}
		if kept < 0 && b.Len()+len(piece) > room {
			kept = b.Len()
		}
		if b.Len()+len(piece) > MaxValueLen {
			return b.String()[:kept] + cutMark
		}
		b.WriteString(piece)
	}
	return b.String()
}

// Get returns the series of the label values as [Family.With] does, but
// returns an error wrapping [ErrLabels] where With would panic: for values
// not as many as the Family's labels, and for a nil or zero Family. Past
// the limit it returns the overflow series and no error.
func (f *Family) Get(values ...string) (*Histogram, error) {
	if f == nil || len(f.labels) == 0 { // a Family made by NewFamily has a label
		return nil, &wrapError{msg: "counter: Family.Get on a nil or zero Family, which has no labels: make one with NewFamily", wrapped: ErrLabels}
	}
	if len(values) != len(f.labels) {
		return nil, f.countError("Get", values)
	}
	return f.With(values...), nil
}

// countError returns the refusal of values not as many as the Family's
// labels, by its method call (With or Get), which it names with the
// values:
//
//	counter: Family.With("GET"): 1 value for the 2 labels ["method", "route"]: give one value for each label, in that order
//
//go:noinline
func (f *Family) countError(call string, values []string) error {
	return &wrapError{
		msg: "counter: Family." + call + "(" + quoteList(values) + "): " +
			count(len(values), "value") + " for the " + count(len(f.labels), "label") + " " + quoteAll(f.labels) +
			": give one value for each label, in that order",
		wrapped: ErrLabels,
	}
}

// count returns "1 noun" or "n nouns".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// hash returns the hash of a set of values under the Family's seed: each
// value's maphash, mixed in order, so that no string is built.
func (f *Family) hash(values []string) uint64 {
	h := uint64(len(values))
	for _, v := range values {
		h = (h ^ maphash.String(f.seed, v)) * 0x9e3779b97f4a7c15
		h ^= h >> 32
	}
	return h
}

// find returns the member whose values are values, nil where none is.
func (t *familyTable) find(hash uint64, values []string) *member {
	mask := uint64(len(t.slots) - 1)
	for i := hash & mask; ; i = (i + 1) & mask {
		m := t.slots[i].Load()
		if m == nil {
			return nil
		}
		if m.hash == hash && slices.Equal(m.values, values) {
			return m
		}
	}
}

// insert stores m into t's first empty slot from its hash on. t has one.
func (t *familyTable) insert(m *member) {
	mask := uint64(len(t.slots) - 1)
	i := m.hash & mask
	for t.slots[i].Load() != nil {
		i = (i + 1) & mask
	}
	t.slots[i].Store(m)
}

// add returns the series of values that With did not find, made now as a
// member or, where the Family has limit−1 members, the overflow series.
func (f *Family) add(hash uint64, values []string) *Histogram {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.table.Load()
	if m := t.find(hash, values); m != nil {
		return m.h // added meanwhile
	}
	if len(f.members) >= f.limit-1 {
		return f.overflowLocked()
	}
	m := f.takeBack(hash, values)
	if m == nil {
		m = &member{hash: hash, values: make([]string, len(values)), h: NewHistogram()}
		for i, v := range values {
			m.values[i] = strings.Clone(v)
		}
	}
	f.members = append(f.members, m)
	if 2*len(f.members) <= len(t.slots) {
		t.insert(m)
	} else {
		bigger := &familyTable{slots: make([]atomic.Pointer[member], 2*len(t.slots))}
		for _, m := range f.members {
			bigger.insert(m)
		}
		f.table.Store(bigger)
		t = bigger
	}
	if len(f.members) == f.limit-1 {
		t.full.Store(true)
	}
	return m.h
}

// takeBack returns the forgotten member of values, of hash hash, made a
// member again, or nil where there is none: a series forgotten so lately
// that Interval still reads it, whose Histogram a goroutine may still
// record into. f.mu is held; Interval takes it off forgotten.
func (f *Family) takeBack(hash uint64, values []string) *member {
	for _, m := range f.forgotten {
		if m.gone && m.hash == hash && slices.Equal(m.values, values) {
			m.gone, m.idle = false, 0
			return m
		}
	}
	return nil
}

// overflowSeries returns the overflow series, made on the first call.
func (f *Family) overflowSeries() *Histogram {
	if o := f.overflow.Load(); o != nil {
		return o
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.overflowLocked()
}

// overflowLocked is overflowSeries with f.mu held.
func (f *Family) overflowLocked() *Histogram {
	o := f.overflow.Load()
	if o == nil {
		o = NewHistogram()
		f.overflow.Store(o)
	}
	return o
}

// Labels returns a copy of the Family's label names, in the order of the
// values With takes; none for the zero Family, which an exporter tells
// from a Family that NewFamily made so.
func (f *Family) Labels() []string {
	f.mustNotBeNil("Labels")
	return slices.Clone(f.labels)
}

// Len returns how many series the Family holds, the overflow series
// included once made: at most its limit, and 0 for the zero Family.
func (f *Family) Len() int {
	f.mustNotBeNil("Len")
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(f.members)
	if f.overflow.Load() != nil {
		n++
	}
	return n
}

// ForgetIdle makes the Family forget each series, the overflow series
// never, that held no span, nor one counted apart, in its last intervals
// [Family.Interval] calls (those before the call count), at the end of the
// last: Len no longer counts it, Interval no longer visits it, and With of
// its values makes a series anew, so that sets of values that come and go
// free their places under the limit. 0, the default, forgets none; a
// negative intervals is refused with an error wrapping [ErrLimit]. It
// holds from the next Interval on.
//
// A forgotten series' Histogram, which a goroutine may still record into
// (it got it from With before, or records through a [Recorder] of it), is
// read on until it has been idle for intervals Intervals again: each
// Interval visits it, under its values, where it holds spans, and With of
// its values takes it back. A span recorded into it after that is lost:
// where series are forgotten, take a series from With for each span or
// batch of spans, rather than keeping it.
//
// A reader drops a series that an Interval does not visit, so a series
// whose values come back starts from zero: a counter reset to Prometheus,
// a new start time to OpenTelemetry. An export.FamilyFeed takes one Family
// Interval for each of its Taps'.
func (f *Family) ForgetIdle(intervals int) error {
	f.mustNotBeNil("ForgetIdle")
	if intervals < 0 {
		return &wrapError{msg: "counter: Family.ForgetIdle(" + strconv.Itoa(intervals) + "): a negative count of Intervals; give 0 to forget no series", wrapped: ErrLimit}
	}
	f.forget.Store(int64(intervals))
	return nil
}

// Interval takes the [Histogram.Interval] of every series, in the order
// they were made and the overflow series last, into one Snapshot it
// reuses, and calls visit with each: values are the series' label values,
// in the order of [Family.Labels], each valid UTF-8 of at most
// [MaxValueLen] bytes, and nil for the overflow series. s and
// values are valid only during the call; copy what you keep (s with
// [Snapshot.Merge]). Every series is visited, empty or not; a series made
// while Interval runs is visited from the next call on; a series
// forgotten lately ([Family.ForgetIdle]) is visited where it holds spans,
// after the others and before the overflow series. The Intervals of
// all the series pass one barrier (see [Histogram.Interval]), not one
// each; each series' Interval is held from before that barrier until its
// visit, so visit must not call the Interval of the Family or of any of
// its series (calls to Interval take turns). After its first call it
// allocates only where a series' Histogram.Interval does, or to forget.
//
// As a Histogram's, a Family's Interval takes the spans, so a Family has
// one reader: two would each get part of the spans. To read a Family in
// several places, make an export.FamilyFeed of it and give each reader a
// FamilyTap. An exporter or a FamilyFeed of a Family that another reads
// is refused (the error wraps export.ErrSecondReader). A series'
// Histogram, from With, may also be read with its own Interval, or by an
// exporter of its own, and that is not refused, but each span goes to
// exactly one Interval: the two readers would split the series' spans,
// neither seeing them all. Read a Family's series through it alone, or
// through their own Intervals alone.
func (f *Family) Interval(visit func(values []string, s *Snapshot)) {
	f.mustNotBeNil("Interval")
	switch {
	case f.table.Load() == nil:
		panic("counter: Family.Interval: the zero Family has no labels; make one with NewFamily")
	case visit == nil:
		panic("counter: Family.Interval: a nil visit; pass a func that reads each series' Snapshot")
	}
	f.interval.Lock()
	defer f.interval.Unlock()
	if f.scratch == nil {
		f.scratch = new(Snapshot)
	}
	f.mu.Lock()
	// The members taken back since the last Interval are members again.
	f.forgotten = slices.DeleteFunc(f.forgotten, func(m *member) bool { return !m.gone })
	members, forgotten, overflow := f.members, f.forgotten, f.overflow.Load()
	f.mu.Unlock()
	f.intervalEach(members, forgotten, overflow, visit)
	f.tend(members, forgotten)
}

// mustNotBeNil panics, naming the method call, where f is nil.
func (f *Family) mustNotBeNil(call string) {
	if f == nil {
		panic("counter: Family." + call + ": a nil *Family; make one with NewFamily")
	}
}

// intervalEach takes each series' Interval into f.scratch in turn, notes
// in each member's held whether it holds a span, and visits it: the
// members in order, then the forgotten ones that hold a span, then
// overflow where it is not nil. The Intervals pass one barrier for the
// whole family (handover.Intervals), not one a series. f.interval is held.
func (f *Family) intervalEach(members, forgotten []*member, overflow *Histogram, visit func(values []string, s *Snapshot)) {
	f.collectors = f.collectors[:0]
	for _, list := range [][]*member{members, forgotten} {
		for _, m := range list {
			m.h.collecting.Add(1)
			f.collectors = append(f.collectors, m.h.c)
		}
	}
	if overflow != nil {
		overflow.collecting.Add(1)
		f.collectors = append(f.collectors, overflow.c)
	}
	defer func() {
		// Each series' Interval ends with its sweep, here, once the
		// Intervals of all have ended, whether visit panicked or not.
		for _, list := range [][]*member{members, forgotten} {
			for _, m := range list {
				m.h.sweep()
				m.h.collecting.Add(-1)
			}
		}
		if overflow != nil {
			overflow.sweep()
			overflow.collecting.Add(-1)
		}
	}()
	handover.Intervals(f.collectors, &f.scratch.d, func(i int) {
		var m *member
		switch {
		case i < len(members):
			m = members[i]
		case i < len(members)+len(forgotten):
			m = forgotten[i-len(members)]
		default:
			visit(nil, f.scratch)
			return
		}
		m.held = !f.scratch.d.Empty()
		if i >= len(members) && !m.held {
			return // forgotten, and rightly so
		}
		f.values = append(f.values[:0], m.values...)
		visit(f.values, f.scratch)
	})
	clear(f.collectors)
}

// tend counts the Intervals each series of the Interval just taken has
// been idle, members and forgotten ones alike, then stops reading the
// forgotten ones idle for ForgetIdle's count of Intervals (at least one)
// and forgets the members idle for as many, where the count is not 0.
// Forgetting publishes a table of the members left. f.interval is held.
func (f *Family) tend(members, forgotten []*member) {
	n := int(f.forget.Load())
	f.mu.Lock()
	defer f.mu.Unlock()
	forget := 0
	for _, m := range members {
		m.idle = idleAfter(m)
		if n > 0 && m.idle >= n {
			forget++
		}
	}
	for _, m := range forgotten {
		if m.gone { // not taken back meanwhile
			m.idle = idleAfter(m)
		}
	}
	// The forgotten members that stay: those taken back are members, and
	// the others are read until they have been idle long enough again.
	f.forgotten = slices.DeleteFunc(f.forgotten, func(m *member) bool { return !m.gone || m.idle >= max(n, 1) })
	if forget == 0 {
		return
	}
	// Only the members this Interval read are idle: one made or taken
	// back meanwhile has an idle of 0.
	f.members = slices.DeleteFunc(f.members, func(m *member) bool {
		if m.gone = m.idle >= n; m.gone {
			m.idle = 0
			f.forgotten = append(f.forgotten, m)
		}
		return m.gone
	})
	t := newFamilyTable(f.members)
	t.full.Store(len(f.members) == f.limit-1)
	f.table.Store(t)
}

// idleAfter returns m's count of idle Intervals after the Interval whose
// held it notes.
func idleAfter(m *member) int {
	if m.held {
		return 0
	}
	return m.idle + 1
}
