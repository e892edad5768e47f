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
	"github.com/tickstamp/counter/internal/race"
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
	rate, err := counter.NewTickRate(1_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	var s counter.Snapshot
	if err := s.Draw(failingWriter{}, rate); err == nil || err.Error() != "full" {
		t.Fatalf("Draw returned %v; want the writer's error", err)
	}
}

// TestDrawAndSummaryRefuse: at the zero TickRate, which would convert every
// span to 0, and for a nil Snapshot, Draw returns an error and writes
// nothing, and Summary panics, each with a message that names the call and
// what to pass instead; Draw refuses a nil writer too. Empty Snapshots are
// refused as well as full ones, so that the mistake shows before the
// first span.
func TestDrawAndSummaryRefuse(t *testing.T) {
	rate, err := counter.NewTickRate(1_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	full := new(counter.Snapshot)
	h := counter.NewHistogram()
	h.Record(1000)
	h.Interval(full)
	const (
		zeroRate = "at the zero TickRate, which converts every span to 0: pass the rate of the Counter that took the spans (Counter.Rate)"
		nilSnap  = "of a nil *Snapshot: pass one that Histogram.Interval filled, or a new(Snapshot)"
	)
	for _, tc := range []struct {
		name string
		s    *counter.Snapshot
		r    counter.TickRate
		want string // after "counter: Snapshot.Draw " or "counter: Snapshot.Summary "
	}{
		{"empty at the zero rate", new(counter.Snapshot), counter.TickRate{}, zeroRate},
		{"full at the zero rate", full, counter.TickRate{}, zeroRate},
		{"nil", nil, rate, nilSnap},
		{"nil at the zero rate", nil, counter.TickRate{}, nilSnap},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := tc.s.Draw(&buf, tc.r)
			if want := "counter: Snapshot.Draw " + tc.want; err == nil || err.Error() != want {
				t.Errorf("Draw: %v\nwant %s", err, want)
			}
			if buf.Len() != 0 {
				t.Errorf("Draw wrote %q; want nothing", buf.String())
			}
			func() {
				defer func() {
					r := recover()
					err, _ := r.(error)
					if want := "counter: Snapshot.Summary " + tc.want; err == nil || err.Error() != want {
						t.Errorf("Summary: panic %v\nwant %s", r, want)
					}
				}()
				tc.s.Summary(tc.r)
			}()
		})
	}
	if err := full.Draw(nil, rate); err == nil || !strings.HasPrefix(err.Error(), "counter: Snapshot.Draw to a nil io.Writer") {
		t.Errorf("Draw to a nil writer: %v; want a refusal", err)
	}
	var m counter.Summary
	if n := testing.AllocsPerRun(100, func() { m = full.Summary(rate) }); n != 0 && !race.Enabled {
		t.Errorf("Summary allocates %v times; want 0", n)
	}
	if m.Count != 1 || m.Max != 1000 {
		t.Errorf("Summary at 1 GHz: %v; want 1 span of 1µs", m)
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
