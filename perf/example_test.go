package perf_test

import (
	"errors"
	"fmt"
	"log"
	"runtime"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/perf"
)

// Count the instructions and cycles of a function beside its duration from
// the counter. Most virtual machines have no hardware counters: there
// OpenGroup's error wraps errors.ErrUnsupported, and only the time remains.
func Example() {
	var clock counter.Clock
	if c, err := counter.Discover(); err == nil {
		clock = c
	} else {
		clock = counter.Monotonic()
	}

	runtime.LockOSThread() // the counters count this thread
	defer runtime.UnlockOSThread()

	g, err := perf.OpenGroup(perf.Options{}, perf.Instructions, perf.Cycles)
	if errors.Is(err, errors.ErrUnsupported) {
		log.Printf("counting time only: %v", err)
	} else if err != nil {
		log.Print(err)
		return
	} else {
		defer g.Close()
		g.Enable()
	}

	start := clock.Now()
	sum := work(1_000_000)
	span := clock.Now().Sub(start)

	took := span.Duration(clock.Rate())
	if g == nil {
		fmt.Printf("sum %d in %v\n", sum, took)
		return
	}
	g.Disable()
	r, err := g.Read()
	if err != nil {
		log.Print(err)
		return
	}
	ins, cyc := r.Reading(0).Scaled(), r.Reading(1).Scaled()
	fmt.Printf("sum %d in %v: %d instructions, %d cycles, %.2f per cycle, %.2f GHz\n",
		sum, took, ins, cyc, float64(ins)/float64(cyc), float64(cyc)/float64(took.Nanoseconds()))
}

func work(n int) int {
	s := 0
	for i := range n {
		s += i * i % 7
	}
	return s
}

// Count the instructions and cycles of a stretch of work beside its
// duration, as the README shows. Where OpenGroup refuses, as it does for
// hardware events in most virtual machines and everywhere but Linux, the
// error says why and nothing is counted.
func ExampleOpenGroup() {
	c, err := counter.Discover()
	if err != nil {
		log.Print(err)
		return
	}
	var sum int
	if err := countWork(c, func() { sum = work(1_000_000) }); err != nil {
		log.Print(err)
		return
	}
	fmt.Println("sum", sum)
}

// countWork is the README's snippet, whole: TestREADMESnippet checks the
// README shows these lines, the signature that makes c included.
func countWork(c counter.Counter, work func()) error {
	runtime.LockOSThread() // a Thread counter counts this OS thread only
	defer runtime.UnlockOSThread()
	g, err := perf.OpenGroup(perf.Options{}, perf.Instructions, perf.Cycles)
	if err != nil {
		// It wraps errors.ErrUnsupported where there are no hardware
		// counters (most VMs) or no perf_event_open (not Linux).
		return err
	}
	defer g.Close()
	g.Enable()
	start := c.Now()
	work()
	span := c.Now().Sub(start)
	g.Disable()
	r, err := g.Read()
	if err != nil {
		return err
	}
	fmt.Printf("%v: %d instructions, %d cycles\n", span.Duration(c.Rate()), r.Reading(0).Scaled(), r.Reading(1).Scaled())
	return nil
}

// Count the page faults of the whole process, every thread of it, over a
// stretch of work.
func ExampleOpen() {
	c, err := perf.Open(perf.Options{Scope: perf.Process}, perf.PageFaults)
	if err != nil {
		log.Print(err)
		return
	}
	defer c.Close()
	c.Enable()
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = 1
	}
	c.Disable()
	n, err := c.Read()
	if err != nil {
		log.Print(err)
		return
	}
	fmt.Printf("%d page faults filling %d MiB\n", n, len(buf)>>20)
}
