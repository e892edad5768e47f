package countertest

import (
	"flag"
	"math"
	"strings"
	"testing"

	"github.com/tickstamp/counter"
)

// snapshot returns the distribution of spans.
func snapshot(spans ...counter.Tickdelta) *counter.Snapshot {
	h := counter.NewHistogram()
	for _, d := range spans {
		h.Record(d)
	}
	var s counter.Snapshot
	h.Interval(&s)
	return &s
}

// oneToHundred returns the spans of 1 to 100 ticks, then extra.
func oneToHundred(extra ...counter.Tickdelta) []counter.Tickdelta {
	var spans []counter.Tickdelta
	for d := range counter.Tickdelta(100) {
		spans = append(spans, d+1)
	}
	return append(spans, extra...)
}

// benchmarkOnce runs f as a benchmark of one iteration, with
// -test.benchtime set to 1x for the call, and returns its result.
func benchmarkOnce(t *testing.T, f func(*testing.B)) testing.BenchmarkResult {
	t.Helper()
	bt := flag.Lookup("test.benchtime")
	if bt == nil {
		t.Fatal("no -test.benchtime flag to set the iteration count with")
	}
	old := bt.Value.String()
	if err := bt.Value.Set("1x"); err != nil {
		t.Fatal(err)
	}
	defer bt.Value.Set(old)
	return testing.Benchmark(f)
}

// TestReport checks the figures Bench reports from a known distribution:
// the median, the 99th percentile and the maximum less the floor's median,
// the exact mean less the floor's trimmed mean, each in nanoseconds at the
// rate; negative spans left out; and 0 for a figure the floor exceeds.
func TestReport(t *testing.T) {
	rate, err := counter.NewTickRate(2_000_000_000) // half a nanosecond a tick
	if err != nil {
		t.Fatal(err)
	}
	spans := oneToHundred(250, -7, -3000) // 101 spans, exact below 256 ticks, and two negative
	for _, tc := range []struct {
		name             string
		floor            counter.Tickdelta
		floorMean        float64
		p50, p99, max, m float64
	}{
		// p50 is the 51st of 101 spans, p99 the 100th; the mean 5300/101.
		{"floor", 5, 4.5, (51 - 5) / 2.0, (100 - 5) / 2.0, (250 - 5) / 2.0, (5300.0/101 - 4.5) / 2},
		{"no floor", 0, 0, 51 / 2.0, 100 / 2.0, 250 / 2.0, 5300.0 / 101 / 2},
		{"floor above all", 300, 1000, 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := snapshot(spans...)
			r := benchmarkOnce(t, func(b *testing.B) { report(b, s, tc.floor, tc.floorMean, rate) })
			for unit, want := range map[string]float64{unitP50: tc.p50, unitP99: tc.p99, unitMax: tc.max, unitMean: tc.m} {
				if got, ok := r.Extra[unit]; !ok || math.Abs(got-want) > 1e-9 {
					t.Errorf("%s = %v (reported %v); want %v", unit, got, ok, want)
				}
			}
			if len(r.Extra) != 4 {
				t.Errorf("metrics %v; want the four units only", r.Extra)
			}
		})
	}
}

// TestFloorOf checks the floor taken off: the median of the empty spans,
// and their mean up to the 99th percentile, which leaves out the few an
// interrupt stretched, each counted as the middle of its bucket.
func TestFloorOf(t *testing.T) {
	median, mean := floorOf(snapshot(oneToHundred(100_000)...))
	if median != 51 {
		t.Errorf("median %d; want 51, the 51st of 101 spans", median)
	}
	if want := 5050.0 / 100; mean != want {
		t.Errorf("trimmed mean %v; want %v, the mean of 1 to 100 without the 100000-tick span", mean, want)
	}

	// 99 spans of 1000 ticks, in a bucket wider than a tick, and an outlier:
	// the trimmed mean is the middle of that bucket.
	spans := make([]counter.Tickdelta, 99, 100)
	for i := range spans {
		spans[i] = 1000
	}
	s := snapshot(append(spans, 100_000)...)
	var want float64
	for b := range s.Buckets() {
		if b.Min <= 1000 && 1000 <= b.Max {
			if b.Max == b.Min {
				t.Fatalf("the bucket of 1000 ticks, %+v, is one tick wide: nothing to check", b)
			}
			want = float64(b.Min + (b.Max-b.Min+1)/2)
		}
	}
	if _, mean := floorOf(s); mean != want {
		t.Errorf("trimmed mean %v; want %v, the middle of the bucket of 1000 ticks", mean, want)
	}
	if _, mean := floorOf(snapshot()); mean != 0 {
		t.Errorf("trimmed mean of nothing %v; want 0", mean)
	}
}

// TestFloorSpans checks that the floor is as many spans as counter.Floor
// takes, as Bench's doc says.
func TestFloorSpans(t *testing.T) {
	var s counter.Snapshot
	clock().Floor(counter.BeginEnd, &s)
	if n := s.Count() + s.Negative() + s.Migrated(); n != counter.FloorSpans {
		t.Errorf("counter.Floor takes %d spans; Bench's floor %d", n, counter.FloorSpans)
	}
}

// TestPicture checks the histogram Bench logs under go test -v: a line that
// names the floor, then Snapshot.Draw's picture of the spans.
func TestPicture(t *testing.T) {
	rate, err := counter.NewTickRate(1_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	s := snapshot(oneToHundred()...)
	got := picture(s, 20, rate)
	var want strings.Builder
	want.WriteString("the spans as read, each with the reads' floor of about 20ns in it:\n")
	s.Draw(&want, rate)
	if got != strings.TrimSuffix(want.String(), "\n") {
		t.Errorf("picture:\n%s\nwant:\n%s", got, want.String())
	}
}
