package bench_test

import (
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/bench/internal/bare"
)

// sinkStamp keeps the reads' sums, so that no read can be dropped.
var sinkStamp counter.Tickstamp

// BenchmarkRead sets each of Counter's reads beside its instruction
// sequence with nothing around it (bare=), unrolled bare.Reads times in one
// assembly function, and beside a copy of its assembly stub called from
// assembly with no Go code around the call (called=), so that a read's
// cost splits into its instructions, the call, and the Go code around the
// call. Each case's ns/op is per read. bare=NowFenced is LFENCE; RDTSC, Now's
// sequence on a CPU without RDTSCP, so that a CPU with it shows which of the
// two is cheaper; time=Now and time=Since are what a program reads without
// the package. Run them side by side:
//
//	cd bench && go test -run '^$' -bench 'Read$' -count 10 .
func BenchmarkRead(b *testing.B) {
	c := counter.New(gigahertz) // a read is the same at any rate
	ordered, calledOrdered := bare.UnrolledOrdered, bare.CalledOrdered
	if bare.HasRDTSCP() {
		ordered, calledOrdered = bare.UnrolledRDTSCP, bare.CalledRDTSCP
	}
	b.Run("bare=NowUnordered", func(b *testing.B) { benchBare(b, bare.Unrolled) })
	b.Run("called=NowUnordered", func(b *testing.B) { benchBare(b, bare.Called) })
	b.Run("ours=NowUnordered", func(b *testing.B) {
		b.ReportAllocs()
		var acc counter.Tickstamp
		for b.Loop() {
			acc += c.NowUnordered()
		}
		sinkStamp = acc
	})
	b.Run("bare=Now", func(b *testing.B) { benchBare(b, ordered) })
	b.Run("called=Now", func(b *testing.B) { benchBare(b, calledOrdered) })
	b.Run("ours=Now", func(b *testing.B) {
		b.ReportAllocs()
		var acc counter.Tickstamp
		for b.Loop() {
			acc += c.Now()
		}
		sinkStamp = acc
	})
	b.Run("bare=NowFenced", func(b *testing.B) { benchBare(b, bare.UnrolledOrdered) })
	// What a program reads without the package: the wall and monotonic
	// clocks (two vDSO reads), and the monotonic clock alone.
	b.Run("time=Now", func(b *testing.B) {
		b.ReportAllocs()
		var acc int
		for b.Loop() {
			acc += time.Now().Nanosecond()
		}
		sinkStamp = counter.Tickstamp(acc)
	})
	start := time.Now()
	b.Run("time=Since", func(b *testing.B) {
		b.ReportAllocs()
		var acc time.Duration
		for b.Loop() {
			acc += time.Since(start)
		}
		sinkStamp = counter.Tickstamp(acc)
	})
}

// benchBare times f, which executes a read bare.Reads times, per read.
func benchBare(b *testing.B, f func() uint64) {
	if !bare.Available {
		b.Skip("no bare read in this build: purego, or neither amd64 nor arm64")
	}
	b.ReportAllocs()
	var acc uint64
	for n := b.N; n > 0; n -= bare.Reads {
		acc += f()
	}
	sinkStamp = counter.Tickstamp(acc)
}
