package export

import (
	"fmt"
	"sync"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/internal/readers"
)

// A Source hands its reader the spans recorded since that reader's previous
// call, as [counter.Histogram.Interval] does: a *counter.Histogram is a
// Source, and so is a [Tap].
type Source interface {
	Interval(dst *counter.Snapshot)
}

// A Feed shares one Histogram among several readers. It is the Histogram's
// only caller of Interval, and hands what each call takes to every [Tap]:
// each Tap's Interval holds the spans recorded since that Tap's previous
// Interval (since the Tap was made, for the first), as if it were the
// Histogram's only reader. Make one with [NewFeed].
//
// A Feed holds a Snapshot, and each Tap another, whose memory follows the
// range of the spans they hold ([counter.Histogram] gives it). A Tap's
// Interval takes the Histogram's Interval and merges what it took into
// every Tap's Snapshot, so it costs a Histogram's Interval and a Merge for
// each Tap. Its methods may be called from any goroutine; they take turns.
type Feed struct {
	h       *counter.Histogram
	mu      sync.Mutex
	scratch counter.Snapshot
	taps    []*Tap
}

// NewFeed returns a Feed of h, which becomes h's reader, as an exporter
// registered with h would: from then on, h's own Interval must not be
// called (spans it takes reach no Tap), and an exporter registered with h
// is refused; register a Tap instead. NewFeed refuses a nil or zero h with
// an error wrapping [ErrNilSource], and an h that an exporter or another
// Feed reads with one wrapping [ErrSecondReader]. h is read by the Feed
// until the Feed, and so every Tap of it, is garbage-collected.
func NewFeed(h *counter.Histogram) (*Feed, error) {
	if err := CheckSource(h); err != nil {
		return nil, fmt.Errorf("export: NewFeed needs a Histogram made by counter.NewHistogram: %w", err)
	}
	f := &Feed{h: h}
	if err := readers.Histogram(h, f, "an export.Feed"); err != nil {
		return nil, err
	}
	return f, nil
}

// Tap returns a new reader of the Feed. Its first Interval holds the spans
// recorded after Tap was called, and some recorded while it ran; none that
// Tap had returned before. A Tap stays with the Feed until its Close.
func (f *Feed) Tap() *Tap {
	if f == nil || f.h == nil {
		panic("export: Feed.Tap on a nil or zero Feed: make one with NewFeed")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.take()
	t := &Tap{f: f, open: true}
	f.taps = append(f.taps, t)
	return t
}

// take moves what the Histogram's Interval holds into every Tap's pending
// Snapshot. f.mu is held.
func (f *Feed) take() {
	f.h.Interval(&f.scratch)
	for _, t := range f.taps { // Merge of an empty Snapshot adds nothing, at once
		t.pending.Merge(&f.scratch)
	}
}

// A Tap is one reader of a [Feed]. It is a [Source].
type Tap struct {
	f       *Feed
	open    bool
	pending counter.Snapshot
}

// Interval fills dst with the spans recorded since the Tap's previous
// Interval, as [counter.Histogram.Interval] does for a Histogram's only
// reader: each span recorded before the call, and not in this Tap's earlier
// Intervals, is in dst, whole. After Close, and for the zero Tap, it fills
// dst with an empty Snapshot.
func (t *Tap) Interval(dst *counter.Snapshot) {
	switch {
	case t == nil:
		panic("export: Tap.Interval on a nil *Tap: take one from Feed.Tap")
	case dst == nil:
		panic("export: Tap.Interval: a nil dst; pass a *counter.Snapshot to fill")
	}
	f := t.f
	if f == nil {
		dst.Reset() // the zero Tap, which no Feed made
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !t.open {
		dst.Reset()
		return
	}
	f.take()
	dst.Reset()
	dst.Merge(&t.pending)
	t.pending.Reset()
}

// Close takes the Tap off its Feed: the Feed stops keeping spans for it,
// and the exporter it was registered with, if any, is no longer its reader.
// Closing it again, or closing the zero Tap, does nothing.
func (t *Tap) Close() {
	if t == nil {
		panic("export: Tap.Close on a nil *Tap: take one from Feed.Tap")
	}
	f := t.f
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
	t.pending.Reset()
	for i, o := range f.taps {
		if o == t {
			f.taps = append(f.taps[:i], f.taps[i+1:]...)
			break
		}
	}
}
