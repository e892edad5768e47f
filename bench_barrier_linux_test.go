package counter_test

import (
	"math"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/handover"
)

// BenchmarkIntervalUnderLoad times Interval every 100 ms with each barrier
// this machine has (handover.Barriers), under a service's load: GOMAXPROCS
// goroutines recording flat out, half through Recorders and half through
// Histogram.Record, two allocating flat out, so that the garbage collector
// runs many times a second, and two calling nanosleep(2), a millisecond at
// a time. Every Interval passes the barrier, since a Recorder records: a
// membarrier(2), or a stop of the world, the fallback where the kernel
// refuses it. Beside everyTenthSecond's metrics it reports what the writers
// felt: the stops of the world, from runtime/metrics, to a quarter of a
// doubling (stw-p50-µs, stw-max-µs; none with membarrier), with the time
// each took to stop every goroutine (stopping-p50-µs, stopping-max-µs), and the garbage
// collector's own for comparison (gc-p50-µs, gc-max-µs); and, for each
// Interval, the longest gap between two records of a writer that was
// running as the Interval began and stopped while it ran (gap-p50-µs,
// gap-p99-µs, gap-max-µs): until the writer ran again, so that it holds
// the time it then waited for a CPU, as six goroutines share GOMAXPROCS.
//
//	go test -run '^$' -bench IntervalUnderLoad -benchtime 300x -count 5 .
func BenchmarkIntervalUnderLoad(b *testing.B) {
	for _, br := range handover.Barriers() {
		b.Run(br.String(), func(b *testing.B) {
			h := counter.NewHistogramPassing(br)
			var s counter.Snapshot
			gaps, stop := serviceLoad(h)
			stw := newPauses("/sched/pauses/total/other:seconds")
			stopping := newPauses("/sched/pauses/stopping/other:seconds")
			gc := newPauses("/sched/pauses/total/gc:seconds")
			// The marks bracket each Interval; the stops of the world are
			// those within a bracket, the collector's those since the
			// first mark.
			var marks []int64
			each := make([][]time.Duration, 3)
			everyTenthSecond(b, func() { h.Interval(&s) }, func() {
				marks = append(marks, counter.Nanotime())
				first, after := len(marks) == 1, len(marks)%2 == 0
				for i, p := range []*pauses{stw, stopping, gc} {
					if ds := p.since(); !first && (after || p == gc) {
						each[i] = append(each[i], ds...)
					}
				}
			})
			stop()
			for i, name := range []string{"stw-", "stopping-", "gc-"} {
				b.ReportMetric(micros(percentile(each[i], 0.5)), name+"p50-µs")
				b.ReportMetric(micros(percentile(each[i], 1)), name+"max-µs")
			}
			longest := make([]time.Duration, 0, len(marks)/2)
			for k := 0; k+1 < len(marks); k += 2 {
				longest = append(longest, gaps.longestFrom(marks[k], marks[k+1]))
			}
			b.ReportMetric(micros(percentile(longest, 0.5)), "gap-p50-µs")
			b.ReportMetric(micros(percentile(longest, 0.99)), "gap-p99-µs")
			b.ReportMetric(micros(percentile(longest, 1)), "gap-max-µs")
		})
	}
}

func micros(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// gapFloor is the shortest gap between two records that a writer of
// serviceLoad notes: shorter ones count as none.
const gapFloor = 20 * time.Microsecond

// A gap is a time, in runtime nanotime, between two records of one writer.
type gap struct{ from, to int64 }

// writerGaps holds the gaps of each writer of serviceLoad, writer w's in
// [w], which only w appends to, until its stop returns.
type writerGaps [][]gap

// longestFrom returns the longest gap of any writer that began from a to
// b, 0 where none as long as gapFloor did: the writers that were running
// and stopped then. (A writer that was waiting for a CPU since before a
// was not held up by what happened after.)
func (g writerGaps) longestFrom(a, b int64) time.Duration {
	var longest int64
	for _, w := range g {
		for _, x := range w {
			if a <= x.from && x.from < b {
				longest = max(longest, x.to-x.from)
			}
		}
	}
	return time.Duration(longest)
}

// serviceLoad starts BenchmarkIntervalUnderLoad's load on h: GOMAXPROCS
// writers flat out (even ones through a Recorder each, odd ones through
// Histogram.Record), each noting its gaps of gapFloor or more by the
// runtime's clock, read every 16 records; two goroutines allocating flat
// out, about 6 MB of it live; and two sleeping in nanosleep(2), a millisecond a
// call. The function it returns stops them all and returns the writers'
// gaps.
func serviceLoad(h *counter.Histogram) (gaps writerGaps, stop func()) {
	gaps = make(writerGaps, runtime.GOMAXPROCS(0))
	stopWriters := flatOut(len(gaps), func(w int) func(i int) {
		record, done := h.Record, func() {}
		if w%2 == 0 {
			r := h.Recorder()
			record, done = r.Record, r.Close
		}
		last := counter.Nanotime()
		return func(i int) {
			if i < 0 {
				done()
				return
			}
			record(spans[i&1023])
			if i&15 == 0 {
				now := counter.Nanotime()
				if now-last >= int64(gapFloor) {
					gaps[w] = append(gaps[w], gap{last, now})
				}
				last = now
			}
		}
	})
	stopAllocating := flatOut(2, func(int) func(i int) {
		live := make([][]byte, 4096)
		return func(i int) {
			if i >= 0 {
				live[i&4095] = make([]byte, 512+i&2047)
			}
		}
	})
	done := make(chan struct{})
	var sleepers sync.WaitGroup
	for range 2 {
		sleepers.Go(func() {
			ms := unix.NsecToTimespec(int64(time.Millisecond))
			for {
				select {
				case <-done:
					return
				default:
					_ = unix.Nanosleep(&ms, nil)
				}
			}
		})
	}
	return gaps, func() {
		close(done)
		sleepers.Wait()
		stopAllocating()
		stopWriters()
	}
}

// pauses follows one of runtime/metrics' histograms of the world's pauses.
type pauses struct {
	sample []metrics.Sample
	last   []uint64
}

func newPauses(name string) *pauses {
	return &pauses{sample: []metrics.Sample{{Name: name}}}
}

// since returns the pauses added to the histogram since the last call
// (since the process started, for the first), each as the upper bound of
// its bucket (its lower bound for the last, unbounded one).
func (p *pauses) since() []time.Duration {
	metrics.Read(p.sample)
	h := p.sample[0].Value.Float64Histogram()
	var ds []time.Duration
	for i, n := range h.Counts {
		if i < len(p.last) {
			n -= p.last[i]
		}
		bound := h.Buckets[i+1]
		if math.IsInf(bound, 1) {
			bound = h.Buckets[i]
		}
		for range n {
			ds = append(ds, time.Duration(bound*1e9))
		}
	}
	p.last = append(p.last[:0], h.Counts...)
	return ds
}
