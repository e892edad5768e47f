package export_test

import (
	"errors"
	"testing"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/internal/spantest"
)

// A sourceFunc is a Source of the caller's own.
type sourceFunc func(*counter.Snapshot)

func (f sourceFunc) Interval(dst *counter.Snapshot) { f(dst) }

// mySource is a pointer Source of the caller's own, usable at its zero
// value.
type mySource struct{}

func (*mySource) Interval(dst *counter.Snapshot) { *dst = counter.Snapshot{} }

func TestCheckSource(t *testing.T) {
	bad := spantest.UnreadableSources()
	bad["nil *mySource"] = (*mySource)(nil)
	for name, src := range bad {
		if err := export.CheckSource(src); !errors.Is(err, export.ErrNilSource) {
			t.Errorf("%s: CheckSource = %v; want ErrNilSource", name, err)
		}
	}
	for name, src := range map[string]export.Source{
		"a Histogram":              counter.NewHistogram(),
		"a Tap":                    mustFeed(t, counter.NewHistogram()).Tap(),
		"a func":                   sourceFunc(func(*counter.Snapshot) {}),
		"a zero source of its own": new(mySource),
	} {
		if err := export.CheckSource(src); err != nil {
			t.Errorf("%s: CheckSource = %v; want nil", name, err)
		}
	}
}

// TestZeroTap checks that the zero Tap, which no Feed made, reads as empty
// and closes, rather than panicking.
func TestZeroTap(t *testing.T) {
	var tap export.Tap
	s := new(counter.Snapshot)
	tap.Interval(s)
	tap.Close()
	if s.Count() != 0 {
		t.Fatalf("the zero Tap's Interval holds %d spans; want none", s.Count())
	}
}

// A holder is a Source of the caller's that reads the Histogram it holds.
type holder struct{ h *counter.Histogram }

func (s holder) Interval(dst *counter.Snapshot) { s.h.Interval(dst) }

// TestCheckSourceSeesOnlyTheSource checks what CheckSource's doc says it
// passes: a value that is not nil, of each kind that can be nil, and a
// source of the caller's whose Histogram inside is nil, which it cannot see.
func TestCheckSourceSeesOnlyTheSource(t *testing.T) {
	h := counter.NewHistogram()
	for name, src := range map[string]export.Source{
		"a FuncSource":                     spantest.FuncSource(h.Interval),
		"a MapSource":                      spantest.MapSource{"h": h},
		"a SliceSource":                    spantest.SliceSource{h},
		"a ChanSource":                     make(spantest.ChanSource, 1),
		"a struct holding a nil Histogram": holder{},
		"a MapSource whose entry is nil":   spantest.MapSource{"h": nil},
	} {
		if err := export.CheckSource(src); err != nil {
			t.Errorf("%s: CheckSource = %v; want nil", name, err)
		}
	}
}

func TestCheckFamilySource(t *testing.T) {
	for name, src := range spantest.UnreadableFamilySources() {
		if err := export.CheckFamilySource(src); !errors.Is(err, export.ErrNilSource) {
			t.Errorf("%s: CheckFamilySource = %v; want ErrNilSource", name, err)
		}
	}
	for name, src := range map[string]export.FamilySource{
		"a Family":             newFamily(t, 0, "k"),
		"a FamilyTap":          mustFamilyFeed(t, newFamily(t, 0, "k")).Tap(),
		"a func of the caller": spantest.FamilyFuncSource(func(func([]string, *counter.Snapshot)) {}),
	} {
		if err := export.CheckFamilySource(src); err != nil {
			t.Errorf("%s: CheckFamilySource = %v; want nil", name, err)
		}
	}
}
