package countertest_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/countertest"
)

var table = map[string]int{"tick": 1, "tock": 2}

var found int

// Bench replaces a benchmark's loop: setup first, then one call with the
// timed code as a closure, which stores its result where the compiler
// cannot drop it. Run with go test -bench, each such benchmark prints the
// testing package's ns/op and then max-ns, mean-ns, p50-ns and p99-ns.
func ExampleBench() {
	// In a _test.go file, as func BenchmarkLookup(b *testing.B):
	benchmarkLookup := func(b *testing.B) {
		key := "tick" // setup, not timed
		b.ReportAllocs()
		countertest.Bench(b, func() {
			found = table[key]
		})
	}
	_ = benchmarkLookup
}

// A ManualClock stands in for the counter in a test: code that stamps and
// converts through a Clock sees exactly the time the test gives it.
func ExampleManualClock() {
	rate, err := counter.NewTickRate(24_000_000) // Apple silicon's counter
	if err != nil {
		panic(err)
	}
	clk := countertest.NewManualClock(1_000_000, rate)

	start := clk.Now()
	clk.Advance(1500 * time.Microsecond)
	span := clk.Now().Sub(start)
	fmt.Println(span, span.Duration(clk.Rate()))
	clk.AdvanceTicks(-24) // a counter a microsecond behind, as another CPU's might be
	fmt.Println(clk.Now().Sub(start).Duration(clk.Rate()))
	// Output:
	// 36000 ticks 1.5ms
	// 1.499ms
}
