package handover

import (
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkBarrier passes each barrier this machine has while another
// goroutine records flat out, as Interval passes it: on a virtual machine
// the membarrier's interrupt of the other CPU is most of an Interval's
// time. It reports the median and 99th percentile (p50-µs, p99-µs).
func BenchmarkBarrier(b *testing.B) {
	for _, br := range Barriers() {
		b.Run(br.String(), func(b *testing.B) {
			c := NewCollector(br)
			var stop atomic.Bool
			done := make(chan struct{})
			go func() {
				defer close(done)
				w := c.NewWriter()
				defer w.Close()
				for i := 0; !stop.Load(); i++ {
					w.Record(int64(i & 1023))
				}
			}()
			took := make([]time.Duration, 0, 1<<16)
			for b.Loop() {
				t0 := time.Now()
				br.pass()
				if len(took) < cap(took) {
					took = append(took, time.Since(t0))
				}
			}
			stop.Store(true)
			<-done
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Nanoseconds())/1e3, "p50-µs")
			b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds())/1e3, "p99-µs")
		})
	}
}

// TestBarrierNames checks the names the benchmark and the tests print.
func TestBarrierNames(t *testing.T) {
	for b, want := range map[Barrier]string{NoBarrier: "none", Membarrier: "membarrier", StopTheWorld: "stop the world", 7: "Barrier(7)"} {
		if got := b.String(); got != want {
			t.Errorf("Barrier(%d).String() = %q; want %q", b, got, want)
		}
	}
}
