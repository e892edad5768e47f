package counter_test

import (
	"testing"
	"time"

	"github.com/tickstamp/counter"
)

// The benchmarks of every read, beside time.Now, to be run side by side in
// one run:
//
//	go test -run '^$' -bench 'Counter|Monotonic|RawClock|Time' -count 10 .
//
// The bench module's BenchmarkRead sets each read beside its instructions
// alone and beside a call of its stub with no Go code around it.
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

func BenchmarkCounterNow(b *testing.B) {
	c := counter.New(oneGHz)
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
	c := counter.New(oneGHz)
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += c.NowUnordered()
	}
	sinkStamp = acc
}

func BenchmarkCounterBegin(b *testing.B) {
	c := counter.New(oneGHz)
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += c.Begin()
	}
	sinkStamp = acc
}

func BenchmarkCounterEnd(b *testing.B) {
	c := counter.New(oneGHz)
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += c.End()
	}
	sinkStamp = acc
}

func BenchmarkCounterNowCPU(b *testing.B) {
	c := counter.New(oneGHz)
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
	c := counter.New(oneGHz)
	start := c.Now()
	b.ReportAllocs()
	var acc time.Duration
	for b.Loop() {
		acc += c.Since(start)
	}
	sinkDur = acc
}

// BenchmarkMonotonicNow is Now of the Counter that Monotonic returns: the
// runtime's clock behind the assembly stub's branch.
func BenchmarkMonotonicNow(b *testing.B) {
	c := counter.Monotonic()
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += c.Now()
	}
	sinkStamp = acc
}

// BenchmarkRawClockNow is a read of the raw monotonic clock as discovery's
// measurement reads it.
func BenchmarkRawClockNow(b *testing.B) {
	b.ReportAllocs()
	var acc counter.Tickstamp
	for b.Loop() {
		acc += counter.Tickstamp(counter.SyscallNanos())
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
