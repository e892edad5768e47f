package counter

import (
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/tickstamp/counter/internal/handover"
	"github.com/tickstamp/counter/internal/race"
	"pgregory.net/rapid"
)

// Internal tests of the histogram: the exact rank, the locks, and the
// Histogram's memory over many Intervals. internal/handover tests the
// hand-over itself and the buckets.

// TestRankIsExact checks rank against big arithmetic for any double and
// count: ⌈q·n⌉ for q read as the shortest decimal that rounds to it.
func TestRankIsExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := rapid.OneOf(rapid.Float64Range(0, 1), rapid.SampledFrom([]float64{0, 0.5, 0.99, 0.999, 1, 1e-300, math.SmallestNonzeroFloat64, math.Nextafter(1, 0), 1.0 / 3, math.NaN(), -1, 2, math.Inf(1)})).Draw(t, "q")
		n := rapid.OneOf(rapid.Uint64Range(1, 1000), rapid.Uint64Range(1, math.MaxUint64), rapid.SampledFrom([]uint64{1, 2, 3, 100, 1 << 53, 1<<53 + 1, math.MaxUint64})).Draw(t, "n")
		if got, want := rank(q, n), decimalRank(q, n); got != want {
			t.Fatalf("rank(%v, %d) = %d; want %d", q, n, got, want)
		}
	})
}

// decimalRank is ⌈q·n⌉ within 1 to n, in big arithmetic, for q read as
// the decimal strconv prints for it.
func decimalRank(q float64, n uint64) uint64 {
	if !(q > 0) {
		return 1
	}
	if q >= 1 {
		return n
	}
	p, _ := new(big.Rat).SetString(strconv.FormatFloat(q, 'g', -1, 64))
	p.Mul(p, new(big.Rat).SetInt(new(big.Int).SetUint64(n)))
	r := new(big.Int).Quo(p.Num(), p.Denom())
	if !p.IsInt() {
		r.Add(r, big.NewInt(1))
	}
	return min(max(r.Uint64(), 1), n)
}

// TestRankOfDecimals checks rank against integer arithmetic alone for the
// quantiles people write: q = m/10ᵈ for d up to 6, and n up to 10⁹. The
// rank is ⌈m·n/10ᵈ⌉: so 0.9 of 1,000 is the 900th, 0.9999 of 10,000 the
// 9,999th, and 0.5 of 3 the 2nd.
func TestRankOfDecimals(t *testing.T) {
	for _, tc := range []struct {
		q    float64
		n    uint64
		want uint64
	}{
		{0.9, 1000, 900}, {0.9999, 10000, 9999}, {0.5, 3, 2}, {0.1, 10, 1},
		{0.4, 5, 2}, {0.8, 5, 4}, {0.99, 100, 99}, {0.999, 1000, 999},
	} {
		if got := rank(tc.q, tc.n); got != tc.want {
			t.Errorf("rank(%v, %d) = %d; want %d", tc.q, tc.n, got, tc.want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.IntRange(0, 6).Draw(t, "d")
		scale := uint64(1)
		for range d {
			scale *= 10
		}
		m := rapid.Uint64Range(0, scale).Draw(t, "m")
		n := rapid.OneOf(rapid.Uint64Range(1, 1000), rapid.Uint64Range(1, 1_000_000_000)).Draw(t, "n")
		q := float64(m) / float64(scale) // the double nearest m/10ᵈ
		want := (m*n + scale - 1) / scale
		want = min(max(want, 1), n)
		if got := rank(q, n); got != want {
			t.Fatalf("rank(%d/%d, %d) = %d; want %d", m, scale, n, got, want)
		}
	})
}

// TestHistogramLocks: a Histogram adds at most 4·GOMAXPROCS locks rounded
// up to a power of two, at least 8 and at most 1024; it has none before
// its first record, and any goroutine's key then finds one.
func TestHistogramLocks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range []struct{ procs, want int }{{1, 8}, {2, 8}, {3, 16}, {5, 32}, {64, 256}, {300, 1024}} {
		runtime.GOMAXPROCS(tc.procs)
		h := NewHistogram()
		if h.most != tc.want || h.shardCount() != 0 {
			t.Errorf("GOMAXPROCS %d: at most %d locks, %d before a record; want %d and 0", tc.procs, h.most, h.shardCount(), tc.want)
		}
		for _, key := range []uintptr{0, 1, 12345, ^uintptr(0)} {
			h.lockFor(key).mu.Unlock()
		}
		if h.shardCount() != 1 {
			t.Errorf("GOMAXPROCS %d: %d locks after records one at a time; want 1", tc.procs, h.shardCount())
		}
	}
}

// TestSpansApartCountedOnce: negative and migrated spans, which never enter
// the distribution, are each in exactly one Interval like every other span,
// also when a closed Recorder counts them (it attaches itself again).
func TestSpansApartCountedOnce(t *testing.T) {
	h := NewHistogram()
	r := h.Recorder()
	var s Snapshot
	for _, tc := range []struct {
		name     string
		before   func() // what happens to r before it records
		negative bool   // whether it records a negative span, first
	}{
		{"attached", func() {}, true},
		{"closed", r.Close, true},
		{"closed, then a migrated span first", r.Close, false},
	} {
		tc.before()
		var wantNeg uint64
		if tc.negative {
			r.Record(-5)
			wantNeg = 1
		}
		r.RecordCPU(3, 0, 1)
		h.Interval(&s)
		if s.Count() != 0 || s.Negative() != wantNeg || s.Migrated() != 1 {
			t.Fatalf("%s: count %d, negative %d, migrated %d; want 0, %d, 1", tc.name, s.Count(), s.Negative(), s.Migrated(), wantNeg)
		}
		h.Interval(&s)
		if s.Count() != 0 || s.Negative() != 0 || s.Migrated() != 0 {
			t.Fatalf("%s: the next Interval has count %d, negative %d, migrated %d; want none", tc.name, s.Count(), s.Negative(), s.Migrated())
		}
	}
}

// TestIntervalsTakeNoMemory records and takes Intervals again and again,
// with a Recorder closed and used again before: the Histogram's
// tallies stay as many as its writers need, and recording and Intervals
// allocate nothing once they exist, as long as no writer sits out two
// Intervals in a row after a record (which lets its tally go:
// TestIdleWriterLetsGo). (The first span after Close may take a tally, as
// the Recorder's doc says.)
func TestIntervalsTakeNoMemory(t *testing.T) {
	h := NewHistogram()
	rs := []*Recorder{h.Recorder(), h.Recorder()}
	var s Snapshot
	h.Interval(&s)
	tallies := func() int { return h.c.Spares() + len(rs) }
	reopen := func() {
		rs[1].Close()
		rs[1].Record(8) // lists itself again
	}
	round := func() {
		for range 10 {
			rs[0].Record(5)
		}
		h.Record(6)
		rs[1].Record(7)
		h.Interval(&s)
		rs[0].Record(9)
		h.Interval(&s) // rs[1] and the shard sit this one out
	}
	for range 20 { // past the spans a new Recorder spills
		reopen()
		round()
	}
	for range 3 {
		round() // until each writer has had its tally taken again
	}
	before := tallies()
	if allocs := testing.AllocsPerRun(50, round); allocs != 0 && !race.Enabled {
		t.Errorf("a round allocates %v times; want 0", allocs)
	}
	if got := tallies(); got > h.c.Listed()+len(rs) {
		t.Errorf("%d tallies after 50 rounds, %d before them; want at most one a writer and one a Recorder", got, before)
	}
}

// TestZeroValuesSayWhatIsWrong checks that a zero Recorder and a zero
// Histogram panic with a message that says how to get a usable one.
func TestZeroValuesSayWhatIsWrong(t *testing.T) {
	for _, tc := range []struct {
		name string
		use  func()
		want string
	}{
		{"Recorder", func() { new(Recorder).Record(1) }, "counter: the zero Recorder has no Histogram: get one from Histogram.Recorder"},
		{"Recorder.Close", func() { new(Recorder).Close() }, "counter: the zero Recorder has no Histogram: get one from Histogram.Recorder"},
		{"Histogram", func() { new(Histogram).Record(1) }, "counter: the zero Histogram has no shards: make one with NewHistogram"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if got := recover(); got != tc.want {
					t.Errorf("panicked with %v; want %q", got, tc.want)
				}
			}()
			tc.use()
		})
	}
}

// TestSnapshotAgainstSortedSamples records random spans and checks every
// figure of the snapshot against the sorted samples.
func TestSnapshotAgainstSortedSamples(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spans := rapid.SliceOfN(spanGen(), 0, 3000).Draw(t, "spans")
		h := NewHistogram()
		r := h.Recorder()
		for i, d := range spans {
			if i%3 == 0 {
				h.Record(d)
			} else {
				r.Record(d)
			}
		}
		r.Close()
		var s Snapshot
		h.Interval(&s)
		checkSnapshot(t, &s, spans)
		for _, q := range rapid.SliceOfN(rapid.Float64Range(0, 1), 1, 10).Draw(t, "qs") {
			checkQuantile(t, &s, spans, q)
		}
	})
}

// spanGen draws spans over the whole range, with the edges and the small
// exact spans forced often, and a few negative ones.
func spanGen() *rapid.Generator[Tickdelta] {
	return rapid.Custom(func(t *rapid.T) Tickdelta {
		return Tickdelta(rapid.OneOf(
			rapid.Int64Range(0, 300),
			rapid.Int64Range(0, 1e7),
			rapid.Int64Range(0, math.MaxInt64),
			rapid.SampledFrom([]int64{0, 255, 256, 257, 511, 512, 1e9, math.MaxInt64, math.MaxInt64 - 1, -1, math.MinInt64}),
			rapid.Int64Range(math.MinInt64, -1),
		).Draw(t, "span"))
	})
}

// checkSnapshot checks count, sum, mean, bounds and the negatives of s
// against the spans recorded into it.
func checkSnapshot(t rapid.TB, s *Snapshot, spans []Tickdelta) {
	t.Helper()
	var kept []Tickdelta
	var negative uint64
	sum := new(big.Int)
	for _, d := range spans {
		if d < 0 {
			negative++
			continue
		}
		kept = append(kept, d)
		sum.Add(sum, big.NewInt(int64(d)))
	}
	slices.Sort(kept)
	if s.Count() != uint64(len(kept)) || s.Negative() != negative {
		t.Fatalf("count %d, negative %d; want %d and %d", s.Count(), s.Negative(), len(kept), negative)
	}
	var bucketed uint64
	for b := range s.Buckets() {
		if b.Min > b.Max || b.Count == 0 {
			t.Fatalf("bucket %+v is empty or upside down", b)
		}
		bucketed += b.Count
	}
	if bucketed != s.Count() {
		t.Fatalf("the buckets hold %d spans; want the count, %d", bucketed, s.Count())
	}
	if len(kept) == 0 {
		if s.Min() != 0 || s.Max() != 0 || s.Sum() != 0 || s.Mean() != 0 || s.Quantile(0.5) != 0 {
			t.Fatal("an empty snapshot reports a span other than 0")
		}
		return
	}
	if s.Min() != kept[0] || s.Max() != kept[len(kept)-1] {
		t.Fatalf("min %d, max %d; want %d and %d", s.Min(), s.Max(), kept[0], kept[len(kept)-1])
	}
	wantSum := maxTickdelta
	if sum.IsInt64() {
		wantSum = Tickdelta(sum.Int64())
	}
	if s.Sum() != wantSum {
		t.Fatalf("sum %d; want %d (exact %s)", s.Sum(), wantSum, sum)
	}
	// The mean, rounded to nearest with halves up: ⌊(2·sum + n) / 2n⌋.
	n := big.NewInt(int64(len(kept)))
	mean := new(big.Int).Lsh(sum, 1)
	mean.Add(mean, n)
	mean.Quo(mean, new(big.Int).Lsh(n, 1))
	if s.Mean() != Tickdelta(mean.Int64()) {
		t.Fatalf("mean %d; want %s", s.Mean(), mean)
	}
}

// checkQuantile checks that s.Quantile(q) is within QuantileError of the
// ⌈q·n⌉-th smallest of the non-negative spans, and exact below 256 ticks and
// at both ends.
func checkQuantile(t rapid.TB, s *Snapshot, spans []Tickdelta, q float64) {
	t.Helper()
	var kept []Tickdelta
	for _, d := range spans {
		if d >= 0 {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 {
		return
	}
	slices.Sort(kept)
	r := decimalRank(q, uint64(len(kept)))
	want := kept[r-1]
	got := s.Quantile(q)
	if want < 2*handover.SubBuckets || r == 1 || r == uint64(len(kept)) {
		if got != want {
			t.Fatalf("Quantile(%v) = %d; want exactly %d, the %d-th of %d", q, got, want, r, len(kept))
		}
		return
	}
	diff := new(big.Rat).SetFrac(new(big.Int).Abs(big.NewInt(int64(got-want))), big.NewInt(int64(want)))
	if diff.Cmp(new(big.Rat).SetFloat64(QuantileError)) > 0 {
		t.Fatalf("Quantile(%v) = %d, %s from %d (the %d-th of %d); want within %v", q, got, diff.FloatString(6), want, r, len(kept), QuantileError)
	}
}

// TestMergeIsRecordingTogether checks that merging two snapshots gives the
// snapshot of recording both sets of spans into one.
func TestMergeIsRecordingTogether(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.SliceOfN(spanGen(), 0, 500).Draw(t, "a")
		b := rapid.SliceOfN(spanGen(), 0, 500).Draw(t, "b")
		var sa, sb Snapshot
		sa.Reset() // record needs a Snapshot that has been Reset

		sb.Reset()
		for _, d := range a {
			sa.addSpan(d)
		}
		for _, d := range b {
			sb.addSpan(d)
		}
		var m Snapshot // the zero Snapshot merges too
		m.Merge(&sa)
		m.Merge(&sb)
		all := append(slices.Clone(a), b...)
		checkSnapshot(t, &m, all)
		checkQuantile(t, &m, all, rapid.Float64Range(0, 1).Draw(t, "q"))
	})
}

// TestQuantileErrorMeasured records a million spans spread evenly in the
// logarithm over 30 to 10⁹ ticks and compares 999 quantiles with the exact
// order statistics: the largest relative error must stay within
// QuantileError, and the test logs it, with the mean.
func TestQuantileErrorMeasured(t *testing.T) {
	const n = 1_000_000
	r := rand.New(rand.NewPCG(3, 4))
	spans := make([]Tickdelta, n)
	h := NewHistogram()
	rec := h.Recorder()
	for i := range spans {
		spans[i] = Tickdelta(30 * math.Pow(1e9/30, r.Float64()))
		rec.Record(spans[i])
	}
	rec.Close()
	var s Snapshot
	h.Interval(&s)
	slices.Sort(spans)
	var worst, sum float64
	for i := 1; i < 1000; i++ {
		q := float64(i) / 1000
		exact := spans[rank(q, n)-1]
		e := math.Abs(float64(s.Quantile(q)-exact)) / float64(exact)
		worst = max(worst, e)
		sum += e
	}
	t.Logf("999 quantiles of %d spans: relative error worst %.4f%%, mean %.4f%% (bound %.4f%%)", n, worst*100, sum/999*100, QuantileError*100)
	if worst > QuantileError {
		t.Errorf("a quantile %.4f%% off; want within %.4f%%", worst*100, QuantileError*100)
	}
}

// TestRecorderSpillsItsFirstSpans: a Recorder's spans, of every kind, go
// to the Histogram's locks until it has recorded handover.SpillMost, or an
// Interval has begun since it was made and it has recorded
// handover.SpillSpans, so that a Recorder made and dropped within an
// Interval takes no tally and no place on the Histogram's list; every
// span is in an Interval, once.
func TestRecorderSpillsItsFirstSpans(t *testing.T) {
	record := func(r *Recorder, k int) {
		switch k % 4 {
		case 0:
			r.Record(Tickdelta(k))
		case 1:
			r.Record(-1)
		case 2:
			r.RecordCPU(Tickdelta(k), 0, 1)
		default:
			r.RecordCPU(Tickdelta(k), -1, -1)
		}
	}
	for _, tc := range []struct {
		name     string
		interval bool // an Interval begins after the Recorder is made
		spill    int
	}{{"within an Interval", false, handover.SpillMost}, {"past an Interval", true, handover.SpillSpans}} {
		h := NewHistogram()
		r := h.Recorder()
		var s Snapshot
		if tc.interval {
			h.Interval(&s)
		}
		for k := range tc.spill {
			record(r, k)
		}
		if got := h.c.Listed(); got != h.shardCount() {
			t.Fatalf("%s: after %d spans a Recorder is listed (%d writers, %d locks); want it to have none yet", tc.name, tc.spill, got, h.shardCount())
		}
		r.Record(7)
		if got := h.c.Listed(); got != h.shardCount()+1 {
			t.Fatalf("%s: after %d spans: %d writers, %d locks; want the Recorder listed", tc.name, tc.spill+1, got, h.shardCount())
		}
		h.Interval(&s)
		quarter := uint64(tc.spill / 4)
		if s.Count() != 2*quarter+1 || s.Negative() != quarter || s.Migrated() != quarter || s.UnknownCPU() != quarter {
			t.Fatalf("%s: count %d, negative %d, migrated %d, unknown %d; want %d, %d, %d, %d",
				tc.name, s.Count(), s.Negative(), s.Migrated(), s.UnknownCPU(), 2*quarter+1, quarter, quarter, quarter)
		}
	}
}
