package counterotel

import (
	"slices"
	"testing"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tickstamp/counter/internal/inlining"
)

// TestNewOutput checks newOutput's room, in one allocation or in four: the
// metrics of every group and the points of every series, room for one
// point's counts in the one allocation, and an append of
// a point past the series counted, as a Family's series made meanwhile
// makes, moves its kind's points elsewhere and writes over no other point.
func TestNewOutput(t *testing.T) {
	for _, c := range []struct{ series, groups int }{{1, 1}, {3, 1}, {2, 2}} {
		var b batch
		out, metrics := newOutput(&b, c.series, c.groups, DefaultMaxSize)
		if room := c.series == 1 && c.groups == 1; len(b.counts) != 0 || room != (cap(b.counts) == DefaultMaxSize) || !room && b.counts != nil {
			t.Fatalf("%+v: room for %d counts (%d used); want %d", c, cap(b.counts), len(b.counts), map[bool]int{true: DefaultMaxSize}[room])
		}
		if len(out) != 1 || len(metrics) != 0 || cap(metrics) < 3*c.groups ||
			len(b.hists) != 0 || cap(b.hists) < c.series || len(b.negs) != 0 || len(b.migs) != 0 {
			t.Fatalf("%+v: %d ScopeMetrics, %d metrics of room %d, %d points of room %d, sums %d and %d",
				c, len(out), len(metrics), cap(metrics), len(b.hists), cap(b.hists), len(b.negs), len(b.migs))
		}
		for i := range c.series {
			b.hists = append(b.hists, metricdata.ExponentialHistogramDataPoint[float64]{Count: uint64(i)})
			b.negs = append(b.negs, metricdata.DataPoint[int64]{Value: int64(i)})
			b.migs = append(b.migs, metricdata.DataPoint[int64]{Value: int64(100 + i)})
		}
		negs, migs := b.negs, b.migs // as Produce cuts them for each group
		b.negs = append(b.negs, metricdata.DataPoint[int64]{Value: -1})
		b.hists = append(b.hists, metricdata.ExponentialHistogramDataPoint[float64]{Count: 99})
		for i := range c.series {
			if negs[i].Value != int64(i) || migs[i].Value != int64(100+i) || b.hists[i].Count != uint64(i) {
				t.Fatalf("%+v: point %d is %d, %d, %d after an append past the series; want %d, %d, %d",
					c, i, negs[i].Value, migs[i].Value, b.hists[i].Count, i, 100+i, i)
			}
		}
		if b.negs[c.series].Value != -1 || len(b.migs) != c.series {
			t.Fatalf("%+v: the appended negative point is %d, and %d migrated points", c, b.negs[c.series].Value, len(b.migs))
		}
	}
	var b batch // points of more buckets than the room
	if newOutput(&b, 1, 1, DefaultMaxSize+1); b.counts != nil {
		t.Fatalf("room for %d counts where the points may have %d", cap(b.counts), DefaultMaxSize+1)
	}
}

// TestInlining checks what export's docs say of the look-ups an Interval's
// buckets go through: that they inline into the loop that places them
// (tally.add), so that a bucket costs no call. A tally a Direct hands over
// goes through export.(*Ends).PlaceTaken, whose loop is its own.
func TestInlining(t *testing.T) {
	inlined := inlining.InlinedIn(inlining.Report(t), "./buckets.go")
	for _, callee := range []string{
		"export.IndexedBuckets", "export.(*Ends).Between", "export.(*Ends).inside", "export.(*Memo[go.shape.int32]).Known",
	} {
		if !slices.Contains(inlined, callee) {
			t.Errorf("%s: not reported as inlined in buckets.go by go build -gcflags=-m", callee)
		}
	}
}
