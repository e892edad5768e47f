package counter_test

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tickstamp/counter"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/draw")

// drawCases are the distributions the golden files hold, each recorded
// through a Recorder at 2.3 GHz.
var drawCases = []struct {
	name   string
	record func(r *counter.Recorder)
}{
	{"empty", func(*counter.Recorder) {}},
	{"zero", func(r *counter.Recorder) { r.Record(0) }},
	{"one", func(r *counter.Recorder) { r.Record(2300) }},
	{"exponential", func(r *counter.Recorder) {
		rng := rand.New(rand.NewPCG(1, 2))
		for range 100_000 {
			r.Record(counter.Tickdelta(2300 + rng.ExpFloat64()*3000))
		}
		r.Record(5_000_000) // one outlier, 2.17 ms
	}},
	{"bimodal, spans apart", func(r *counter.Recorder) {
		rng := rand.New(rand.NewPCG(3, 4))
		for i := range 50_000 {
			d := 115 + rng.ExpFloat64()*40 // about 50 ns
			if i%5 == 0 {
				d = 230_000 + rng.NormFloat64()*20_000 // about 100 µs
			}
			r.Record(counter.Tickdelta(d))
		}
		r.Record(-7)
		r.RecordCPU(400, 0, 1)
		r.RecordCPU(500, 1, 0)
	}},
}

// TestDrawGolden draws each case and compares it with its golden file in
// testdata/draw; -update rewrites them. Every line is at most 80 columns.
func TestDrawGolden(t *testing.T) {
	rate, err := counter.NewTickRate(2_300_000_000)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range drawCases {
		t.Run(tc.name, func(t *testing.T) {
			h := counter.NewHistogram()
			r := h.Recorder()
			tc.record(r)
			r.Close()
			var s counter.Snapshot
			h.Interval(&s)
			var buf bytes.Buffer
			if err := s.Draw(&buf, rate); err != nil {
				t.Fatal(err)
			}
			for l := range strings.Lines(buf.String()) {
				if n := utf8.RuneCountInString(strings.TrimSuffix(l, "\n")); n > 80 {
					t.Errorf("a line of %d columns: %q", n, l)
				}
			}
			golden := filepath.Join("testdata", "draw", strings.ReplaceAll(strings.ReplaceAll(tc.name, ",", ""), " ", "-")+".golden")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -run TestDrawGolden -update writes it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("Draw wrote:\n%s\nwant (%s):\n%s", buf.Bytes(), golden, want)
			}
		})
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("full") }

// TestDrawReturnsWritersError: Draw returns the writer's error.
func TestDrawReturnsWritersError(t *testing.T) {
	var s counter.Snapshot
	if err := s.Draw(failingWriter{}, counter.TickRate{}); err == nil || err.Error() != "full" {
		t.Fatalf("Draw returned %v; want the writer's error", err)
	}
}

// TestSummaryString checks the one-line summaries, of time and of ticks.
func TestSummaryString(t *testing.T) {
	rate, _ := counter.NewTickRate(1_000_000_000)
	h := counter.NewHistogram()
	r := h.Recorder()
	for i := range 1000 {
		r.Record(counter.Tickdelta(1000 + i))
	}
	r.Record(-1)
	r.RecordCPU(5, 0, 1)
	r.Close()
	var s counter.Snapshot
	h.Interval(&s)
	for _, tc := range []struct{ got, want string }{
		{s.Summary(rate).String(), "1000 spans: mean 1.5µs, p50 1.5µs, p90 1.9µs, p99 1.99µs, p99.9 2µs, max 2µs, 1 negative, 1 migrated"},
		{s.String(), "1000 spans: mean 1500 ticks, p50 1500 ticks, p90 1900 ticks, p99 1988 ticks, p99.9 1996 ticks, max 1999 ticks, 1 negative, 1 migrated"},
		{new(counter.Snapshot).Summary(rate).String(), "no spans"},
		{new(counter.Snapshot).String(), "no spans"},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %q\nwant %q", tc.got, tc.want)
		}
	}
}
