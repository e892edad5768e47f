package counter_test

import (
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The commands of membarrier(2), from linux/membarrier.h.
const (
	membarrierPrivateExpedited         = 1 << 3
	membarrierRegisterPrivateExpedited = 1 << 4
)

// floorWriter is what the least reader of a Recorder must read of it: a
// word that says whether it recorded, and its counts.
type floorWriter struct {
	seq    atomic.Uint64
	counts []uint32
}

// BenchmarkIntervalFloorEvery100ms is the least work an Interval of
// BenchmarkIntervalEvery100ms could do, at its pace and beside the same two
// goroutines recording flat out: a load of a word of each of 64 writers
// allocated apart, one membarrier(2), and a read of the counts of the two
// that record, as wide as theirs (2,000 buckets). No reader of writers
// that take no lock does less. (Its writers count with atomic adds and
// its reader loads a count at a time, where Recorders store plainly and
// Interval loads two: neither is what a reader at this pace waits for.)
// Where its p99 is over a goal, no Interval meets that goal on this
// machine: the rest is the machine's (see BenchmarkColdPages in the bench
// module).
func BenchmarkIntervalFloorEvery100ms(b *testing.B) {
	if _, _, errno := unix.Syscall(unix.SYS_MEMBARRIER, membarrierRegisterPrivateExpedited, 0, 0); errno != 0 {
		b.Skip("no private expedited membarrier:", errno)
	}
	ws := make([]*floorWriter, 64)
	for i := range ws {
		ws[i] = &floorWriter{counts: make([]uint32, 2000)}
	}
	stop := flatOut(2, func(w int) func(i int) {
		fw := ws[w*31]
		return func(i int) {
			if i >= 0 {
				fw.seq.Store(uint64(i))
				atomic.AddUint32(&fw.counts[i*7%2000], 1)
			}
		}
	})
	var took []time.Duration
	var sum uint64
	for b.Loop() {
		time.Sleep(100 * time.Millisecond)
		t0 := time.Now()
		for _, w := range ws {
			sum += w.seq.Load()
		}
		unix.RawSyscall(unix.SYS_MEMBARRIER, membarrierPrivateExpedited, 0, 0)
		for _, w := range []*floorWriter{ws[0], ws[31]} {
			for i := range w.counts {
				sum += uint64(atomic.LoadUint32(&w.counts[i]))
			}
		}
		took = append(took, time.Since(t0))
	}
	stop()
	b.ReportMetric(float64(percentile(took, 0.5).Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(percentile(took, 0.99).Nanoseconds())/1e3, "p99-µs")
	b.ReportMetric(float64(percentile(took, 1).Nanoseconds())/1e3, "max-µs")
	if sum == 0 {
		b.Fatal("read nothing")
	}
}
