package counter

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// checkClean reports how cleanValue's result for v breaks its contract:
// valid UTF-8 of at most MaxValueLen bytes; strings.ToValidUTF8's result
// where that fits, and otherwise a prefix of it at a rune boundary
// followed by the cut mark, as long as fits.
func checkClean(t *testing.T, v string) {
	t.Helper()
	got := cleanValue(v)
	want := strings.ToValidUTF8(v, "\uFFFD")
	switch {
	case !utf8.ValidString(got):
		t.Errorf("cleanValue(%.40q…) = %.40q…, not UTF-8", v, got)
	case len(got) > MaxValueLen:
		t.Errorf("cleanValue(%.40q…) is %d bytes; want at most %d", v, len(got), MaxValueLen)
	case len(want) <= MaxValueLen:
		if got != want {
			t.Errorf("cleanValue(%.40q…) = %.40q…; want %.40q…", v, got, want)
		}
	default:
		kept, cut := strings.CutSuffix(got, cutMark)
		if !cut || !strings.HasPrefix(want, kept) {
			t.Errorf("cleanValue(%.40q…) = %.40q…; want a prefix of %.40q… and %q", v, got, want, cutMark)
			return
		}
		// The longest such prefix: the next rune would not fit.
		_, n := utf8.DecodeRuneInString(want[len(kept):])
		if len(kept)+n+len(cutMark) <= MaxValueLen {
			t.Errorf("cleanValue(%.40q…) keeps %d bytes; the next rune fits", v, len(kept))
		}
	}
}

// TestCleanValue: label values are made valid UTF-8 of at most
// MaxValueLen bytes, as checkClean says, at each edge of the cut.
func TestCleanValue(t *testing.T) {
	a := func(n int) string { return strings.Repeat("a", n) }
	for _, tc := range []struct {
		name, v, want string
	}{
		{"empty", "", ""},
		{"valid", "GET /r", "GET /r"},
		{"an invalid byte", "a\xffb", "a\uFFFDb"},
		{"a run of invalid bytes", "a\xff\xfe\xc0b", "a\uFFFDb"},
		{"a rune cut short", "a\xe2\x80", "a\uFFFD"},
		{"at the cap", a(MaxValueLen), a(MaxValueLen)},
		{"one past the cap", a(MaxValueLen + 1), a(MaxValueLen-len(cutMark)) + cutMark},
		{"64 KB", a(64 << 10), a(MaxValueLen-len(cutMark)) + cutMark},
		{"two-byte runes past the cap", strings.Repeat("é", MaxValueLen), strings.Repeat("é", (MaxValueLen-len(cutMark))/2) + cutMark},
		{"an invalid byte that makes it long", a(MaxValueLen-1) + "\xff", a(MaxValueLen-len(cutMark)) + cutMark},
		{"invalid and long", "\xff" + a(2*MaxValueLen), "\uFFFD" + a(MaxValueLen-len(cutMark)-len("\uFFFD")) + cutMark},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := cleanValue(tc.v); got != tc.want {
				t.Errorf("got %.40q… (%d bytes); want %.40q… (%d bytes)", got, len(got), tc.want, len(tc.want))
			}
			checkClean(t, tc.v)
		})
	}
}

// FuzzCleanValue compares cleanValue with strings.ToValidUTF8 on any
// value (checkClean).
func FuzzCleanValue(f *testing.F) {
	f.Add("a\xffb")
	f.Add(strings.Repeat("é\xff", MaxValueLen/2))
	f.Add(strings.Repeat("\U0001F600", MaxValueLen/4) + "\xf0\x9f")
	f.Fuzz(checkClean)
}

// TestFamilyCleansValues: a set with a value that is not UTF-8 or is
// longer than MaxValueLen gets the series of its clean values, which is
// what Interval visits, and a set of clean values has its own series, as
// before.
func TestFamilyCleansValues(t *testing.T) {
	f := mustFamily(t, []string{"route", "agent"}, 0)
	long := strings.Repeat("x", MaxValueLen+10)
	h := f.With("a\xff", long+"1")
	for _, same := range [][]string{{"a\uFFFD", long + "1"}, {"a\xfe\xfd", long + "2"}, {"a\uFFFD", cleanValue(long)}} {
		if got, err := f.Get(same...); err != nil || got != h {
			t.Errorf("Get(%.20q…) = %p, %v; want %p, the series of %.20q…", same, got, err, h, []string{"a\xff", long + "1"})
		}
	}
	if f.With("a", "b") == h {
		t.Error("clean values share the series of unclean ones")
	}
	if f.Len() != 2 {
		t.Errorf("Len = %d; want 2", f.Len())
	}
	var visited [][]string
	f.Interval(func(values []string, _ *Snapshot) {
		visited = append(visited, append([]string(nil), values...))
	})
	want := [][]string{{"a\uFFFD", cleanValue(long)}, {"a", "b"}}
	if len(visited) != len(want) {
		t.Fatalf("visited %d series; want %d", len(visited), len(want))
	}
	for i, values := range visited {
		for j, v := range values {
			if v != want[i][j] {
				t.Errorf("series %d's value %d is %.40q…; want %.40q…", i, j, v, want[i][j])
			}
		}
	}
}
