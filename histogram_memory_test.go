package counter

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/tickstamp/counter/internal/handover"
)

// TestMemoryFiguresInDocs holds the memory figures the distribution docs
// state to the sizes the constants make: a tally of about 29 KB, which Go
// allocates in its 32 KB size class, and a Snapshot of about 58 KB.
func TestMemoryFiguresInDocs(t *testing.T) {
	tally := int(unsafe.Sizeof(handover.Tally{}))
	snapshot := int(unsafe.Sizeof(Snapshot{}))
	kb := func(n int) string { return strconv.Itoa((n+500)/1000) + " KB" }
	for _, tc := range []struct {
		what, figure, want string
		files              []string
	}{
		{"a tally", kb(tally), "29 KB", []string{"histogram.go", "histogram_recorder.go"}},
		{"a Snapshot", kb(snapshot), "58 KB", []string{"histogram.go", "histogram_snapshot.go", "export/feed.go", "export/counterotel/doc.go"}},
	} {
		if tc.figure != tc.want {
			t.Errorf("%s is about %s; the docs say %s", tc.what, tc.figure, tc.want)
		}
		for _, f := range tc.files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), tc.want) {
				t.Errorf("%s no longer says %s for %s", f, tc.want, tc.what)
			}
		}
	}
	if tally <= 28<<10 || tally > 32<<10 {
		t.Errorf("a tally is %d bytes; histogram_recorder.go says it takes Go's 32 KB size class", tally)
	}
}
