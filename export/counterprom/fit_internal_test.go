package counterprom

import (
	"slices"
	"testing"
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
