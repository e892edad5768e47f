package counter

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
	for _, br := range barriersHere() {
		b.Run(br.String(), func(b *testing.B) {
			h := NewHistogram()
			var stop atomic.Bool
			done := make(chan struct{})
			go func() {
				defer close(done)
				r := h.Recorder()
				defer r.Close()
				for i := 0; !stop.Load(); i++ {
					r.Record(Tickdelta(i & 1023))
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
			sortDurations(took)
			b.ReportMetric(float64(took[len(took)/2].Nanoseconds())/1e3, "p50-µs")
			b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds())/1e3, "p99-µs")
		})
	}
}

func sortDurations(ds []time.Duration) { slices.Sort(ds) }
