package counterprom

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestFit drives fit, the step that picks each scrape's schema, through its
// cases: no bound, a fit at the schema it starts from, halvings down to a
// fit or to −4, and a start below the buckets' own schema, which it never
// rises above however few buckets there are.
func TestFit(t *testing.T) {
	// Buckets 0 to 7 of schema 2, one span each, and 8 spans in bucket 64.
	eight := []count{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {64, 8}}
	for _, tc := range []struct {
		name       string
		in         []count
		from, at   int32
		most       int
		wantSchema int32
		want       []count
	}{
		{"no bound", eight, 2, 2, 0, 2, eight},
		{"fits", eight, 2, 2, 9, 2, eight},
		{"one halving", eight, 2, 2, 5, 1, []count{{0, 2}, {1, 2}, {2, 2}, {3, 2}, {32, 8}}},
		{"two halvings", eight, 2, 2, 4, 0, []count{{0, 4}, {1, 4}, {16, 8}}},
		{"down to -4", eight, 2, 2, 1, -4, []count{{0, 8}, {1, 8}}},
		{"from below", eight, 2, 0, 9, 0, []count{{0, 4}, {1, 4}, {16, 8}}},
		{"from below, no bound", eight, 2, -1, 0, -1, []count{{0, 8}, {8, 8}}},
		// Buckets −6 and −5 of schema 0 are bucket −3 of schema −1, and −2
		// and −1 are bucket −1: i >> 1 rounds down.
		{"negative indexes", []count{{-6, 2}, {-5, 3}, {-2, 1}, {-1, 1}}, 0, 0, 2, -1, []count{{-3, 5}, {-1, 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, schema := fit(slices.Clone(tc.in), tc.from, tc.at, tc.most)
			if schema != tc.wantSchema || !slices.Equal(got, tc.want) {
				t.Errorf("got schema %d, %v; want %d, %v", schema, got, tc.wantSchema, tc.want)
			}
		})
	}
}

// sortedCounts draws counts in increasing order of index, one an index
// where distinct, repeats allowed otherwise.
func sortedCounts(t *rapid.T, label string, distinct bool) []count {
	idx := rapid.SliceOf(rapid.Int32Range(-40, 40)).Draw(t, label)
	slices.Sort(idx)
	if distinct {
		idx = slices.Compact(idx)
	}
	out := make([]count, len(idx))
	for i, k := range idx {
		out[i] = count{k, rapid.Uint64Range(1, 9).Draw(t, label+" n")}
	}
	return out
}

// TestAddWithinThenMerge checks the two steps by which an Interval's
// native counts join a series': what addWithin adds in place and what it
// hands on to mergeCounts make, together, the counts of a plain merge of
// both lists, for series with gaps and Intervals past their ends.
func TestAddWithinThenMerge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		inner := sortedCounts(t, "inner", true)
		pending := sortedCounts(t, "pending", false)
		want := mergeCounts(nil, pending, inner)
		got := slices.Clone(inner)
		if rest := addWithin(got, slices.Clone(pending)); len(rest) > 0 {
			got = mergeCounts(nil, rest, got)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("inner %v, pending %v: got %v, want %v", inner, pending, got, want)
		}
	})
}

// TestSortCounts checks that sortCounts orders any counts as a general
// sort does, not only the nearly ordered ones of an Interval.
func TestSortCounts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		idx := rapid.SliceOf(rapid.Int32Range(-40, 40)).Draw(t, "indexes")
		counts := make([]count, len(idx))
		for i, k := range idx {
			counts[i] = count{k, uint64(i)}
		}
		want := slices.Clone(counts)
		slices.SortStableFunc(want, func(a, b count) int { return int(a.index) - int(b.index) })
		sortCounts(counts)
		if !slices.Equal(counts, want) {
			t.Fatalf("got %v, want %v", counts, want)
		}
	})
}

// TestReserveIsExact checks that reserve makes room for exactly the spans
// and deltas that adding the counts takes, so that no add allocates
// again and none of the room is wasted.
func TestReserveIsExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		counts := sortedCounts(t, "counts", true)
		var b native
		b.reserve(counts)
		spans, deltas := cap(b.slab), cap(b.deltas)
		for _, k := range counts {
			b.add(int(k.index)+1, k.n)
		}
		if len(b.slab) != spans || cap(b.slab) != spans || len(b.spans) != spans ||
			len(b.deltas) != deltas || cap(b.deltas) != deltas {
			t.Fatalf("counts %v: reserved %d spans, %d deltas; used %d (room %d), %d (room %d)",
				counts, spans, deltas, len(b.slab), cap(b.slab), len(b.deltas), cap(b.deltas))
		}
	})
}
