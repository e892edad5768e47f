// Package countertest times benchmarks with the processor's counter: each
// iteration of a [testing.B] on its own, between fenced reads, with the
// reads' own cost taken off, reported as a distribution that benchstat
// reads.
//
// The testing package reports one figure, ns/op: the whole loop's time
// divided by its iterations, which hides how the iterations spread and
// counts the loop's own overhead in. [Bench] times every iteration with
// [counter.Counter.Begin] and [counter.Counter.End], which hold the timed
// code between them, records each span in a [counter.Histogram], measures
// with the same harness and an empty body the floor every span carries,
// and reports the median, the 99th percentile, the maximum and the mean
// of the spans less that floor:
//
//	func BenchmarkLookup(b *testing.B) {
//		countertest.Bench(b, func() { sink = table[key] })
//	}
//
// A harness that reads the counter with the bare, unordered instruction and
// subtracts nothing reports the reads' cost as part of the code's, and lets
// the processor move the reads into or out of the code it times; Bench does
// neither.
//
// For tests of code that stamps and converts through a [counter.Clock],
// [ManualClock] is a clock that moves only when the test moves it.
package countertest

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/tickstamp/counter"
)

// The units Bench reports its metrics in: nanoseconds, each figure named by
// a prefix that benchstat keeps apart from ns/op, and scales as it scales
// ns (it shows them as p50-sec and so on).
const (
	unitP50  = "p50-ns"
	unitP99  = "p99-ns"
	unitMax  = "max-ns"
	unitMean = "mean-ns"
)

var (
	discoverOnce sync.Once
	discovered   counter.Counter
)

// clock returns the process's Counter: the one [counter.Discover] returns,
// or [counter.Monotonic] where it refuses, found on the first call.
func clock() counter.Counter {
	discoverOnce.Do(func() {
		c, err := counter.Discover()
		if err != nil {
			c = counter.Monotonic()
		}
		discovered = c
	})
	return discovered
}

// Bench runs body once for each iteration of b.Loop and reports the
// distribution of its times with [testing.B.ReportMetric], in nanoseconds:
//
//   - p50-ns, the median;
//   - p99-ns, the 99th percentile;
//   - max-ns, the longest;
//   - mean-ns, the mean.
//
// Each figure is the body's alone. Bench times every call of body between
// a [counter.Counter.Begin] and a [counter.Counter.End], which wait for
// every earlier instruction and hold every later one back, so that no part
// of body runs outside its span and nothing around it runs inside. Before
// the first iteration it measures the floor: [counter.FloorSpans] spans,
// as many as [counter.Counter.Floor] takes, of the same harness around an empty
// body, which hold the two reads, their fences and the call of body.
// The quantiles are [counter.Snapshot.QuantileLess] with the floor's
// median: within [counter.QuantileError] of the exact order statistics
// (exact for spans below 256 ticks), less that median, in whole ticks
// converted to fractional nanoseconds.
// The mean is the exact sum of the spans over their count, less the mean
// of the floor's spans up to its 99th percentile: a mean, since that is
// the figure to read for a body shorter than the counter's resolution (each
// span, and so each quantile, is a whole number of increments, and only a mean
// averages them out), and trimmed, since the few floor spans an interrupt
// stretched are not the harness's cost. A figure the floor exceeds is 0.
//
// The spread of the spans is real: an interrupt, a preemption or a
// collection during an iteration is in that iteration's span, and so in
// max-ns and the mean, seldom in the median. Spans that come out negative
// (two CPUs' counters disagreeing across a migration) are left out.
//
// Bench is the whole of a benchmark's timed loop: call it once from a
// benchmark function, with the timer running, in place of a loop over
// b.Loop or b.N, and put setup before it. The iteration count, and so how
// long it runs, is b.Loop's: -benchtime applies as to any benchmark.
// The testing package's ns/op stays its own figure, the loop's wall-clock
// time per iteration: it includes the reads, their fences, the recording
// of each span and b.Loop's own step, none of which mean-ns does.
//
// The first call in the process finds the counter with [counter.Discover]
// and keeps it; where Discover refuses, Bench reads [counter.Monotonic]
// instead, the runtime's monotonic clock, and reports in the same units,
// with a floor of that clock's reads. Discovery, the floor and the
// histogram's memory are taken before the first iteration, outside the
// benchmark's time and allocation counts; the loop itself allocates
// nothing beyond what body allocates, so B/op and allocs/op are body's.
//
// Bench times body on the calling goroutine only; it does not support
// [testing.B.RunParallel]. The compiler keeps b.Loop's own loop body
// alive, but not the code inside body: body should store its result where
// the compiler cannot prove it unused, such as a package-level variable.
// Where body is nil, or Bench is called inside a b.Loop loop, a second time
// in one benchmark, or under RunParallel, it fails the benchmark with a
// message that says what to do, and times nothing; where b is nil, it
// panics. With go test -v, Bench also logs a text histogram of the spans
// ([counter.Snapshot.Draw]), the reads' floor in them.
func Bench(b *testing.B, body func()) {
	if b == nil {
		panic("countertest: Bench: a nil *testing.B; call Bench from a benchmark function, with its b")
	}
	b.Helper()
	calls := called(b)
	switch {
	case underRunParallel():
		// Not the benchmark's goroutine, where FailNow would end this
		// goroutine alone; each of RunParallel's calls gets here, and the
		// first says why.
		if calls == 0 {
			b.Error("countertest: Bench called under b.RunParallel: it times the iterations of one goroutine, the benchmark's own; call it from the benchmark function, outside RunParallel")
		}
		return
	case body == nil:
		b.Fatal("countertest: Bench needs a body to time, and was given nil")
	case b.N == 0:
		// The testing package sets b.N to 0 from a benchmark's first
		// b.Loop until its last, and to at least 1 before it calls the
		// benchmark function.
		b.Fatal("countertest: Bench called inside a b.Loop loop: Bench runs b.Loop itself; call it once in place of the loop: countertest.Bench(b, func() { ... })")
	case calls > 0:
		b.Fatal("countertest: Bench called a second time in one benchmark: the first ran b.Loop to its end; call it once, not in a loop, and give each body a benchmark or a b.Run sub-benchmark of its own")
	}
	c := clock()
	h := counter.NewHistogram()
	r := h.Recorder()
	var s counter.Snapshot

	for range counter.FloorSpans {
		r.Record(span(c, empty))
	}
	// Interval takes every span recorded before it, without the
	// Recorder's help, and leaves it a fresh tally to record into.
	h.Interval(&s)
	floor, floorMean := floorOf(&s)

	for b.Loop() {
		r.Record(span(c, body))
	}

	h.Interval(&s)
	r.Close()
	report(b, &s, floor, floorMean, c.Rate())
	if testing.Verbose() {
		b.Log(picture(&s, floor, c.Rate()))
	}
}

// benches counts, for each benchmark running, its calls of Bench, so that
// a second is refused: Bench runs b.Loop to its end, and a second b.Loop
// would find the timer stopped. A benchmark's count goes when the
// benchmark function returns.
var benches struct {
	sync.Mutex
	calls map[*testing.B]int
}

// called counts a call of Bench by b and returns how many came before it.
func called(b *testing.B) int {
	benches.Lock()
	defer benches.Unlock()
	if benches.calls == nil {
		benches.calls = map[*testing.B]int{}
	}
	n := benches.calls[b]
	benches.calls[b] = n + 1
	if n == 0 {
		b.Cleanup(func() {
			benches.Lock()
			defer benches.Unlock()
			delete(benches.calls, b)
		})
	}
	return n
}

// underRunParallel reports whether Bench runs in a goroutine that
// [testing.B.RunParallel] started: its stack then holds RunParallel's
// closure, which calls the body it was given.
func underRunParallel() bool {
	var pcs [64]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs[:])])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, "testing.(*B).RunParallel.") {
			return true
		}
		if !more {
			return false
		}
	}
}

// picture returns the text histogram of the spans s (Snapshot.Draw's),
// under a line that says they include the reads' floor.
func picture(s *counter.Snapshot, floor counter.Tickdelta, rate counter.TickRate) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the spans as read, each with the reads' floor of about %v in it:\n", floor.Duration(rate))
	s.Draw(&b, rate) // a Builder's writes do not fail
	return strings.TrimSuffix(b.String(), "\n")
}

// empty is the body whose spans are the floor.
func empty() {}

// span times one call of body. It is never inlined, so that the floor's
// spans and the body's run the same instructions between their reads: an
// indirect call, which inlining could turn into a direct one, or into
// nothing, for the empty body alone.
//
//go:noinline
func span(c counter.Counter, body func()) counter.Tickdelta {
	t0 := c.Begin()
	body()
	return c.End().Sub(t0)
}

// floorOf returns the floor of the empty spans of s: their median, which
// the quantiles take off, and their trimmed mean, which the mean takes off.
func floorOf(s *counter.Snapshot) (median counter.Tickdelta, mean float64) {
	return s.Quantile(0.5), trimmedMean(s)
}

// trimmedMean returns the mean of the spans of s up to its 99th
// percentile (all of the bucket it lies in), each counted as the middle of
// its bucket, as [counter.Snapshot.Buckets] counts it; 0 where s is empty.
// It is the floor's cost with the interrupts and preemptions that
// stretched a few of its spans left out, and unlike the median it is not
// a whole number of the counter's steps.
func trimmedMean(s *counter.Snapshot) float64 {
	cut := s.Quantile(0.99)
	var sum, n float64
	for b := range s.Buckets() {
		if b.Min > cut {
			break
		}
		sum += float64(b.Min+(b.Max-b.Min+1)/2) * float64(b.Count)
		n += float64(b.Count)
	}
	if n == 0 {
		return 0
	}
	return sum / n
}

// report reports the distribution s in nanoseconds at rate: its quantiles
// less floor, and its mean less floorMean, in ticks.
func report(b *testing.B, s *counter.Snapshot, floor counter.Tickdelta, floorMean float64, rate counter.TickRate) {
	nsPerTick := 1e9 / float64(rate.Hertz())
	b.ReportMetric(float64(s.QuantileLess(0.5, floor))*nsPerTick, unitP50)
	b.ReportMetric(float64(s.QuantileLess(0.99, floor))*nsPerTick, unitP99)
	b.ReportMetric(float64(s.QuantileLess(1, floor))*nsPerTick, unitMax)
	var mean float64
	if n := s.Count(); n > 0 {
		mean = max(float64(s.Sum())/float64(n)-floorMean, 0)
	}
	b.ReportMetric(mean*nsPerTick, unitMean)
}
