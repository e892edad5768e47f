package export

import (
	"strconv"
	"testing"

	"github.com/tickstamp/counter"
)

// TestFamilyFeedMemory holds what FamilyFeed's doc says it keeps: a
// FamilyTap holds a Snapshot only for the series whose spans another Tap's
// Interval took since its own, and none after its own; the FamilyFeed
// keeps the series the Family visits, drops those it forgot once no Tap
// holds spans of them, and keeps at most one spare Snapshot a series.
func TestFamilyFeedMemory(t *testing.T) {
	f, err := counter.NewFamily([]string{"k"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.ForgetIdle(1); err != nil {
		t.Fatal(err)
	}
	ff, err := NewFamilyFeed(f)
	if err != nil {
		t.Fatal(err)
	}
	a, b := ff.Tap(), ff.Tap()
	visit := func([]string, *counter.Snapshot) {}
	const sets = 100
	for i := range sets {
		f.With(strconv.Itoa(i)).Record(counter.Tickdelta(i + 1))
	}
	f.With("busy").Record(1)
	a.Interval(visit)
	if len(a.pending) != 0 || len(b.pending) != sets+1 {
		t.Errorf("after a's Interval, a holds %d pending Snapshots and b %d; want 0 and %d", len(a.pending), len(b.pending), sets+1)
	}
	// b's take finds the sets idle, and the Family forgets them; b visits
	// them once more with the spans it held.
	f.With("busy").Record(1)
	b.Interval(visit)
	if len(a.pending) != 1 || len(b.pending) != 0 {
		t.Errorf("after b's Interval, a holds %d pending Snapshots and b %d; want 1 (busy) and 0", len(a.pending), len(b.pending))
	}
	// The Family forgot them at the end of b's take, which visited them
	// empty; the next take does not visit them, and no Tap holds spans
	// of them.
	b.Close()
	a.Interval(visit)
	if len(a.pending) != 0 || len(b.pending) != 0 {
		t.Errorf("after b's Close and a's Interval, a holds %d pending Snapshots and b %d; want none", len(a.pending), len(b.pending))
	}
	if n := ff.series.Len(); n != 1 {
		t.Errorf("the FamilyFeed keeps %d series; want 1, the one the Family still has", n)
	}
	if n := len(ff.spare); n > ff.series.Len()+1 {
		t.Errorf("the FamilyFeed keeps %d spare Snapshots for %d series; want one a series at most", n, ff.series.Len())
	}
}
