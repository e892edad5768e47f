package byvalues

import (
	"slices"
	"testing"

	"github.com/tickstamp/counter/internal/race"
)

// contents returns the Ts of t, in order, with whether this round found
// each.
func contents(t *Table[string]) (vs []string, found []bool) {
	for v, ok := range t.All() {
		vs = append(vs, v)
		found = append(found, ok)
	}
	return vs, found
}

// TestTable: Find finds what Add added by equal values only, sets that
// would join into one string told apart; a round's Sweep drops what the
// round did not find but what keep holds, and a series found again after
// its drop is new.
func TestTable(t *testing.T) {
	var tab Table[string]
	sets := [][]string{{"a", "bc"}, {"ab", "c"}, {"abc", ""}, {"", "abc"}, {"a\xff", ""}, {"a", "\xff"}}
	tab.Begin()
	for _, s := range sets {
		if v, ok := tab.Find(s); ok {
			t.Fatalf("Find%q = %q in an empty table", s, v)
		}
		tab.Add(s, s[0]+"|"+s[1])
	}
	for _, s := range sets {
		if v, ok := tab.Find(s); !ok || v != s[0]+"|"+s[1] {
			t.Errorf("Find%q = %q, %v; want its own", s, v, ok)
		}
	}
	if tab.Len() != len(sets) {
		t.Errorf("Len = %d; want %d", tab.Len(), len(sets))
	}

	// A round that finds the first two; keep holds the fourth.
	tab.Begin()
	tab.Find(sets[0])
	tab.Find(sets[1])
	vs, found := contents(&tab)
	if !slices.Equal(found, []bool{true, true, false, false, false, false}) || vs[0] != "a|bc" {
		t.Errorf("All = %q, %v before the sweep", vs, found)
	}
	tab.Sweep(func(v string) bool { return v == "|abc" })
	vs, _ = contents(&tab)
	if want := []string{"a|bc", "ab|c", "|abc"}; !slices.Equal(vs, want) {
		t.Errorf("after the sweep All = %q; want %q", vs, want)
	}
	if _, ok := tab.Find(sets[2]); ok {
		t.Error("a set swept is still found")
	}
	tab.Add(sets[2], "new")
	tab.Sweep(nil)
	vs, _ = contents(&tab)
	if want := []string{"a|bc", "ab|c", "new"}; !slices.Equal(vs, want) {
		t.Errorf("after a second sweep All = %q; want %q", vs, want)
	}
}

// TestFindAllocates: Find allocates nothing once its key has room.
func TestFindAllocates(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector makes calls allocate")
	}
	var tab Table[int]
	tab.Add([]string{"GET", "/users"}, 1)
	values := []string{"GET", "/users"}
	tab.Find(values)
	if n := testing.AllocsPerRun(100, func() { tab.Find(values) }); n != 0 {
		t.Errorf("Find allocates %v times; want 0", n)
	}
}
