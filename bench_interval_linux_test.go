package counter_test

import (
	"encoding/binary"
	"math"
	"math/bits"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/handover"
)

// The commands of membarrier(2), from linux/membarrier.h.
const (
	membarrierPrivateExpedited         = 1 << 3
	membarrierRegisterPrivateExpedited = 1 << 4
)

// bareWriter is what the least reader of a Recorder must read of it: a
// word that says whether it recorded, and its counts.
type bareWriter struct {
	seq    atomic.Uint64
	counts []uint32
}

// BenchmarkBareReaderEvery100ms is the least work an Interval of
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
func BenchmarkBareReaderEvery100ms(b *testing.B) {
	if _, _, errno := unix.Syscall(unix.SYS_MEMBARRIER, membarrierRegisterPrivateExpedited, 0, 0); errno != 0 {
		b.Skip("no private expedited membarrier:", errno)
	}
	ws := make([]*bareWriter, 64)
	for i := range ws {
		ws[i] = &bareWriter{counts: make([]uint32, 2000)}
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
	var sum uint64
	everyTenthSecond(b, func() {
		for _, w := range ws {
			sum += w.seq.Load()
		}
		unix.RawSyscall(unix.SYS_MEMBARRIER, membarrierPrivateExpedited, 0, 0)
		for _, w := range []*bareWriter{ws[0], ws[31]} {
			for i := range w.counts {
				sum += uint64(atomic.LoadUint32(&w.counts[i]))
			}
		}
	}, nil)
	stop()
	if sum == 0 {
		b.Fatal("read nothing")
	}
}

// BenchmarkIntervalEvery100ms is BenchmarkIntervalOf64 with a reporter's
// pace: an Interval of 64 Recorders, two recording flat out, every 100 ms,
// so that each one finds both writers' tallies to take (back to back, most
// find nothing new). Its ns/op is the 100 ms; the metrics are the
// Intervals' own times (see everyTenthSecond). Run it with -benchtime 300x
// for a p99 of 300.
func BenchmarkIntervalEvery100ms(b *testing.B) {
	h, stop := atPace()
	defer stop()
	var s counter.Snapshot
	b.ReportAllocs()
	everyTenthSecond(b, func() { h.Interval(&s) }, nil)
}

// atPace returns a Histogram of 64 Recorders, 62 of them idle after 100
// spans each, whose spans an Interval took, and two recording flat out
// until stop is called, which closes them all: what a reporter's Intervals
// take at BenchmarkIntervalEvery100ms's load.
func atPace() (h *counter.Histogram, stop func()) {
	h = counter.NewHistogram()
	idle := make([]*counter.Recorder, 62)
	for i := range idle {
		idle[i] = h.Recorder()
		for k := range 100 {
			idle[i].Record(spans[(i+k)&1023])
		}
	}
	var s counter.Snapshot
	h.Interval(&s)
	stopWriters := recordFlatOut(h, 2)
	return h, func() {
		stopWriters()
		for _, r := range idle {
			r.Close()
		}
	}
}

// everyTenthSecond calls f every 100 ms, on a thread of its own, until b
// has its calls, and reports their median, 99th percentile and maximum in
// wall time (p50-µs, p99-µs, max-µs) and in the thread's CPU time
// (cpu-p50-µs, cpu-p99-µs, cpu-max-µs). Beside two goroutines recording
// flat out on a machine of two CPUs, the wall time also holds the time the
// thread waited for a CPU, which the Go scheduler, the kernel and the host
// hand out (up to tens of milliseconds here); the CPU time, the system
// call's included, is what the call costs. mark, where not nil, is called
// just outside the timing before and after each call, so that a caller can
// note what else happened during it.
func everyTenthSecond(b *testing.B, f, mark func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if mark == nil {
		mark = func() {}
	}
	var wall, cpu []time.Duration
	for b.Loop() {
		time.Sleep(100 * time.Millisecond)
		mark()
		t0, c0 := time.Now(), threadCPU()
		f()
		cpu = append(cpu, threadCPU()-c0)
		wall = append(wall, time.Since(t0))
		mark()
	}
	for _, m := range []struct {
		prefix string
		ds     []time.Duration
	}{{"", wall}, {"cpu-", cpu}} {
		b.ReportMetric(float64(percentile(m.ds, 0.5).Nanoseconds())/1e3, m.prefix+"p50-µs")
		b.ReportMetric(float64(percentile(m.ds, 0.99).Nanoseconds())/1e3, m.prefix+"p99-µs")
		b.ReportMetric(float64(percentile(m.ds, 1).Nanoseconds())/1e3, m.prefix+"max-µs")
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

// decades are 1,024 spans over three decades, 10³ to 10⁶ ticks, evenly in
// the logarithm: a window of about 1,277 buckets.
var decades = func() (ds [1024]counter.Tickdelta) {
	for i := range ds {
		ds[i] = counter.Tickdelta(1000 * math.Pow(1000, float64(i*7919%1024)/1024))
	}
	return ds
}()

// BenchmarkIntervalOfBusyWriters is a reporter's Interval every 100 ms
// where most writers record: 62 of 64 Recorders recording spans over three
// decades flat out (recorders=62of64), and a Family of 200 series, each
// written by 8 Recorders, 8 goroutines each recording into its 200 in
// turn (family=200x8). Its metrics are as BenchmarkIntervalEvery100ms's;
// run it with -benchtime 100x.
func BenchmarkIntervalOfBusyWriters(b *testing.B) {
	b.Run("recorders=62of64", func(b *testing.B) {
		h := counter.NewHistogram()
		idle := []*counter.Recorder{h.Recorder(), h.Recorder()}
		for _, r := range idle {
			for k := range 100 {
				r.Record(decades[k])
			}
		}
		stop := flatOut(62, func(w int) func(i int) {
			r := h.Recorder()
			return func(i int) {
				if i < 0 {
					r.Close()
					return
				}
				r.Record(decades[i&1023])
			}
		})
		var s counter.Snapshot
		everyTenthSecond(b, func() { h.Interval(&s) }, nil)
		stop()
	})
	b.Run("family=200x8", func(b *testing.B) { familyOfBusyWriters(b, 0) })
	b.Run("family=200x8paced", func(b *testing.B) { familyOfBusyWriters(b, 20) })
}

// familyOfBusyWriters is BenchmarkIntervalOfBusyWriters's family: 8
// goroutines, each with a Recorder of each of 200 series, recording into
// them in turn, flat out, or, where burst is not 0, burst spans then a
// sleep of a millisecond (about 16,000 spans a goroutine a second: a few
// spans a Recorder an Interval).
func familyOfBusyWriters(b *testing.B, burst int) {
	{
		f, err := counter.NewFamily([]string{"route"}, 0)
		if err != nil {
			b.Fatal(err)
		}
		series := make([]*counter.Histogram, 200)
		for i := range series {
			series[i] = f.With("/route/" + strconv.Itoa(i))
		}
		stop := flatOut(8, func(w int) func(i int) {
			rs := make([]*counter.Recorder, len(series))
			for i, h := range series {
				rs[i] = h.Recorder()
			}
			return func(i int) {
				if i < 0 {
					for _, r := range rs {
						r.Close()
					}
					return
				}
				rs[i%200].Record(decades[i&1023])
				if burst > 0 && i%burst == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		})
		visit := func([]string, *counter.Snapshot) {}
		everyTenthSecond(b, func() { f.Interval(visit) }, nil)
		stop()
	}
}

// A floorTally is what the least reader of a busy writer must read of it:
// a word that says whether it recorded, one bit a chunk of 32 buckets it
// touched, and counts over three decades, allocated apart as a tally's
// are: of a byte, or of 32 bits (wide) where a writer records more than
// 255 spans a bucket between two reads, as a tally's are. Its writer and
// its reader use plain loads and stores, as a Recorder's do on amd64, and
// nothing more: no journal, no exactness for a record in flight, no check
// of a byte's overflow (the race detector would object; it is a floor, not
// a histogram).
type floorTally struct {
	seq, touched uint64
	small        []uint8
	counts       []uint32
}

// floorFrom and floorWindow are the window of floorTally's counts: the
// buckets of spans from 10³ to 10⁶ ticks.
var floorFrom = handover.BucketOf(1000)

const floorWindow = 1280

func newFloorTally(wide bool) *floorTally {
	if wide {
		return &floorTally{counts: make([]uint32, floorWindow)}
	}
	return &floorTally{small: make([]uint8, floorWindow)}
}

func (t *floorTally) record(d counter.Tickdelta) {
	b := handover.BucketOf(uint64(d)) - floorFrom
	if t.counts != nil {
		t.counts[b]++
	} else {
		t.small[b]++
	}
	t.touched |= 1 << (b >> 5 & 63)
	t.seq++
}

// take adds what t counted since the last take to sum, a chunk touched at
// a time (narrow counts eight a step), and empties those chunks.
func (t *floorTally) take(sum []uint64) {
	b := t.touched
	t.touched = 0
	for ; b != 0; b &= b - 1 {
		c := bits.TrailingZeros64(b) << 5
		if t.counts != nil {
			for j, v := range t.counts[c:min(c+32, floorWindow)] {
				if v != 0 {
					sum[c+j] += uint64(v)
					t.counts[c+j] = 0
				}
			}
			continue
		}
		for j := c; j < min(c+32, floorWindow); j += 8 {
			if binary.LittleEndian.Uint64(t.small[j:]) == 0 {
				continue
			}
			for k := j; k < j+8; k++ {
				sum[k] += uint64(t.small[k])
				t.small[k] = 0
			}
		}
	}
}

// BenchmarkFloorOfBusyWriters is the least work a reader of
// BenchmarkIntervalOfBusyWriters's writers could do, at its pace and
// beside the same writers: for each writer, a load of its word, and where
// it recorded, a read of the chunks of 32 buckets it touched, into a sum
// of its series; one membarrier(2) an Interval. Its metrics are
// BenchmarkIntervalOfBusyWriters's: where the floor's p99 is over a goal,
// no Interval of those writers meets it on this machine.
func BenchmarkFloorOfBusyWriters(b *testing.B) {
	if _, _, errno := unix.Syscall(unix.SYS_MEMBARRIER, membarrierRegisterPrivateExpedited, 0, 0); errno != 0 {
		b.Skip("no private expedited membarrier:", errno)
	}
	read := func(ts []*floorTally, seen []uint64, sums [][]uint64, of func(i int) int) func() {
		return func() {
			unix.RawSyscall(unix.SYS_MEMBARRIER, membarrierPrivateExpedited, 0, 0)
			for i, t := range ts {
				if s := t.seq; s != seen[i] {
					seen[i] = s
					t.take(sums[of(i)])
				}
			}
		}
	}
	b.Run("recorders=62of64", func(b *testing.B) {
		ts := make([]*floorTally, 64)
		for i := range ts {
			ts[i] = newFloorTally(true) // its writers' tallies are wide
		}
		stop := flatOut(62, func(w int) func(i int) {
			t := ts[w]
			return func(i int) {
				if i >= 0 {
					t.record(decades[i&1023])
				}
			}
		})
		sums := [][]uint64{make([]uint64, floorWindow)}
		everyTenthSecond(b, read(ts, make([]uint64, len(ts)), sums, func(int) int { return 0 }), nil)
		stop()
	})
	b.Run("family=200x8paced", func(b *testing.B) {
		ts := make([]*floorTally, 8*200) // writer w's series s at w*200+s
		for i := range ts {
			ts[i] = newFloorTally(false)
		}
		stop := flatOut(8, func(w int) func(i int) {
			return func(i int) {
				if i < 0 {
					return
				}
				ts[w*200+i%200].record(decades[i&1023])
				if i%20 == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		})
		sums := make([][]uint64, 200)
		for i := range sums {
			sums[i] = make([]uint64, floorWindow)
		}
		everyTenthSecond(b, read(ts, make([]uint64, len(ts)), sums, func(i int) int { return i % 200 }), nil)
		stop()
	})
}
