package countertest_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/tickstamp/counter/countertest"
)

// BenchmarkMapLookup times one lookup in a map of 1024 string keys, a
// different key each iteration.
func BenchmarkMapLookup(b *testing.B) {
	m := make(map[string]int, 1024)
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = "key-" + strconv.Itoa(i)
		m[keys[i]] = i
	}
	i := 0
	countertest.Bench(b, func() {
		sinkInt += m[keys[i&1023]]
		i++
	})
}

// BenchmarkSort32 times sorting 32 random ints: the copy that unsorts them
// again is in each span, as it would be in ns/op.
func BenchmarkSort32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]int, 32)
	for i := range src {
		src[i] = r.IntN(1000)
	}
	buf := make([]int, len(src))
	b.ReportAllocs()
	countertest.Bench(b, func() {
		copy(buf, src)
		slices.Sort(buf)
		sinkInt += buf[0]
	})
}
