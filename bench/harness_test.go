package bench_test

import (
	"testing"

	"github.com/loov/hrtime/hrtesting"
	"github.com/tickstamp/counter/countertest"
)

// The benchmark harnesses side by side: countertest.Bench times each
// iteration between Begin and End and takes off the harness's own floor;
// loov/hrtime's hrtesting reads with a bare RDTSC and takes nothing off. On
// an empty body the first should report about nothing, the second its own
// cost; on a map lookup, the first the lookup.

var (
	table  = map[int]int{}
	keys   [1024]int
	looked int
)

func init() {
	for i := range keys {
		keys[i] = i * 7919
		table[keys[i]] = i
	}
}

func BenchmarkHarness(b *testing.B) {
	bodies := []struct {
		name string
		body func(i int)
	}{
		{"empty", func(int) {}},
		{"maplookup", func(i int) { looked += table[keys[i&1023]] }},
	}
	for _, body := range bodies {
		b.Run("countertest/"+body.name, func(b *testing.B) {
			i := 0
			countertest.Bench(b, func() { body.body(i); i++ })
		})
		b.Run("hrtesting/"+body.name, func(b *testing.B) {
			bench := hrtesting.NewBenchmark(b)
			defer bench.Report()
			for i := 0; bench.Next(); i++ {
				body.body(i)
			}
		})
	}
}
