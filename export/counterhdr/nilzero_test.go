package counterhdr_test

import (
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/counterhdr"
	"github.com/tickstamp/counter/internal/zerocall"
)

// TestNilAndZero calls every exported function of the package with nil and
// zero values: each is refused with a panic that says "counterhdr: " and
// names the call, never a run-time error, except where the row says nil or
// zero is valid.
func TestNilAndZero(t *testing.T) {
	values := []zerocall.Value{
		zerocall.Make(func() *counter.Snapshot {
			h := counter.NewHistogram()
			h.Record(1000)
			s := new(counter.Snapshot)
			h.Interval(s)
			return s
		}),
		zerocall.Make(func() *hdrhistogram.Histogram { return hdrhistogram.New(1, 1e6, 3) }),
		zerocall.Make(func() int { return 3 }),
	}
	zerocall.Run(t, "counterhdr: ", values, []zerocall.Func{
		{Fn: counterhdr.ToHDR, Valid: map[string]string{"zero s": "an empty Snapshot makes an empty HdrHistogram"}},
		{Fn: counterhdr.AddToHDR, Valid: map[string]string{
			"zero s": "an empty Snapshot adds nothing",
			"zero h": "the zero HdrHistogram has no range: every span is dropped, and counted so (AddToHDR's doc)",
		}},
	})
}

// TestAddToZeroHDR checks what AddToHDR's doc says of the zero
// HdrHistogram: it has no range, so every span is dropped and counted.
func TestAddToZeroHDR(t *testing.T) {
	h := counter.NewHistogram()
	for _, d := range []counter.Tickdelta{1, 1000, 1e6} {
		h.Record(d)
	}
	var s counter.Snapshot
	h.Interval(&s)
	if got := counterhdr.AddToHDR(new(hdrhistogram.Histogram), &s); got != s.Count() {
		t.Errorf("AddToHDR(the zero HdrHistogram) dropped %d; want %d, every span", got, s.Count())
	}
}
