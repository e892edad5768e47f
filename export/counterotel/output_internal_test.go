package counterotel

import (
	"slices"
	"testing"

	"github.com/tickstamp/counter/internal/inlining"
)

// TestNewOutput checks newOutput's room, in one allocation or in three:
// the histograms' metrics of every group and points of every series, room
// for one point's counts in the one allocation, and none for the sums,
// which Produce appends where they have points.
func TestNewOutput(t *testing.T) {
	for _, c := range []struct{ series, groups int }{{1, 1}, {3, 1}, {2, 2}} {
		var b batch
		out, metrics := newOutput(&b, c.series, c.groups, DefaultMaxSize)
		if room := c.series == 1 && c.groups == 1; b.counts.last != 0 || room != (len(b.counts.free) == DefaultMaxSize) || !room && b.counts.free != nil {
			t.Fatalf("%+v: room for %d counts (a block of %d made); want %d", c, len(b.counts.free), b.counts.last, map[bool]int{true: DefaultMaxSize}[room])
		}
		if len(out) != 1 || len(metrics) != 0 || cap(metrics) < c.groups ||
			len(b.hists) != 0 || cap(b.hists) < c.series || b.negs != nil || b.migs != nil {
			t.Fatalf("%+v: %d ScopeMetrics, %d metrics of room %d, %d points of room %d, sums %v and %v",
				c, len(out), len(metrics), cap(metrics), len(b.hists), cap(b.hists), b.negs, b.migs)
		}
	}
	var b batch // points of more buckets than the room
	if newOutput(&b, 1, 1, DefaultMaxSize+1); b.counts.free != nil {
		t.Fatalf("room for %d counts where the points may have %d", len(b.counts.free), DefaultMaxSize+1)
	}
}

// TestRoom checks that a room's counts are zero and apart, in blocks that
// double from the first point's length up to maxBlock, or a point's length
// where it is more, and that a block is made only where the last has too
// few left.
func TestRoom(t *testing.T) {
	var r room
	var cuts [][]uint64
	blocks, want := 0, 0 // made, and the length the next one should have
	for i, n := range []int{10, 10, 15, 1, 30, 3000, 4000, 5000, 7, 4096, 1} {
		left, last := len(r.free), r.last
		c := r.take(n)
		if len(c) != n || cap(c) != n {
			t.Fatalf("take(%d): %d counts of capacity %d", n, len(c), cap(c))
		}
		if n > left {
			blocks++
			want = max(n, min(2*last, maxBlock))
			if r.last != want || len(r.free) != want-n {
				t.Fatalf("take(%d) with %d left: a block of %d, %d left; want %d, %d", n, left, r.last, len(r.free), want, want-n)
			}
		} else if r.last != last || len(r.free) != left-n {
			t.Fatalf("take(%d) with %d left: a block of %d made, %d left; want none, %d", n, left, r.last, len(r.free), left-n)
		}
		for k := range c {
			if c[k] != 0 {
				t.Fatalf("take(%d): count %d is %d", n, k, c[k])
			}
			c[k] = uint64(i + 1)
		}
		cuts = append(cuts, c)
	}
	for i, c := range cuts {
		for k, v := range c {
			if v != uint64(i+1) {
				t.Fatalf("cut %d, count %d: %d, written over by cut %d", i, k, v, v-1)
			}
		}
	}
	// 10, 20 (10 and 15 of it), 40 (1), 80 (30), 3000, 4096, 5000, 4096 (7),
	// 4096, 4096.
	if blocks != 10 {
		t.Errorf("%d blocks, want 10", blocks)
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
