package export

import (
	"errors"
	"reflect"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/internal/readers"
)

// ErrNilSource is the refusal of a [Source] that cannot be read: nil, a nil
// pointer, a zero [counter.Histogram] (not made by [counter.NewHistogram])
// or a zero [Tap] (not made by [Feed.Tap]). counterprom and counterotel
// refuse such a source when it is registered, never at a collection.
var ErrNilSource = errors.New("export: the source is nil or was never made")

// ErrSecondReader is wrapped by the refusal of a second reader of a
// [counter.Histogram], a [counter.Family] or a [Tap]: Interval hands each
// span to one caller, so two readers would each get some of the spans. A
// Feed or an exporter is a reader from the call that makes or registers it
// ([NewFeed], counterprom's New and NewFamily, counterotel's Register and
// RegisterFamily) until it is garbage-collected, or for a Tap until the
// Tap's Close. The refusal names the reader that holds the source, and
// what to do: share a Histogram through a Feed, a Tap for each reader. The
// application's own calls of Interval are not checked.
var ErrSecondReader = readers.ErrSecondReader

// CheckSource returns [ErrNilSource] where src cannot be read, and nil
// where it can. It reads no spans.
func CheckSource(src Source) error {
	if src == nil {
		return ErrNilSource
	}
	switch s := src.(type) {
	case *counter.Histogram:
		if s == nil || reflect.ValueOf(s).Elem().IsZero() {
			return ErrNilSource
		}
	case *Tap:
		if s == nil || s.f == nil {
			return ErrNilSource
		}
	default:
		if v := reflect.ValueOf(src); v.Kind() == reflect.Pointer && v.IsNil() {
			return ErrNilSource
		}
	}
	return nil
}
