package export

import (
	"fmt"
	"slices"
	"sync"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/internal/byvalues"
	"github.com/tickstamp/counter/export/internal/readers"
)

// A FamilySource hands its reader the spans of each series of a family
// recorded since that reader's previous call, as [counter.Family.Interval]
// does: a *counter.Family is a FamilySource, and so is a [FamilyTap].
// Labels returns the family's label names. Interval calls visit once for
// each series, empty or not, with its label values, one for each label in
// order (nil for the overflow series), and its spans; both are valid only
// during the call. A series that an Interval does not visit is gone
// ([counter.Family.ForgetIdle]): a reader drops what it kept of it.
type FamilySource interface {
	Labels() []string
	Interval(visit func(values []string, s *counter.Snapshot))
}

// A FamilyFeed shares one Family among several readers, as a [Feed] shares
// a Histogram: it is the Family's only caller of Interval, and each
// [FamilyTap]'s Interval visits every series of the Family with the spans
// recorded into it since that Tap's previous Interval (since the Tap was
// made, for the first), as if it were the Family's only reader. Make one
// with [NewFamilyFeed].
//
// A FamilyTap's Interval takes one Family Interval and merges each series'
// spans into a pending Snapshot of that series for every Tap, then visits
// its own and hands them back. So between its Intervals a FamilyTap holds
// a Snapshot for each series that the other Taps' Intervals found spans
// in, whose memory follows the range of those spans ([counter.Snapshot]);
// the FamilyFeed keeps a copy of each series' values, and spare Snapshots,
// one a series at most. A series that the Family no longer visits is
// visited by each Tap that holds spans of it once more, and then dropped.
// Its methods may be called from any goroutine; they take turns.
type FamilyFeed struct {
	f      *counter.Family
	labels []string

	mu     sync.Mutex
	taps   []*FamilyTap
	series byvalues.Table[*feedSeries]
	// overflow is the Family's overflow series, nil until a take visits
	// it; the Family never forgets it.
	overflow *feedSeries
	spare    []*counter.Snapshot
	take     func(values []string, s *counter.Snapshot) // f.merge, made once
	empty    counter.Snapshot                           // what a Tap visits a series without spans with
}

// A feedSeries is a series of the Family, as the FamilyFeed keeps it.
type feedSeries struct {
	values  []string // nil for the overflow series
	pending int      // the Taps that hold spans of it
}

// NewFamilyFeed returns a FamilyFeed of f, which becomes f's reader, as an
// exporter registered with f would: from then on, f's own Interval must
// not be called (spans it takes reach no FamilyTap), and an exporter
// registered with f is refused; register a FamilyTap instead.
// NewFamilyFeed refuses a nil or zero f with an error wrapping
// [ErrNilSource], and an f that an exporter or another FamilyFeed reads
// with one wrapping [ErrSecondReader]. f is read by the FamilyFeed until
// the FamilyFeed, and so every FamilyTap of it, is garbage-collected.
func NewFamilyFeed(f *counter.Family) (*FamilyFeed, error) {
	if err := CheckFamilySource(f); err != nil {
		return nil, fmt.Errorf("export: NewFamilyFeed needs a Family made by counter.NewFamily: %w", err)
	}
	ff := &FamilyFeed{f: f, labels: f.Labels()}
	ff.take = ff.merge
	if err := readers.Family(f, ff, "an export.FamilyFeed"); err != nil {
		return nil, err
	}
	return ff, nil
}

// Tap returns a new reader of the FamilyFeed. Its first Interval holds the
// spans recorded after Tap was called, and some recorded while it ran;
// none that Tap had returned before. A FamilyTap stays with the
// FamilyFeed until its Close.
func (f *FamilyFeed) Tap() *FamilyTap {
	if f == nil || f.f == nil {
		panic("export: FamilyFeed.Tap on a nil or zero FamilyFeed: make one with NewFamilyFeed")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.takeAll()
	f.sweep()
	t := &FamilyTap{feed: f, open: true, pending: make(map[*feedSeries]*counter.Snapshot)}
	f.taps = append(f.taps, t)
	return t
}

// takeAll takes the Family's Interval, which merges each series' spans
// into every Tap's pending Snapshot of it. f.mu is held.
func (f *FamilyFeed) takeAll() {
	f.series.Begin()
	f.f.Interval(f.take)
}

// merge notes the series of values, which the Family's Interval visits
// with its spans s, and adds s to every Tap's pending Snapshot of it where
// s holds any. f.mu is held.
func (f *FamilyFeed) merge(values []string, s *counter.Snapshot) {
	var fs *feedSeries
	if values == nil {
		if f.overflow == nil {
			f.overflow = new(feedSeries)
		}
		fs = f.overflow
	} else {
		var ok bool
		if fs, ok = f.series.Find(values); !ok {
			fs = &feedSeries{values: slices.Clone(values)}
			f.series.Add(values, fs)
		}
	}
	if s.Count() == 0 && s.Negative() == 0 && s.Migrated() == 0 {
		return // no span, and none counted apart
	}
	for _, t := range f.taps {
		p := t.pending[fs]
		if p == nil {
			if n := len(f.spare); n > 0 {
				p, f.spare = f.spare[n-1], f.spare[:n-1]
			} else {
				p = new(counter.Snapshot)
			}
			t.pending[fs] = p
			fs.pending++
		}
		p.Merge(s)
	}
}

// sweep drops the series that the last take did not visit and no Tap
// holds spans of, and the spare Snapshots past one a series. f.mu is held.
func (f *FamilyFeed) sweep() {
	f.series.Sweep(func(fs *feedSeries) bool { return fs.pending > 0 })
	if n := f.series.Len() + 1; len(f.spare) > n {
		clear(f.spare[n:])
		f.spare = f.spare[:n]
	}
}

// A FamilyTap is one reader of a [FamilyFeed]. It is a [FamilySource].
type FamilyTap struct {
	feed    *FamilyFeed
	open    bool
	pending map[*feedSeries]*counter.Snapshot // the spans of each series not yet read
}

// Labels returns a copy of the Family's label names; none for the zero
// FamilyTap, which an exporter tells from one that FamilyFeed.Tap made so.
func (t *FamilyTap) Labels() []string {
	if t == nil {
		panic("export: FamilyTap.Labels on a nil *FamilyTap: take one from FamilyFeed.Tap")
	}
	if t.feed == nil {
		return nil
	}
	return slices.Clone(t.feed.labels)
}

// Interval calls visit with each series of the Family and the spans
// recorded into it since the FamilyTap's previous Interval, as
// [counter.Family.Interval] does for a Family's only reader: each span
// recorded before the call, and not in this FamilyTap's earlier Intervals,
// is in its series' Snapshot, whole. It visits every series of the Family,
// empty or not, and a series the Family no longer visits where it holds
// spans of it, in the order the FamilyFeed first saw them and the overflow
// series last; values and s are valid only during the call. After Close,
// and for the zero FamilyTap, it visits nothing.
func (t *FamilyTap) Interval(visit func(values []string, s *counter.Snapshot)) {
	switch {
	case t == nil:
		panic("export: FamilyTap.Interval on a nil *FamilyTap: take one from FamilyFeed.Tap")
	case visit == nil:
		panic("export: FamilyTap.Interval: a nil visit; pass a func that reads each series' Snapshot")
	}
	f := t.feed
	if f == nil {
		return // the zero FamilyTap, which no FamilyFeed made
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !t.open {
		return
	}
	f.takeAll()
	for fs, visited := range f.series.All() {
		f.visit(t, fs, visited, visit)
	}
	if f.overflow != nil {
		f.visit(t, f.overflow, true, visit)
	}
	f.sweep()
}

// visit calls visit with the series fs and what t holds of its spans, and
// hands back t's pending Snapshot of it; it visits a series without them
// only where the last take visited it. f.mu is held.
func (f *FamilyFeed) visit(t *FamilyTap, fs *feedSeries, visited bool, visit func([]string, *counter.Snapshot)) {
	p := t.pending[fs]
	if p == nil {
		if visited {
			f.empty.Reset()
			visit(fs.values, &f.empty)
		}
		return
	}
	delete(t.pending, fs)
	fs.pending--
	visit(fs.values, p)
	p.Reset()
	f.spare = append(f.spare, p)
}

// Close takes the FamilyTap off its FamilyFeed: the FamilyFeed stops
// keeping spans for it, and the exporter it was registered with, if any,
// is no longer its reader. Closing it again, or closing the zero
// FamilyTap, does nothing.
func (t *FamilyTap) Close() {
	if t == nil {
		panic("export: FamilyTap.Close on a nil *FamilyTap: take one from FamilyFeed.Tap")
	}
	f := t.feed
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !t.open {
		return
	}
	readers.TapClosed(t)
	t.open = false
	for fs, p := range t.pending {
		fs.pending--
		p.Reset()
		f.spare = append(f.spare, p)
	}
	t.pending = nil
	f.taps = slices.DeleteFunc(f.taps, func(o *FamilyTap) bool { return o == t })
	f.sweep()
}
