package export

import (
	"errors"
	"reflect"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/internal/readers"
)

// ErrNilSource is the refusal of a [Source] or [FamilySource] that cannot
// be read: nil, a nil of any kind (pointer, func, map, slice or chan), a
// zero [counter.Histogram] (not made by [counter.NewHistogram]), a zero
// [Tap] (not made by [Feed.Tap]), a zero [counter.Family] (not made by
// [counter.NewFamily]) or a zero [FamilyTap] (not made by
// [FamilyFeed.Tap]). counterprom and counterotel refuse such a source when
// it is registered, never at a collection.
var ErrNilSource = errors.New("export: the source is nil or was never made")

// ErrSecondReader is wrapped by the refusal of a second reader of a
// [counter.Histogram], a [counter.Family], a [Tap] or a [FamilyTap]:
// Interval hands each span to one caller, so two readers would each get
// some of the spans. A Feed, a FamilyFeed or an exporter is a reader from
// the call that makes or registers it ([NewFeed], [NewFamilyFeed],
// counterprom's New and NewFamily, counterotel's Register and
// RegisterFamily) until it is garbage-collected, or for a Tap or FamilyTap
// until its Close. The refusal names the reader that holds the source, and
// what to do: share a Histogram through a Feed and a Family through a
// FamilyFeed, a Tap for each reader. The application's own calls of
// Interval are not checked.
var ErrSecondReader = readers.ErrSecondReader

// CheckSource returns [ErrNilSource] where src cannot be read, and nil
// where it can. It reads no spans.
//
// It sees src itself: a nil interface, a nil value of every kind that can
// be nil (a pointer, func, map, slice or chan whose Interval is a method of
// the caller's), and the zero Histogram and Tap, which this module makes.
// It cannot see inside a Source of the caller's: a struct that holds a nil
// *counter.Histogram, or a non-nil map whose entry is nil, passes, and its
// Interval panics at the first collection. Such a Source checks itself
// before it is registered.
func CheckSource(src Source) error {
	switch s := src.(type) {
	case nil:
		return ErrNilSource
	case *counter.Histogram:
		if s == nil || reflect.ValueOf(s).Elem().IsZero() {
			return ErrNilSource
		}
	case *Tap:
		if s == nil || s.f == nil {
			return ErrNilSource
		}
	}
	if isNil(src) {
		return ErrNilSource
	}
	return nil
}

// CheckFamilySource returns [ErrNilSource] where src cannot be read, and
// nil where it can. It reads no spans. It sees what [CheckSource] sees: a
// nil interface, a nil value of every kind that can be nil, and the zero
// Family and FamilyTap, which this module makes; not inside a
// FamilySource of the caller's.
func CheckFamilySource(src FamilySource) error {
	switch s := src.(type) {
	case nil:
		return ErrNilSource
	case *counter.Family:
		if s == nil || len(s.Labels()) == 0 { // a Family made by NewFamily has a label
			return ErrNilSource
		}
	case *FamilyTap:
		if s == nil || s.feed == nil {
			return ErrNilSource
		}
	}
	if isNil(src) {
		return ErrNilSource
	}
	return nil
}

// isNil reports whether v holds a nil of a kind that can be nil.
func isNil(v any) bool {
	switch r := reflect.ValueOf(v); r.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Map, reflect.Slice, reflect.Chan, reflect.UnsafePointer:
		return r.IsNil()
	}
	return false
}
