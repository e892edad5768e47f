package counterhdr_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/counterhdr"
	"github.com/tickstamp/counter/internal/spantest"
)

// quantiles are the quantiles the tests compare; 1 is the maximum.
var quantiles = []float64{0.5, 0.9, 0.99, 0.999, 1}

// sorted returns a sorted copy of spans.
func sorted(spans []counter.Tickdelta) []counter.Tickdelta {
	s := slices.Clone(spans)
	slices.Sort(s)
	return s
}

// ourRank is the rank counter.Snapshot.Quantile estimates: ⌈q·n⌉ of the
// float64 q exactly, within 1 to n.
func ourRank(q float64, n int) int {
	x := new(big.Rat).Mul(new(big.Rat).SetFloat64(q), new(big.Rat).SetInt64(int64(n)))
	r := new(big.Int).Quo(x.Num(), x.Denom()) // floor, x ≥ 0
	if !x.IsInt() {
		r.Add(r, big.NewInt(1))
	}
	return min(max(int(r.Int64()), 1), n)
}

// hdrRank is the rank HdrHistogram's ValueAtQuantile(q·100) reads, as
// hdrhistogram-go v1.1.2 computes it: q·n rounded half up, within 1 to n.
func hdrRank(q float64, n int) int {
	p := q * 100
	return min(max(int(int64(((p/100)*float64(n))+0.5)), 1), n)
}

// hdrError is HdrHistogram's relative error at sigfigs figures: its
// ValueAtQuantile is the top of a bucket whose width is at most the value
// over its sub-bucket half count, 2^(⌈log₂(2·10^sigfigs)⌉−1).
func hdrError(sigfigs int) float64 {
	return 1 / math.Exp2(math.Ceil(math.Log2(2*math.Pow10(sigfigs)))-1)
}

// within reports whether got is within rel·want of want (and both are
// integers of ticks: an error below one tick is none).
func within(got, want counter.Tickdelta, rel float64) bool {
	return math.Abs(float64(got)-float64(want)) <= rel*float64(want)
}

// TestQuantilesAgreeWithHDR feeds the same spans to HdrHistogram, one
// RecordValue each, and to a counter.Histogram, and checks that each
// library's quantiles are within its own error of the exact order statistic
// it estimates, and within both errors of each other; then that ToHDR gives
// an HdrHistogram with the same quantiles.
func TestQuantilesAgreeWithHDR(t *testing.T) {
	const n = 100_000
	const sigfigs = 3
	hdrErr := hdrError(sigfigs)
	for i, dist := range append(spantest.Distributions, spantest.Huge) {
		t.Run(dist.Name, func(t *testing.T) {
			n := dist.Size(n)
			spans := dist.Spans(rand.New(rand.NewPCG(uint64(i), 7)), n)
			exact := sorted(spans)
			hdr := hdrhistogram.New(1, math.MaxInt64, sigfigs)
			for _, d := range spans {
				if err := hdr.RecordValue(int64(d)); err != nil {
					t.Fatal(err)
				}
			}
			s := spantest.SnapshotOf(spans)
			if s.Count() != uint64(n) || hdr.TotalCount() != int64(n) {
				t.Fatalf("counts: ours %d, HDR %d, want %d", s.Count(), hdr.TotalCount(), n)
			}
			if s.Max() != exact[n-1] || s.Min() != exact[0] {
				t.Errorf("ours: min %d, max %d; exact %d, %d", s.Min(), s.Max(), exact[0], exact[n-1])
			}
			fromSnapshot := counterhdr.ToHDR(s, sigfigs)
			if fromSnapshot.TotalCount() != int64(n) {
				t.Fatalf("ToHDR: count %d, want %d", fromSnapshot.TotalCount(), n)
			}
			// ToHDR records the exact min and max, as RecordValue did.
			if fromSnapshot.Min() != hdr.Min() || fromSnapshot.Max() != hdr.Max() {
				t.Errorf("ToHDR: min %d, max %d; HDR of the spans: %d, %d", fromSnapshot.Min(), fromSnapshot.Max(), hdr.Min(), hdr.Max())
			}
			for _, q := range quantiles {
				xo := exact[ourRank(q, n)-1] // what ours estimates
				xh := exact[hdrRank(q, n)-1] // what HDR estimates
				ours := s.Quantile(q)
				theirs := counter.Tickdelta(hdr.ValueAtQuantile(q * 100))
				converted := counter.Tickdelta(fromSnapshot.ValueAtQuantile(q * 100))
				t.Logf("q=%v: exact %d (HDR's rank: %d), ours %d, HDR %d, ToHDR %d", q, xo, xh, ours, theirs, converted)
				if !within(ours, xo, counter.QuantileError) {
					t.Errorf("q=%v: ours %d, exact %d: off by more than QuantileError", q, ours, xo)
				}
				// HDR reports the top of the bucket that holds xh.
				if theirs < xh || !within(theirs, xh, hdrErr) {
					t.Errorf("q=%v: HDR %d, exact %d: off by more than its error %v", q, theirs, xh, hdrErr)
				}
				bound := counter.QuantileError*float64(xo) + hdrErr*float64(xh) + math.Abs(float64(xo-xh))
				if d := math.Abs(float64(ours - theirs)); d > bound {
					t.Errorf("q=%v: ours %d and HDR %d differ by %v, more than %v", q, ours, theirs, d, bound)
				}
				// ToHDR counts each span at its bucket's value, within
				// QuantileError, and HDR adds its own error on top.
				if lo, hi := float64(xh)*(1-counter.QuantileError), float64(xh)*(1+counter.QuantileError)*(1+hdrErr); float64(converted) < math.Floor(lo) || float64(converted) > math.Ceil(hi) {
					t.Errorf("q=%v: ToHDR %d, exact %d: outside [%v, %v]", q, converted, xh, lo, hi)
				}
			}
		})
	}
}

// TestToHDRSmall checks that ToHDR keeps spans below 256 ticks exactly,
// since both histograms do.
func TestToHDRSmall(t *testing.T) {
	spans := []counter.Tickdelta{0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 255}
	s := spantest.SnapshotOf(spans)
	for _, sigfigs := range []int{2, 3} {
		h := counterhdr.ToHDR(s, sigfigs)
		for i, d := range spans {
			q := float64(i+1) / float64(len(spans))
			if got := h.ValueAtQuantile(q * 100); got != int64(d) {
				t.Errorf("%d figures: quantile %v is %d, want %d", sigfigs, q, got, d)
			}
		}
	}
}

// TestToHDREdges checks that ToHDR's range holds the snapshot's maximum, at
// HdrHistogram's powers of two and at the top of the Tickdelta range.
func TestToHDREdges(t *testing.T) {
	for _, top := range []counter.Tickdelta{0, 1, 2, 2047, 2048, 4096, 1 << 40, 1<<62 + 1, math.MaxInt64} {
		s := spantest.SnapshotOf([]counter.Tickdelta{0, top / 2, top})
		for _, sigfigs := range []int{1, 2, 3, 4, 5} {
			h := counterhdr.ToHDR(s, sigfigs)
			if h.TotalCount() != 3 {
				t.Errorf("max %d, %d figures: HDR holds %d spans, want 3", top, sigfigs, h.TotalCount())
			}
		}
	}
}

// TestAddToHDRDropped checks that AddToHDR counts the spans past the
// HdrHistogram's range.
func TestAddToHDRDropped(t *testing.T) {
	s := spantest.SnapshotOf([]counter.Tickdelta{10, 20, 1 << 20, 1 << 21})
	h := hdrhistogram.New(1, 1<<16, 3)
	if got := counterhdr.AddToHDR(h, s); got != 2 {
		t.Errorf("AddToHDR dropped %d spans, want 2", got)
	}
	if h.TotalCount() != 2 {
		t.Errorf("HDR holds %d spans, want 2", h.TotalCount())
	}
}

// TestMemory compares the memory a Recorder holds with an HdrHistogram's.
// It asserts only that a Recorder holds at most 64 KB; the rest is logged.
func TestMemory(t *testing.T) {
	const runs = 50
	hs := make([]*counter.Histogram, runs)
	histogramBytes := spantest.Allocated(func() {
		for i := range hs {
			hs[i] = counter.NewHistogram()
		}
	}) / runs
	rs := make([]*counter.Recorder, runs)
	recorderBytes := spantest.Allocated(func() {
		for i := range rs {
			rs[i] = hs[i].Recorder()
		}
	}) / runs
	runtime.KeepAlive(rs)
	t.Logf("counter: NewHistogram %d bytes (GOMAXPROCS=%d), each Recorder %d bytes more", histogramBytes, runtime.GOMAXPROCS(0), recorderBytes)
	if recorderBytes > 64<<10 {
		t.Errorf("a Recorder holds %d bytes, more than 64 KB", recorderBytes)
	}
	for _, sigfigs := range []int{2, 3} {
		for _, top := range []int64{1 << 40, math.MaxInt64} {
			var h *hdrhistogram.Histogram
			bytes := spantest.Allocated(func() { h = hdrhistogram.New(1, top, sigfigs) })
			t.Logf("HdrHistogram, %d figures, 1 to %d: ByteSize %d, allocated %d bytes", sigfigs, top, h.ByteSize(), bytes)
		}
	}
}
