// Package spantest draws the spans that the tests and benchmarks of the
// library and of its export modules record, so that they all mean the same
// thing by "log-uniform" or "a narrow peak". It is for tests only.
package spantest

import (
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/tickstamp/counter"
)

// A Distribution is a named way to draw n spans, and the most spans a test
// should draw from it (0 for no limit).
type Distribution struct {
	Name  string
	Spans func(r *rand.Rand, n int) []counter.Tickdelta
	Most  int
}

// Size returns n, or the distribution's Most where it is less.
func (d Distribution) Size(n int) int {
	if d.Most > 0 {
		return min(n, d.Most)
	}
	return n
}

// Distributions are the everyday ones: log-uniform over 30 to 10⁶ ticks, a
// narrow peak, spans below 256 ticks (which a Snapshot holds exactly), and
// a quarter of spans of 0 among log-uniform ones. Tests rely on this order.
var Distributions = []Distribution{
	{"loguniform30to1e6", func(r *rand.Rand, n int) []counter.Tickdelta {
		return LogUniform(r, n, 30, 1e6)
	}, 0},
	{"narrow", func(r *rand.Rand, n int) []counter.Tickdelta {
		// A tight peak near 5000 ticks, a few of a Snapshot's buckets wide.
		s := make([]counter.Tickdelta, n)
		for i := range s {
			s[i] = counter.Tickdelta(5000 + 40*r.NormFloat64())
		}
		return s
	}, 0},
	{"small", func(r *rand.Rand, n int) []counter.Tickdelta {
		s := make([]counter.Tickdelta, n)
		for i := range s {
			s[i] = counter.Tickdelta(r.IntN(256))
		}
		return s
	}, 0},
	{"withzeros", func(r *rand.Rand, n int) []counter.Tickdelta {
		s := LogUniform(r, n, 1, 1e5)
		for i := range s {
			if r.IntN(4) == 0 {
				s[i] = 0
			}
		}
		return s
	}, 0},
}

// Huge draws spans from 2⁶¹ to 2^62.5 ticks, whose sum is past the largest
// Tickdelta. A tally's sum carries past 64 bits every four of them or so,
// and each carry takes a Recorder's slow path, so tests draw at most
// 4,000.
var Huge = Distribution{"huge", func(r *rand.Rand, n int) []counter.Tickdelta {
	s := make([]counter.Tickdelta, n)
	for i := range s {
		s[i] = counter.Tickdelta(math.Exp2(61 + 1.5*r.Float64()))
	}
	return s
}, 4000}

// LogUniform returns n spans spread evenly in the logarithm from lo to hi
// ticks.
func LogUniform(r *rand.Rand, n int, lo, hi float64) []counter.Tickdelta {
	s := make([]counter.Tickdelta, n)
	for i := range s {
		s[i] = counter.Tickdelta(lo * math.Pow(hi/lo, r.Float64()))
	}
	return s
}

// Bench returns the 1024 spans of the side-by-side benchmarks: log-uniform
// over 30 to 10⁶ ticks, 8 KB, which with the structures recorded into fit
// a core's level-1 cache (which two vCPUs may share).
func Bench() (s [1024]counter.Tickdelta) {
	copy(s[:], LogUniform(rand.New(rand.NewPCG(1, 2)), len(s), 30, 1e6))
	return s
}

// Allocated returns the bytes f allocates, as runtime.MemStats.TotalAlloc
// counts them, after a collection.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Record records spans into h, the first half through a Recorder, closed
// after, and the rest through Histogram.Record, so that a test covers both
// ways in.
func Record(h *counter.Histogram, spans []counter.Tickdelta) {
	r := h.Recorder()
	for _, d := range spans[:len(spans)/2] {
		r.Record(d)
	}
	r.Close()
	for _, d := range spans[len(spans)/2:] {
		h.Record(d)
	}
}

// SnapshotOf returns the first Interval of a new Histogram that recorded
// spans as Record does.
func SnapshotOf(spans []counter.Tickdelta) *counter.Snapshot {
	h := counter.NewHistogram()
	Record(h, spans)
	var s counter.Snapshot
	h.Interval(&s)
	return &s
}
