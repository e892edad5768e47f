package main

import (
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/rawclock"
	"github.com/tickstamp/counter/internal/step"
)

// Read costs are the median of readBatches batches of readsPerBatch reads,
// each batch timed as a whole so that the clock that times it adds almost
// nothing to one read.
const (
	readsPerBatch = 1000
	readBatches   = 31
)

// readCosts measures, in ns a read to a tenth, each read of c and the clocks to compare
// it with, keyed as in the report's read_ns: raw_monotonic is raw's read, the
// raw clock as the package's brackets read it.
func readCosts(c counter.Counter, raw rawclock.Clock) map[string]float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var sink uint64
	// Each batch is a closure called once, whose loop inlines the read.
	batches := []struct {
		key   string
		batch func()
	}{
		{"now", func() {
			for range readsPerBatch {
				sink += uint64(c.Now())
			}
		}},
		{"now_unordered", func() {
			for range readsPerBatch {
				sink += uint64(c.NowUnordered())
			}
		}},
		{"begin", func() {
			for range readsPerBatch {
				sink += uint64(c.Begin())
			}
		}},
		{"end", func() {
			for range readsPerBatch {
				sink += uint64(c.End())
			}
		}},
		{"now_cpu", func() {
			for range readsPerBatch {
				t, cpu := c.NowCPU()
				sink += uint64(t) + uint64(cpu)
			}
		}},
		{"monotonic", func() {
			m := counter.Monotonic()
			for range readsPerBatch {
				sink += uint64(m.Now())
			}
		}},
		{"time_now", func() {
			for range readsPerBatch {
				sink += uint64(time.Now().UnixNano())
			}
		}},
		{"raw_monotonic", func() {
			for range readsPerBatch {
				sink += uint64(raw.Read())
			}
		}},
	}
	costs := make(map[string]float64, len(batches))
	for _, b := range batches {
		costs[b.key] = math.Round(medianBatchNS(b.batch)/readsPerBatch*10) / 10
	}
	runtime.KeepAlive(sink)
	return costs
}

// medianBatchNS runs batch once to warm up, then readBatches times, and
// returns the median time one run took, in ns.
func medianBatchNS(batch func()) float64 {
	batch()
	took := make([]float64, readBatches)
	for i := range took {
		start := time.Now()
		batch()
		took[i] = float64(time.Since(start))
	}
	slices.Sort(took)
	return took[len(took)/2]
}

// smallestStep returns the smallest step of c's Begin reads as
// step.Smallest finds it: the least advance a read sees, which the package's
// bounds allow for and which read the counter as Begin does; 0 where the
// counter never moved. Where a read costs more than the counter's increment,
// it is about a read's cost, not the counter's resolution.
func smallestStep(c counter.Counter) counter.Tickdelta {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return counter.Tickdelta(step.Smallest(func() uint64 { return uint64(c.Begin()) }))
}

// readFloor measures the read floor of the pair p on c with counter.Floor,
// on a locked thread, into s, once to warm up and once to report, and
// returns its p50, p99 and max in ticks and in nanoseconds at c's rate
// (zero at the zero rate).
func readFloor(c counter.Counter, p counter.Pair, s *counter.Snapshot) (floorTicks, floorNS) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c.Floor(p, s)
	c.Floor(p, s)
	return floorOf(s, c.Rate())
}

// floorOf returns the p50, p99 and max of the spans of s in ticks, and in
// nanoseconds at rate to a tenth (zero at the zero rate).
func floorOf(s *counter.Snapshot, rate counter.TickRate) (floorTicks, floorNS) {
	t := floorTicks{P50: int64(s.Quantile(0.5)), P99: int64(s.Quantile(0.99)), Max: int64(s.Max())}
	toNS := func(ticks int64) float64 { return round(ns(counter.Tickdelta(ticks), rate), 1) }
	return t, floorNS{P50: toNS(t.P50), P99: toNS(t.P99), Max: toNS(t.Max)}
}

// resolution returns the counter's resolution in ticks, its least
// increment, as step.Resolution finds it from step.Pairs back-to-back
// NowUnordered reads on a locked thread: the cheapest read, whose costs vary
// the most from pair to pair, which the greatest common divisor needs where
// reads are slower than the counter; 0 where the counter never moved.
func resolution(c counter.Counter) float64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return step.Resolution(func() uint64 { return uint64(c.NowUnordered()) })
}
