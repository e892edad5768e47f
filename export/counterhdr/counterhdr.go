// Package counterhdr converts a [counter.Snapshot] into an HdrHistogram of
// github.com/HdrHistogram/hdrhistogram-go, from the Snapshot's buckets
// rather than from raw spans: a reporter reads an interval with
// [counter.Histogram.Interval] and hands the Snapshot on to code that reads
// HdrHistograms, or adds it to one HdrHistogram kept across intervals.
//
// The conversions count the spans at the values of [export.Values]: the
// smallest and largest span exactly, and the other spans of each bucket at
// its middle, each within [counter.QuantileError] of the spans it stands
// for. Negative spans and spans that changed CPU, which a Snapshot counts
// apart, are in no HdrHistogram made here; read them with
// [counter.Snapshot.Negative] and [counter.Snapshot.Migrated].
//
// It is a module of its own, so that only the programs that import it get
// HdrHistogram in their go.mod.
package counterhdr

import (
	"math"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// ToHDR returns a new HdrHistogram holding the snapshot's spans, in ticks, at
// sigfigs significant figures (HdrHistogram forces it into 1 to 5). Its range
// is 1 to just above s.Max(), so it is as small as the snapshot allows;
// to add snapshots to one HdrHistogram of a wider range, use [AddToHDR]. The
// HdrHistogram's quantiles are within [counter.QuantileError] plus its own
// error (HdrHistogram reports the top of its bucket, less than 2⁻¹⁰ above the
// value at 3 figures and 2⁻⁷ at 2) of the exact spans', and its minimum and
// maximum are those HdrHistogram reports after a RecordValue of each span.
func ToHDR(s *counter.Snapshot, sigfigs int) *hdrhistogram.Histogram {
	if s == nil {
		panic("counterhdr: ToHDR: a nil *counter.Snapshot; pass the one an Interval filled")
	}
	highest := int64(s.Max())
	if highest < math.MaxInt64 {
		// HdrHistogram may leave its highest trackable value itself out.
		highest++
	}
	h := hdrhistogram.New(1, max(highest, 2), sigfigs)
	AddToHDR(h, s)
	return h
}

// AddToHDR adds the snapshot's spans to h, in ticks, with one RecordValues
// call for each of [export.Values], at most two more than the snapshot has
// buckets. It returns how many spans h could not record because their value
// is past h's range; those are left out of h (all of them, for the zero
// HdrHistogram, which has no range).
func AddToHDR(h *hdrhistogram.Histogram, s *counter.Snapshot) (dropped uint64) {
	switch {
	case h == nil:
		panic("counterhdr: AddToHDR: a nil *hdrhistogram.Histogram; make one with hdrhistogram.New, or use ToHDR")
	case s == nil:
		panic("counterhdr: AddToHDR: a nil *counter.Snapshot; pass the one an Interval filled")
	}
	for v, n := range export.Values(s) {
		if h.RecordValues(int64(v), int64(n)) != nil {
			dropped += n
		}
	}
	return dropped
}
