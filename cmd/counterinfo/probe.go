package main

import (
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/tickstamp/counter"
)

// bracketTries is how many brackets each end of the drift window tries,
// keeping the tightest.
const bracketTries = 64

// A bracket places one reading of the raw clock on the counter's scale: the
// counter read just before and just after it.
type bracket struct {
	mid   counter.Tickstamp // the counter's midpoint
	width counter.Tickdelta // after less before
	raw   int64             // the raw clock, ns
}

// tightestBracket reads the raw clock between two ordered reads of the
// counter tries times and returns the narrowest bracket: the one no
// interrupt or preemption stretched.
func tightestBracket(c counter.Counter, raw counter.RawMonotonicClock, tries int) bracket {
	best := bracket{width: counter.MaxTickdelta}
	for range tries {
		t0 := c.Begin()
		ns := int64(raw.Now())
		t1 := c.End()
		if w := t1.Sub(t0); w >= 0 && w < best.width {
			best = bracket{mid: t0.Add(w / 2), width: w, raw: ns}
		}
	}
	return best
}

// A drift is how far the counter, converted at its rate, ran from the raw
// clock over a window.
type drift struct {
	ppm      float64 // positive where the counter ran fast
	boundPPM float64 // how far the brackets and the counter's step may move ppm
}

// measureDrift compares the counter with the raw monotonic clock over
// window: a bracket at each end, the tightest of several, and the counter's
// span converted at its rate set against the raw clock's. step is the
// counter's smallest step, by which each bracket may be wider than it reads
// (a counter that moves in 1 µs steps brackets in zero ticks).
func measureDrift(c counter.Counter, window time.Duration, step counter.Tickdelta) drift {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var raw counter.RawMonotonicClock
	start := tightestBracket(c, raw, bracketTries)
	time.Sleep(window)
	end := tightestBracket(c, raw, bracketTries)

	rawNS := float64(end.raw - start.raw)
	if rawNS <= 0 {
		return drift{}
	}
	counterNS := float64(end.mid.Sub(start.mid).Duration(c.Rate()))
	// Each end's raw reading lies within its bracket, widened by a step.
	slackNS := float64((start.width + end.width + 2*step).Duration(c.Rate())) / 2
	return drift{
		ppm:      (counterNS - rawNS) / rawNS * 1e6,
		boundPPM: slackNS / rawNS * 1e6,
	}
}

// Read costs are the median of readBatches batches of readsPerBatch reads,
// each batch timed as a whole so that the clock that times it adds almost
// nothing to one read.
const (
	readsPerBatch = 1000
	readBatches   = 31
)

// readCosts measures, in ns a read to a tenth, each read of c and the clocks to compare
// it with, keyed as in the report's read_ns.
func readCosts(c counter.Counter) map[string]float64 {
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
			var m counter.MonotonicClock
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
			var r counter.RawMonotonicClock
			for range readsPerBatch {
				sink += uint64(r.Now())
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

// stepReads is how many back-to-back reads smallestStep compares.
const stepReads = 20000

// smallestStep returns the smallest non-zero difference between
// back-to-back Now reads: the counter's own step where it moves in steps
// larger than a read's cost (AMD's move in steps of about 10 ns), else about
// one read's cost; 0 where the counter never moved.
func smallestStep(c counter.Counter) counter.Tickdelta {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	step := counter.MaxTickdelta
	prev := c.Now()
	for range stepReads {
		t := c.Now()
		if d := t.Sub(prev); d > 0 && d < step {
			step = d
		}
		prev = t
	}
	if step == counter.MaxTickdelta {
		return 0
	}
	return step
}
