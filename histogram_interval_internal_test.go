package counter

import (
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tickstamp/counter/internal/handover"
	"github.com/tickstamp/counter/internal/race"
)

// envCount returns the count the environment variable name sets, or def
// where it is unset; a test that finds anything else than a count of at
// least 1,000 fails.
func envCount(t testing.TB, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1000 {
		t.Fatalf("%s=%q: want a count of at least 1000", name, v)
	}
	return n
}

// TestIntervalExactUnderEachBarrier has four goroutines record flat out,
// two through Recorders and two through Histogram.Record, spans, negative
// spans, migrated spans and spans of an unknown CPU, while a reporter takes
// Intervals back to back, under each barrier this machine has. Before each
// Interval the reporter loads how many records each writer has finished,
// and after it the snapshots so far must hold at least that many; at the
// end they hold every record exactly once, with exact sums and bounds.
// COUNTER_BARRIER_SPANS sets the records of each writer.
func TestIntervalExactUnderEachBarrier(t *testing.T) {
	per := 200_000
	if race.Enabled {
		per = 20_000
	}
	per = envCount(t, "COUNTER_BARRIER_SPANS", per)
	// span returns writer w's i-th record: a span, or every 97th a negative
	// span, every 89th a migrated one and every 83rd one of an unknown CPU.
	span := func(w, i int) (d Tickdelta, from, to int) {
		d = Tickdelta((i*7919+w*104729)%3_000_000) << (i % 5 * 8)
		switch {
		case i%97 == 0:
			return -d - 1, 0, 0
		case i%89 == 0:
			return d, 0, 1
		case i%83 == 0:
			return d, -1, -1
		}
		return d, 0, 0
	}
	for _, b := range handover.Barriers() {
		t.Run(b.String(), func(t *testing.T) {
			h := newHistogram(b, mostShards())
			var finished [4]atomic.Int64
			var writers sync.WaitGroup
			for w := range 4 {
				writers.Add(1)
				go func() {
					defer writers.Done()
					r := h.Recorder()
					defer r.Close()
					for i := range per {
						d, from, to := span(w, i)
						switch {
						case w >= 2:
							h.Record(d) // a shard knows no CPUs
						case from == to && from >= 0:
							r.Record(d)
						default:
							r.RecordCPU(d, from, to)
						}
						if i%64 == 63 {
							finished[w].Store(int64(i + 1))
						}
					}
					finished[w].Store(int64(per))
				}()
			}
			var total, s Snapshot
			seen := func() uint64 { return total.Count() + total.Negative() + total.Migrated() }
			intervals := 0
			for {
				var before int64
				for w := range finished {
					before += finished[w].Load()
				}
				h.Interval(&s)
				total.Merge(&s)
				intervals++
				if got := seen(); got < uint64(before) {
					t.Fatalf("after %d Intervals the snapshots hold %d records; %d had finished before the last began", intervals, got, before)
				}
				if before == int64(4*per) {
					break
				}
			}
			writers.Wait()
			h.Interval(&s)
			total.Merge(&s)

			var want Snapshot
			for w := range 4 {
				for i := range per {
					d, from, to := span(w, i)
					switch {
					case d < 0 && (w >= 2 || from == to):
						want.d.Add(handover.KindNegative, int64(d))
					case w >= 2:
						want.d.Add(handover.KindSpan, int64(d))
					case from != to:
						want.d.Add(handover.KindMigrated, int64(d))
					case from < 0:
						want.d.Add(handover.KindUnknown, int64(d))
					default:
						want.d.Add(handover.KindSpan, int64(d))
					}
				}
			}
			t.Logf("%d records over %d Intervals", seen(), intervals)
			if !total.d.Equal(&want.d) {
				t.Fatalf("the snapshots add up to count %d, sum %d, min %d, max %d, negative %d, migrated %d, unknown %d;\nwant %d, %d, %d, %d, %d, %d, %d",
					total.Count(), total.Sum(), total.Min(), total.Max(), total.Negative(), total.Migrated(), total.UnknownCPU(),
					want.Count(), want.Sum(), want.Min(), want.Max(), want.Negative(), want.Migrated(), want.UnknownCPU())
			}
		})
	}
}

// TestDroppedRecordersAreFreed creates and drops Recorders that each record
// a few spans, never closed, and takes Intervals meanwhile, as a service
// that takes a Recorder per request would: every span arrives, and once the
// garbage collector has run, the heap is back within 1 MB of where it
// started. COUNTER_DROPPED sets how many (3,000; CI drops 100,000).
func TestDroppedRecordersAreFreed(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 100,000 Recorders")
	}
	h := NewHistogram()
	var s, total Snapshot
	h.Interval(&s) // the Histogram's own memory, before the baseline
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := heap()
	n := envCount(t, "COUNTER_DROPPED", 3_000)
	spans, negative := 0, 0
	for i := range n {
		r := h.Recorder()
		r.Record(Tickdelta(i))
		r.Record(Tickdelta(i) + 1)
		r.Record(-1)
		spans, negative = spans+2, negative+1
		if i%2 == 0 {
			// Past its first handover.SpillSpans spans, a Recorder takes a
			// tally, a place on the Histogram's list and a cleanup.
			for k := range handover.SpillSpans {
				r.Record(Tickdelta(k))
			}
			spans += handover.SpillSpans
		}
		if i%1000 == 999 {
			h.Interval(&s)
			total.Merge(&s)
			runtime.GC() // as a service's heap grows, the collector runs
		}
	}
	listed := func() int { return h.c.Listed() - h.listedShards() }
	deadline := time.Now().Add(30 * time.Second)
	for listed() > 0 && time.Now().Before(deadline) {
		runtime.GC() // finds the Recorders unreachable; their cleanups run after
		time.Sleep(time.Millisecond)
	}
	h.Interval(&s)
	total.Merge(&s)
	if left := listed(); left != 0 {
		t.Fatalf("%d dropped Recorders still listed after 30 s of collections", left)
	}
	if total.Count() != uint64(spans) || total.Negative() != uint64(negative) {
		t.Fatalf("the snapshots hold %d spans and %d negative; want %d and %d", total.Count(), total.Negative(), spans, negative)
	}
	grown := int64(heap()) - int64(base)
	t.Logf("heap %+d bytes after %d dropped Recorders", grown, n)
	if grown > 1<<20 {
		t.Fatalf("the heap grew by %d bytes; want at most 1 MB", grown)
	}
}
