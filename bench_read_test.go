package counter_test

import (
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/floor"
)

// The benchmarks of every read, to be run side by side in one run:
//
//	go test -run '^$' -bench 'Floor|Counter|Monotonic|Time' -count 10 .
//
// Each adds its readings into a local and leaves the sum in a package
// variable, so that no read can be dropped, at the cost of one register add a
// read.

var (
	sinkStamp counter.Tickstamp
	sinkInt   int
	sinkTime  time.Time
	sinkDur   time.Duration
)

// BenchmarkFloor is the bare read sequence of NowUnordered (RDTSC and the
// join of its halves, MRS CNTVCT_EL0), each reading added up, unrolled
// floor.Reads times in one assembly function with no call per read: its
// ns/op is per read.
func BenchmarkFloor(b *testing.B) { benchUnrolled(b, floor.Unrolled) }

// BenchmarkFloorOrdered is the ordered read sequence of Now on this CPU
// (RDTSCP where the CPU has it, else LFENCE; RDTSC; ISB; MRS CNTVCT_EL0),
// unrolled as BenchmarkFloor's is.
func BenchmarkFloorOrdered(b *testing.B) {
	benchUnrolled(b, nowFloor(floor.UnrolledOrdered, floor.UnrolledRDTSCP))
}

// BenchmarkFloorFenced is LFENCE; RDTSC unrolled, Now's sequence on a CPU
// without RDTSCP, so that a CPU with it shows which of the two is cheaper.
func BenchmarkFloorFenced(b *testing.B) { benchUnrolled(b, floor.UnrolledOrdered) }

// BenchmarkFloorCalled calls a copy of NowUnordered's assembly stub
// floor.Reads times from assembly, passing the argument and the reading on
// the stack as compiled Go does: no Go code, only the call. It sits between
// BenchmarkFloor and BenchmarkCounterNowUnordered, so that the distance from
// the floor splits into what the call costs and what the Go loop around it
// costs.
func BenchmarkFloorCalled(b *testing.B) { benchUnrolled(b, floor.Called) }

// BenchmarkFloorOrderedCalled is BenchmarkFloorCalled for Now's stub on
// this CPU, the ordered read.
func BenchmarkFloorOrderedCalled(b *testing.B) {
	benchUnrolled(b, nowFloor(floor.CalledOrdered, floor.CalledRDTSCP))
}

// nowFloor returns rdtscp where Now reads with RDTSCP on this CPU, else
// fenced.
func nowFloor(fenced, rdtscp func() uint64) func() uint64 {
	if counter.NowSequence() == "RDTSCP" {
		return rdtscp
	}
	return fenced
}

func benchUnrolled(b *testing.B, unrolled func() uint64) {
	if !floor.Available {
		b.Skip("no unrolled read in this build: purego, or neither amd64 nor arm64")
	}
	b.ReportAllocs()
	var acc uint64
	for n := b.N; n > 0; n -= floor.Reads {
		acc += unrolled()
	}
	sinkStamp = counter.Tickstamp(acc)
}

func BenchmarkCounterNow(b *testing.B) {
	c := counter.New(counter.Gigahertz())
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += c.Now()
	}
	sinkStamp = acc
}

// BenchmarkCounterNowFenced is Now's read where the CPU has no RDTSCP
// (LFENCE; RDTSC), taken here whatever the CPU has.
func BenchmarkCounterNowFenced(b *testing.B) {
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += counter.NowFenced()
	}
	sinkStamp = acc
}

func BenchmarkCounterNowUnordered(b *testing.B) {
	c := counter.New(counter.Gigahertz())
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += c.NowUnordered()
	}
	sinkStamp = acc
}

func BenchmarkCounterBegin(b *testing.B) {
	c := counter.New(counter.Gigahertz())
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += c.Begin()
	}
	sinkStamp = acc
}

func BenchmarkCounterEnd(b *testing.B) {
	c := counter.New(counter.Gigahertz())
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += c.End()
	}
	sinkStamp = acc
}

func BenchmarkCounterNowCPU(b *testing.B) {
	c := counter.New(counter.Gigahertz())
	b.ReportAllocs()
	var acc counter.Tickstamp
	var cpus int
	for b.Loop() {
		t, cpu := c.NowCPU()
		acc += t
		cpus += cpu
	}
	sinkStamp, sinkInt = acc, cpus
}

func BenchmarkCounterSince(b *testing.B) {
	c := counter.New(counter.Gigahertz())
	start := c.Now()
	b.ReportAllocs()
	var acc time.Duration
	for b.Loop() {
		acc += c.Since(start)
	}
	sinkDur = acc
}

// BenchmarkMonotonicNow is Now of the Counter that Monotonic returns: the
// runtime's clock behind the assembly stub's branch, to set beside
// BenchmarkMonotonicClockNow.
func BenchmarkMonotonicNow(b *testing.B) {
	c := counter.Monotonic()
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += c.Now()
	}
	sinkStamp = acc
}

func BenchmarkMonotonicClockNow(b *testing.B) {
	var clk counter.MonotonicClock
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += clk.Now()
	}
	sinkStamp = acc
}

func BenchmarkTimeNow(b *testing.B) {
	b.ReportAllocs()
	var last time.Time
	for b.Loop() {
		last = time.Now()
	}
	sinkTime = last
}

func BenchmarkTimeSince(b *testing.B) {
	start := time.Now()
	b.ReportAllocs()
	var acc time.Duration
	for b.Loop() {
		acc += time.Since(start)
	}
	sinkDur = acc
}
