package counter

import (
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tickstamp/counter/internal/race"
)

// TestDroppedRecordersNoCliff makes Recorders that record a few spans past
// their first 64, which go to a lock (65, 100 and 1,000 spans, over three
// decades), and are dropped without Close, 256 goroutines at a time, while
// a reporter takes an Interval every 100 ms: no span is lost, the heap's
// peak stays bounded, and so do Interval's times, as the Histogram takes a
// Recorder idle for two Intervals off its list whether it was closed or
// not. COUNTER_DROPPED sets how many Recorders a run makes (10⁶ for the
// issue's figures; fewer by default, for CI), and the bounds asserted are
// ones a loaded 2-vCPU machine meets: the figures go to the log.
func TestDroppedRecordersNoCliff(t *testing.T) {
	if testing.Short() || race.Enabled {
		t.Skip("makes hundreds of thousands of Recorders")
	}
	total := 100_000
	if v, err := strconv.Atoi(os.Getenv("COUNTER_DROPPED")); err == nil && v > 0 {
		total = v
	}
	for _, spans := range []int{65, 100, 1000} {
		n := total
		if spans == 1000 {
			n = max(total/10, 1000)
		}
		peak, p99, worst, listed := droppedRun(t, n, spans)
		t.Logf("%d Recorders of %d spans dropped: heap peak %.1f MB, Interval p99 %v, max %v; %d writers listed at the end",
			n, spans, float64(peak)/(1<<20), p99, worst, listed)
		if peak > 64<<20 {
			t.Errorf("%d spans a Recorder: the heap peaked at %.1f MB; want at most 64 MB", spans, float64(peak)/(1<<20))
		}
		if p99 > 50*time.Millisecond {
			t.Errorf("%d spans a Recorder: Interval's p99 is %v; want it far below the 100 ms between Intervals", spans, p99)
		}
	}
}

// droppedRun makes n Recorders of the given spans each, 256 goroutines at
// a time, each dropped without Close, while a reporter takes an Interval
// every 100 ms and a sampler reads the heap every 5 ms. It checks that
// every span is in an Interval, and returns the heap's peak, Interval's
// p99 and maximum, and the writers still listed once the Intervals after
// the last span have run.
func droppedRun(t *testing.T, n, spans int) (peak uint64, p99, worst time.Duration, listed int) {
	t.Helper()
	runtime.GC()
	h := NewHistogram()
	var made atomic.Int64
	var wg sync.WaitGroup
	for g := range 256 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), uint64(spans)))
			for made.Add(1) <= int64(n) {
				r := h.Recorder()
				for range spans {
					// 10³ to 10⁶ ticks, evenly in the logarithm.
					r.Record(Tickdelta(1000 * (1 << rng.IntN(10)) * (1 + rng.IntN(2))))
				}
			}
		})
	}
	stop := make(chan struct{})
	var sampled sync.WaitGroup
	sampled.Go(func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	var got uint64
	var times []time.Duration
	var snap Snapshot
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-tick.C:
			start := time.Now()
			h.Interval(&snap)
			times = append(times, time.Since(start))
			got += snap.Count()
		}
	}
	close(stop)
	sampled.Wait()
	// The spans of the last Recorders, and their retirement.
	for range 3 {
		h.Interval(&snap)
		got += snap.Count()
	}
	if want := uint64(n) * uint64(spans); got != want {
		t.Fatalf("%d Recorders of %d spans: the Intervals hold %d spans; want %d", n, spans, got, want)
	}
	slices.Sort(times)
	if len(times) > 0 {
		p99, worst = times[(len(times)*99)/100], times[len(times)-1]
	}
	return peak, p99, worst, h.c.Listed() - len(h.shards)
}
