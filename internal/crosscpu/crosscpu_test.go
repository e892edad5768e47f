package crosscpu

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tickstamp/counter/internal/affinity"
)

// A fakeClock is a clock that advances one tick a read, shared by the
// publisher and the receiver.
type fakeClock struct{ now atomic.Uint64 }

func (c *fakeClock) publish() uint64 { return c.now.Add(1) }

// route returns a route between two CPUs where this machine can pin
// threads to two and run them at once, else an unpinned one that yields.
func route(t *testing.T) Route {
	cpus, err := affinity.Allowed()
	if err != nil || len(cpus) < 2 || runtime.GOMAXPROCS(0) < 2 {
		t.Logf("unpinned: CPUs %v (%v), GOMAXPROCS %d", cpus, err, runtime.GOMAXPROCS(0))
		return Route{Yield: true}
	}
	return Route{From: cpus[0], To: cpus[len(cpus)-1], Pinned: true}
}

// TestRunCounts runs a receiver that judges every seventh handoff one tick
// behind and every eleventh not at all: the tally must count exactly those,
// so that a backward reading cannot pass unseen.
func TestRunCounts(t *testing.T) {
	var c fakeClock
	calls := 0
	check := func(loaded uint64) (int64, bool) {
		calls++
		switch {
		case calls%11 == 0:
			return 0, false
		case calls%7 == 1:
			return -1, true
		}
		return int64(c.publish() - loaded), true
	}
	b := Budget{N: 7_000, Min: 7_000, Soft: 10 * time.Second, Hard: 10 * time.Second}
	r, err := Run(route(t), b, c.publish, check)
	if err != nil {
		t.Fatal(err)
	}
	if r.Handoffs != b.N {
		t.Fatalf("%d handoffs; want %d", r.Handoffs, b.N)
	}
	if r.Skipped != calls/11 {
		t.Errorf("%d skipped of %d calls; want %d", r.Skipped, calls, calls/11)
	}
	want := 0
	for i := 1; i <= calls; i++ {
		if i%11 != 0 && i%7 == 1 {
			want++
		}
	}
	if r.Backward != want || r.Closest != -1 {
		t.Errorf("%d backward, closest %d; want %d, closest -1", r.Backward, r.Closest, want)
	}
	if r.Quickest < 1 {
		t.Errorf("quickest %d; want at least 1 (the fake clock advances a tick a read)", r.Quickest)
	}
}

// TestRunExtremes judges handoffs with a script of distances, the least and
// the least not negative in the middle of it: Closest must be the least of
// them all, Quickest the least not negative, and Backward count the
// negative ones.
func TestRunExtremes(t *testing.T) {
	script := []int64{40, 12, -3, 7, -11, 0, 25, -2, 9}
	calls := 0
	check := func(uint64) (int64, bool) {
		d := script[calls%len(script)]
		calls++
		return d, true
	}
	var c fakeClock
	b := Budget{N: 10 * len(script), Min: 10 * len(script), Soft: 10 * time.Second, Hard: 10 * time.Second}
	r, err := Run(route(t), b, c.publish, check)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Result{Handoffs: b.N, Backward: 30, Closest: -11, Quickest: 0}); r != want {
		t.Errorf("%+v; want %+v", r, want)
	}
	script[5] = 1 // no handoff exactly 0 ahead: the least forward is 1
	calls = 0
	if r, err := Run(route(t), b, c.publish, check); err != nil || r.Quickest != 1 {
		t.Errorf("%+v (%v); want Quickest 1", r, err)
	}
}

// TestRunStops checks the budget: a run stops at Soft once it has Min
// handoffs, and at Hard where no reading is ever fresh.
func TestRunStops(t *testing.T) {
	var c fakeClock
	check := func(loaded uint64) (int64, bool) { return int64(c.publish() - loaded), true }
	start := time.Now()
	r, err := Run(route(t), Budget{N: math.MaxInt, Min: 10, Soft: 20 * time.Millisecond, Hard: time.Minute}, c.publish, check)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if r.Handoffs < 10 || took < 20*time.Millisecond || took > 20*time.Second {
		t.Errorf("%d handoffs in %v; want at least 10, in 20ms or a little more", r.Handoffs, took)
	}

	// A publisher that stores a reading every 5ms cannot give Min
	// handoffs by Hard.
	// Each handoff is of a store the receiver had not seen: no more
	// handoffs than stores.
	var stores atomic.Int64
	slow := func() uint64 { time.Sleep(5 * time.Millisecond); stores.Add(1); return c.publish() }
	start = time.Now()
	r, err = Run(route(t), Budget{N: 1 << 30, Min: 1 << 30, Soft: 0, Hard: 20 * time.Millisecond}, slow, check)
	took = time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if r.Handoffs > int(stores.Load()) || took < 20*time.Millisecond || took > 20*time.Second {
		t.Errorf("%d handoffs of %d stores in %v; want no more than the stores, in 20ms or a little more", r.Handoffs, stores.Load(), took)
	}
}

// TestRunPinned checks that a pinned route runs the publisher and the
// receiver on the CPUs it names.
func TestRunPinned(t *testing.T) {
	rt := route(t)
	if !rt.Pinned {
		t.Skip("no two CPUs to pin to")
	}
	var pubCPU, recvCPU atomic.Int64
	pubCPU.Store(-1)
	recvCPU.Store(-1)
	var c fakeClock
	publish := func() uint64 {
		if cpu, err := affinity.Current(); err == nil {
			pubCPU.Store(int64(cpu))
		}
		return c.publish()
	}
	check := func(loaded uint64) (int64, bool) {
		if cpu, err := affinity.Current(); err == nil {
			recvCPU.Store(int64(cpu))
		}
		return int64(c.publish() - loaded), true
	}
	if _, err := Run(rt, Budget{N: 100, Min: 100, Soft: 10 * time.Second, Hard: 10 * time.Second}, publish, check); err != nil {
		t.Fatal(err)
	}
	if int(pubCPU.Load()) != rt.From || int(recvCPU.Load()) != rt.To {
		t.Errorf("published on CPU %d, received on %d; want %d, %d", pubCPU.Load(), recvCPU.Load(), rt.From, rt.To)
	}
}

// TestRunCoarseClock checks that a clock whose readings repeat (a counter
// that moves in steps coarser than a read) still hands a reading a store:
// freshness is the store's, not the reading's.
func TestRunCoarseClock(t *testing.T) {
	const same = 1 << 40
	check := func(loaded uint64) (int64, bool) { return int64(same - loaded), true }
	r, err := Run(route(t), Budget{N: 1000, Min: 1000, Soft: 10 * time.Second, Hard: 10 * time.Second}, func() uint64 { return same }, check)
	if err != nil || r.Handoffs != 1000 || r.Backward != 0 || r.Closest != 0 || r.Quickest != 0 {
		t.Errorf("%+v (%v); want 1000 handoffs of a reading that never changes, each 0 ahead and none backward", r, err)
	}
}

// TestRunPinRefused checks that a route to a CPU that cannot be pinned hands
// nothing and returns an error that names the CPU.
func TestRunPinRefused(t *testing.T) {
	const cpu = 1<<20 - 1
	called := false
	publish := func() uint64 { called = true; return 1 }
	check := func(uint64) (int64, bool) { called = true; return 0, true }
	r, err := Run(Route{From: 0, To: cpu, Pinned: true}, Budget{N: 1, Min: 1, Hard: time.Second}, publish, check)
	if err == nil || !strings.Contains(err.Error(), "CPU 1048575") {
		t.Errorf("error %v; want one that names CPU %d", err, cpu)
	}
	if _, uerr := affinity.Allowed(); errors.Is(uerr, errors.ErrUnsupported) && !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("error %v; want one that wraps errors.ErrUnsupported, as affinity's does here", err)
	}
	if called || r != (Result{}) {
		t.Errorf("called %v, result %+v; want nothing handed", called, r)
	}
}

// TestRunOneP checks that an unpinned route that yields makes progress
// where the two goroutines share one P.
func TestRunOneP(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var c fakeClock
	check := func(loaded uint64) (int64, bool) { return int64(c.publish() - loaded), true }
	r, err := Run(Route{Yield: true}, Budget{N: 1000, Min: 1000, Soft: 10 * time.Second, Hard: 10 * time.Second}, c.publish, check)
	if err != nil || r.Handoffs != 1000 {
		t.Errorf("%d handoffs (%v); want 1000", r.Handoffs, err)
	}
}

// TestResultAdd checks that a sum keeps the least Closest and Quickest of
// the runs that had any, and adds the counts.
func TestResultAdd(t *testing.T) {
	var sum Result
	sum.Add(Result{})                                                   // a run with no handoff counts for nothing
	sum.Add(Result{Handoffs: 3, Backward: 3, Closest: -5, Quickest: 0}) // all back: no Quickest
	sum.Add(Result{Handoffs: 4, Skipped: 1, Closest: 7, Quickest: 7})
	sum.Add(Result{Handoffs: 2, Backward: 1, Closest: -2, Quickest: 9})
	want := Result{Handoffs: 9, Skipped: 1, Backward: 4, Closest: -5, Quickest: 7}
	if sum != want {
		t.Errorf("sum %+v; want %+v", sum, want)
	}
	var fwd Result
	fwd.Add(Result{Handoffs: 1, Closest: 3, Quickest: 3})
	fwd.Add(Result{Handoffs: 1, Closest: 2, Quickest: 2})
	if fwd.Closest != 2 || fwd.Quickest != 2 {
		t.Errorf("sum %+v; want Closest and Quickest 2", fwd)
	}
}
