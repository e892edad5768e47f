package counter_test

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/spantest"
)

// spans are the 1024 spans of the side-by-side benchmarks of the bench
// module: log-uniform over 30 to 10⁶ ticks.
var spans = spantest.Bench()

func BenchmarkRecorderRecord(b *testing.B) {
	r := counter.NewHistogram().Recorder()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Record(spans[i&1023])
	}
}

func BenchmarkHistogramRecord(b *testing.B) {
	h := counter.NewHistogram()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h.Record(spans[i&1023])
	}
}

func BenchmarkHistogramRecordParallel(b *testing.B) {
	h := counter.NewHistogram()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			h.Record(spans[i&1023])
		}
	})
}

// BenchmarkRecorderEachParallel has each of GOMAXPROCS goroutines record
// through a Recorder of its own into one Histogram: against
// BenchmarkRecorderRecord, how recording scales with the CPUs.
func BenchmarkRecorderEachParallel(b *testing.B) {
	h := counter.NewHistogram()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		r := h.Recorder()
		defer r.Close()
		for i := 0; pb.Next(); i++ {
			r.Record(spans[i&1023])
		}
	})
}

// The bare cost of any record that goroutines share, under Go's memory
// model: one write made visible to another goroutine takes an atomic
// read-modify-write, and a record of a count, a sum and bounds that a
// reader collects whole takes two, to take a lock and to give it back.

var locked atomic.Uint64

func BenchmarkBareAtomicAdd(b *testing.B) {
	for b.Loop() {
		locked.Add(1)
	}
}

func BenchmarkBareTryLockUnlock(b *testing.B) {
	var mu sync.Mutex
	for b.Loop() {
		if mu.TryLock() {
			mu.Unlock()
		}
	}
}

// BenchmarkBarePoolGetPut is the other way goroutines can share without
// a lock: a sync.Pool hands each P an object of its own with no atomic
// instruction, but a Get and a Put cost what two atomics do, and a pool
// drops its objects at a collection, so a Histogram could lose the spans
// they held.
func BenchmarkBarePoolGetPut(b *testing.B) {
	p := sync.Pool{New: func() any { return new(int) }}
	for b.Loop() {
		x := p.Get().(*int)
		*x++
		p.Put(x)
	}
}

// Bare scaling: work that shares nothing, one goroutine and one per
// CPU. Two Recorders can scale no better with the CPUs than this does.

var scaleSink atomic.Uint64

func BenchmarkBareScaleSerial(b *testing.B) {
	x := uint64(1)
	for i := 0; b.Loop(); i++ {
		x = x*6364136223846793005 + uint64(spans[i&1023])
	}
	scaleSink.Add(x)
}

func BenchmarkBareScaleParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		x := uint64(1)
		for i := 0; pb.Next(); i++ {
			x = x*6364136223846793005 + uint64(spans[i&1023])
		}
		scaleSink.Add(x)
	})
}

// BenchmarkRecorderUnderInterval records through a Recorder while another
// goroutine takes an Interval every millisecond, the load a reporter puts
// on the writers. Besides ns/op it reports the 99th percentile of a
// record's cost, taken over batches of 256 records each timed whole
// (p99-ns/record), since a single record is shorter than the clock reads
// that would time it.
func BenchmarkRecorderUnderInterval(b *testing.B) {
	h := counter.NewHistogram()
	r := h.Recorder()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var s counter.Snapshot
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				h.Interval(&s)
			}
		}
	}()
	const batch = 256
	costs := make([]time.Duration, 0, 1<<16)
	b.ReportAllocs()
	for i := 0; b.Loop(); {
		t0 := time.Now()
		for range batch {
			r.Record(spans[i&1023])
			i++
		}
		if len(costs) < cap(costs) {
			costs = append(costs, time.Since(t0))
		}
	}
	close(stop)
	<-done
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/record")
	b.ReportMetric(float64(percentile(costs, 0.99).Nanoseconds())/batch, "p99-ns/record")
}

// BenchmarkIntervalOf64 takes an Interval of a Histogram with 64
// Recorders, all but two or four of which recorded once and are idle, while
// two or four goroutines record flat out through the others: what a
// reporter pays, and how long it holds nothing up for. It reports the
// median and the 99th percentile of an Interval's time (p50-µs, p99-µs).
func BenchmarkIntervalOf64(b *testing.B) {
	for _, writers := range []int{2, 4} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			h := counter.NewHistogram()
			for i := range 64 - writers {
				r := h.Recorder()
				for k := range 100 { // past the spans a new Recorder spills
					r.Record(spans[(i+k)&1023])
				}
				defer r.Close()
			}
			var s counter.Snapshot
			h.Interval(&s)
			stop := recordFlatOut(h, writers)
			took := make([]time.Duration, 0, 1<<16)
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				h.Interval(&s)
				if len(took) < cap(took) {
					took = append(took, time.Since(t0))
				}
			}
			stop()
			b.ReportMetric(float64(percentile(took, 0.5).Nanoseconds())/1e3, "p50-µs")
			b.ReportMetric(float64(percentile(took, 0.99).Nanoseconds())/1e3, "p99-µs")
		})
	}
}

// percentile returns the q-th quantile of ds, which it sorts.
func percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(int(q*float64(len(ds))), len(ds)-1)]
}

// BenchmarkRecorderNew makes a Recorder, records into it and closes or
// drops it, as a service that takes one a request does: with 3 spans, which
// its Histogram's locks take (handover.SpillSpans), and with 100, past
// which it takes a tally of its own (and, dropped, a cleanup the garbage
// collector runs).
func BenchmarkRecorderNew(b *testing.B) {
	for _, n := range []int{3, 100} {
		for _, closed := range []bool{true, false} {
			name := fmt.Sprintf("spans=%d/dropped", n)
			if closed {
				name = fmt.Sprintf("spans=%d/closed", n)
			}
			b.Run(name, func(b *testing.B) {
				h := counter.NewHistogram()
				var s counter.Snapshot
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					r := h.Recorder()
					for k := range n {
						r.Record(spans[(i+k)&1023])
					}
					if closed {
						r.Close()
					}
					if i++; i%4096 == 0 {
						h.Interval(&s)
					}
				}
				h.Interval(&s)
			})
		}
	}
}

// recordFlatOut starts n goroutines that each record the spans into a
// Recorder of h of their own, flat out, until the function it returns is
// called, which waits for them to close their Recorders.
func recordFlatOut(h *counter.Histogram, n int) (stop func()) {
	return flatOut(n, func(w int) func(i int) {
		r := h.Recorder()
		return func(i int) {
			if i < 0 {
				r.Close()
				return
			}
			r.Record(spans[i&1023])
		}
	})
}

// flatOut starts n goroutines, the w-th calling step(i) for i from w on,
// flat out, where step is start(w), until the function it returns is
// called, which has each call step(-1) and waits for them.
func flatOut(n int, start func(w int) (step func(i int))) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() {
			step := start(w)
			defer step(-1)
			for i := w; ; i++ {
				if i&1023 == 0 {
					select {
					case <-done:
						return
					default:
					}
				}
				step(i)
			}
		})
	}
	return func() { close(done); wg.Wait() }
}
