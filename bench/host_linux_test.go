package bench_test

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// BenchmarkColdPages measures what the machine charges for memory that
// was not touched for a while: after a pause of 1, 10 or 100 ms, spent
// asleep, it reads one word of each of 64 pages of a buffer it wrote at
// the start, then reads them again. ns/page is the first read's median a
// page, p90-ns/page its 90th percentile, warm-ns/page the second read's
// median, and faults/op the page faults the thread took in the first
// read. Where the first read costs microseconds a page and grows with the
// pause, the second costs nanoseconds and the thread takes no fault, the
// host, not the code or the guest's kernel, makes memory left alone slow
// to come back to: every Interval at a reporter's pace, and every
// collection that allocates memory the garbage collector freed a while
// ago, pays it for each page it touches.
//
//	go test -run '^$' -bench ColdPages -benchtime 40x
func BenchmarkColdPages(b *testing.B) {
	const pages = 64
	buf := make([]uint64, pages*4096/8)
	for i := range buf {
		buf[i] = uint64(i)
	}
	var sum uint64
	var faults int64
	touch := func() time.Duration {
		var r0, r1 unix.Rusage
		_ = unix.Getrusage(unix.RUSAGE_THREAD, &r0)
		t0 := time.Now()
		for p := range pages {
			sum += buf[p*512]
		}
		took := time.Since(t0)
		_ = unix.Getrusage(unix.RUSAGE_THREAD, &r1)
		faults += r1.Minflt - r0.Minflt + r1.Majflt - r0.Majflt
		return took
	}
	for _, pause := range []time.Duration{time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond} {
		b.Run(fmt.Sprintf("pause=%v", pause), func(b *testing.B) {
			var cold, warm []time.Duration
			runtime.LockOSThread() // RUSAGE_THREAD is the thread's
			defer runtime.UnlockOSThread()
			faults = 0
			for b.Loop() {
				time.Sleep(pause)
				cold = append(cold, touch())
				n := faults
				warm = append(warm, touch())
				faults = n
			}
			slices.Sort(cold)
			slices.Sort(warm)
			b.ReportMetric(float64(cold[len(cold)/2].Nanoseconds())/pages, "ns/page")
			b.ReportMetric(float64(cold[len(cold)*9/10].Nanoseconds())/pages, "p90-ns/page")
			b.ReportMetric(float64(warm[len(warm)/2].Nanoseconds())/pages, "warm-ns/page")
			b.ReportMetric(float64(faults)/float64(len(cold)), "faults/op")
		})
	}
	if sum == 0 {
		b.Fatal("read nothing")
	}
}
