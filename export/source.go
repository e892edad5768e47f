package export

import (
	"errors"
	"reflect"

	"github.com/tickstamp/counter"
)

// ErrNilSource is the refusal of a [Source] that cannot be read: nil, a nil
// pointer, a zero [counter.Histogram] (not made by [counter.NewHistogram])
// or a zero [Tap] (not made by [Feed.Tap]). counterprom and counterotel
// refuse such a source when it is registered, never at a collection.
var ErrNilSource = errors.New("export: the source is nil or was never made")

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
