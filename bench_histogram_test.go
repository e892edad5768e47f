package counter_test

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tickstamp/counter"
)

// spans are 1024 spans spread evenly in the logarithm over 30 to 10⁶ ticks
// (8 KB: with the structures recorded into, they fit a core's level-1
// cache, which two vCPUs may share),
// the spread of the side-by-side benchmarks in examples/export.
var spans = func() (s [1024]counter.Tickdelta) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range s {
		s[i] = counter.Tickdelta(30 * math.Pow(1e6/30, r.Float64()))
	}
	return s
}()

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

// The floor of any record that goroutines share, under Go's memory model:
// one write made visible to another goroutine takes an atomic
// read-modify-write, and a record of a count, a sum and bounds that a
// reader collects whole takes two, to take a lock and to give it back.

var locked atomic.Uint64

func BenchmarkFloorAtomicAdd(b *testing.B) {
	for b.Loop() {
		locked.Add(1)
	}
}

func BenchmarkFloorTryLockUnlock(b *testing.B) {
	var mu sync.Mutex
	for b.Loop() {
		if mu.TryLock() {
			mu.Unlock()
		}
	}
}

// BenchmarkFloorPoolGetPut is the other way goroutines can share without
// a lock: a sync.Pool hands each P an object of its own with no atomic
// instruction, but a Get and a Put cost what two atomics do, and a pool
// drops its objects at a collection, so a Histogram could lose the spans
// they held.
func BenchmarkFloorPoolGetPut(b *testing.B) {
	p := sync.Pool{New: func() any { return new(int) }}
	for b.Loop() {
		x := p.Get().(*int)
		*x++
		p.Put(x)
	}
}

// The scaling floor: work that shares nothing, one goroutine and one per
// CPU. Two Recorders can scale no better with the CPUs than this does.

var scaleSink atomic.Uint64

func BenchmarkFloorScaleSerial(b *testing.B) {
	x := uint64(1)
	for i := 0; b.Loop(); i++ {
		x = x*6364136223846793005 + uint64(spans[i&1023])
	}
	scaleSink.Add(x)
}

func BenchmarkFloorScaleParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		x := uint64(1)
		for i := 0; pb.Next(); i++ {
			x = x*6364136223846793005 + uint64(spans[i&1023])
		}
		scaleSink.Add(x)
	})
}
