package spantest

import (
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// Sources of a caller's own, one of each kind of Go value that can be nil
// besides a pointer, each reading a Histogram through what it holds: a
// nil one panics at its first Interval (a nil chan blocks there for good).
type (
	FuncSource  func(dst *counter.Snapshot)
	MapSource   map[string]*counter.Histogram // reads "h"
	SliceSource []*counter.Histogram          // reads the first
	ChanSource  chan *counter.Histogram       // reads the one it receives
)

func (f FuncSource) Interval(dst *counter.Snapshot)  { f(dst) }
func (m MapSource) Interval(dst *counter.Snapshot)   { m["h"].Interval(dst) }
func (s SliceSource) Interval(dst *counter.Snapshot) { s[0].Interval(dst) }
func (c ChanSource) Interval(dst *counter.Snapshot)  { (<-c).Interval(dst) }

// UnreadableSources are the sources export.CheckSource refuses, by name:
// the ones a test of each exporter registers to see them refused. There is
// a nil of each kind that can be nil.
func UnreadableSources() map[string]export.Source {
	return map[string]export.Source{
		"nil":                    nil,
		"nil *counter.Histogram": (*counter.Histogram)(nil),
		"zero counter.Histogram": new(counter.Histogram),
		"nil *export.Tap":        (*export.Tap)(nil),
		"zero export.Tap":        new(export.Tap),
		"nil FuncSource":         FuncSource(nil),
		"nil MapSource":          MapSource(nil),
		"nil SliceSource":        SliceSource(nil),
		"nil ChanSource":         ChanSource(nil),
	}
}

// A FamilyFuncSource is a FamilySource of a caller's own, of one label,
// "k", whose Interval is the func: a nil one panics at its first Interval.
type FamilyFuncSource func(visit func(values []string, s *counter.Snapshot))

func (FamilyFuncSource) Labels() []string { return []string{"k"} }

func (f FamilyFuncSource) Interval(visit func(values []string, s *counter.Snapshot)) { f(visit) }

// UnreadableFamilySources are the family sources export.CheckFamilySource
// refuses, by name: the ones a test of each exporter registers to see
// them refused.
func UnreadableFamilySources() map[string]export.FamilySource {
	return map[string]export.FamilySource{
		"nil":                   nil,
		"nil *counter.Family":   (*counter.Family)(nil),
		"zero counter.Family":   new(counter.Family),
		"nil *export.FamilyTap": (*export.FamilyTap)(nil),
		"zero export.FamilyTap": new(export.FamilyTap),
		"nil FamilyFuncSource":  FamilyFuncSource(nil),
	}
}
