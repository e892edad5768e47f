package counterhdr_test

import (
	"fmt"
	"math"

	"github.com/HdrHistogram/hdrhistogram-go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export/counterhdr"
)

// A reporter takes an interval's spans from a Histogram and hands them on as
// an HdrHistogram, in ticks.
func ExampleToHDR() {
	h := counter.NewHistogram()
	r := h.Recorder()
	for d := counter.Tickdelta(1); d <= 10_000; d++ {
		r.Record(d)
	}
	r.Close()

	var s counter.Snapshot
	h.Interval(&s)
	hdr := counterhdr.ToHDR(&s, 3)

	fmt.Println("spans:", hdr.TotalCount())
	// HdrHistogram reports the top of the bucket of the largest span, 10000.
	fmt.Println("min:", hdr.Min(), "max:", hdr.Max())
	p99 := hdr.ValueAtQuantile(99)
	fmt.Println("p99 within 1% of 9900:", math.Abs(float64(p99)-9900) <= 99)
	// Output:
	// spans: 10000
	// min: 1 max: 10007
	// p99 within 1% of 9900: true
}

// A reporter adds every interval to one HdrHistogram kept across them,
// whose range it chooses; AddToHDR counts the spans past that range.
func ExampleAddToHDR() {
	h := counter.NewHistogram()
	all := hdrhistogram.New(1, 1_000_000, 3)
	var s counter.Snapshot
	for interval := range 3 {
		for d := range counter.Tickdelta(1000) {
			h.Record(100 + d + counter.Tickdelta(interval)*1000)
		}
		if interval == 0 {
			h.Record(5_000_000) // past the HdrHistogram's range
		}
		h.Interval(&s)
		dropped := counterhdr.AddToHDR(all, &s)
		fmt.Printf("interval %d: %d spans, %d dropped\n", interval, s.Count(), dropped)
	}
	fmt.Println("in all:", all.TotalCount(), "from", all.Min(), "to", all.Max())
	// Output:
	// interval 0: 1001 spans, 1 dropped
	// interval 1: 1000 spans, 0 dropped
	// interval 2: 1000 spans, 0 dropped
	// in all: 3000 from 100 to 3099
}
