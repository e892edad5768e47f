package counter

import (
	"runtime"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tickstamp/counter/internal/race"
	"golang.org/x/sys/unix"
)

// heapPeak samples the bytes of the heap's objects, live or not yet
// collected, every millisecond until stop is called, which returns the
// largest it saw.
func heapPeak() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}

// TestRecorderChurn makes Recorders as a service that takes one a request
// would, each recording three spans and dropped without Close, at full
// speed: from one goroutine, and from 256 goroutines in flight at once
// with a reporter taking an Interval every 100 ms. No span is lost, the
// heap's peak stays within 256 MB, every dropped Recorder is off the
// Histogram's list once the collector has run, and the reporter's Intervals
// stay short. COUNTER_CHURN sets how many Recorders (20,000; CI makes
// 1,000,000).
func TestRecorderChurn(t *testing.T) {
	if testing.Short() {
		t.Skip("makes many Recorders")
	}
	n := envCount(t, "COUNTER_CHURN", 20_000)
	for _, inFlight := range []int{1, 256} {
		h := NewHistogram()
		var total, s Snapshot
		var intervals []time.Duration
		var cpu time.Duration // the most CPU time an Interval took
		stopReporter := make(chan struct{})
		var reporter sync.WaitGroup
		if inFlight > 1 {
			reporter.Add(1)
			go func() {
				defer reporter.Done()
				// The reporter's thread is its own, so that its CPU time is
				// the Intervals' work, whatever the scheduler does to it.
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				tick := time.NewTicker(100 * time.Millisecond)
				defer tick.Stop()
				for {
					select {
					case <-stopReporter:
						return
					case <-tick.C:
					}
					t0 := time.Now()
					c0 := threadCPU()
					h.Interval(&s)
					intervals = append(intervals, time.Since(t0))
					cpu = max(cpu, threadCPU()-c0)
					total.Merge(&s)
				}
			}()
		}
		runtime.GC()
		peak := heapPeak()
		start := time.Now()
		request := func(i int) {
			r := h.Recorder()
			r.Record(Tickdelta(1000 + i%5000))
			r.Record(Tickdelta(2000 + i%7000))
			r.Record(Tickdelta(300000 + i%100000))
		}
		if inFlight == 1 {
			for i := range n {
				request(i)
			}
		} else {
			// A goroutine a request, at most inFlight at once.
			var workers sync.WaitGroup
			slots := make(chan struct{}, inFlight)
			for i := range n {
				slots <- struct{}{}
				workers.Add(1)
				go func() {
					defer func() { <-slots; workers.Done() }()
					request(i)
				}()
			}
			workers.Wait()
		}
		made := time.Since(start)
		close(stopReporter)
		reporter.Wait()
		// The Histogram knows which of its shards are listed as of its last
		// Interval (a shard that gave its tally back is listed again at its
		// next record): take one after the last record.
		h.Interval(&s)
		total.Merge(&s)
		listed := func() int { return h.c.Listed() - h.listedShards() }
		for deadline := time.Now().Add(30 * time.Second); listed() > 0 && time.Now().Before(deadline); {
			runtime.GC() // finds the Recorders unreachable; their cleanups run after
			time.Sleep(time.Millisecond)
		}
		h.Interval(&s)
		total.Merge(&s)
		top := peak()
		slices.Sort(intervals)
		var p99, most time.Duration
		if len(intervals) > 0 {
			p99, most = intervals[len(intervals)*99/100], intervals[len(intervals)-1]
		}
		t.Logf("%d in flight: %d Recorders in %v (%v each), heap peak %.1f MB, %d Intervals: p99 %v, max %v (CPU time at most %v)",
			inFlight, n, made, made/time.Duration(n), float64(top)/(1<<20), len(intervals), p99, most, cpu)
		if left := listed(); left != 0 {
			t.Errorf("%d in flight: %d dropped Recorders still listed after 30 s of collections", inFlight, left)
		}
		if total.Count() != 3*uint64(n) {
			t.Errorf("%d in flight: the snapshots hold %d spans; want %d", inFlight, total.Count(), 3*n)
		}
		if top > 256<<20 {
			t.Errorf("%d in flight: the heap peaked at %d bytes; want at most 256 MB", inFlight, top)
		}
		// With hundreds of goroutines runnable on a few CPUs, an Interval's
		// wall time is mostly waiting to be run again; its CPU time is what
		// it costs. The race detector slows it tenfold and more.
		bound := 10 * time.Millisecond
		if race.Enabled {
			bound *= 20
		}
		if cpu > bound {
			t.Errorf("%d in flight: an Interval took %v of CPU time; want at most %v", inFlight, cpu, bound)
		}
	}
}

// threadCPU returns the CPU time of the calling thread.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
