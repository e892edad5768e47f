package countertest_test

import (
	"testing"

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
