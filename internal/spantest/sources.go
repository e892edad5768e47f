package spantest

import (
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// UnreadableSources are the sources export.CheckSource refuses, by name:
// the ones a test of each exporter registers to see them refused.
func UnreadableSources() map[string]export.Source {
	return map[string]export.Source{
		"nil":                    nil,
		"nil *counter.Histogram": (*counter.Histogram)(nil),
		"zero counter.Histogram": new(counter.Histogram),
		"nil *export.Tap":        (*export.Tap)(nil),
		"zero export.Tap":        new(export.Tap),
	}
}
