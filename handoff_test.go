package counter_test

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/affinity"
)

// The handoff tests check the promise of the ordered reads across
// goroutines: a publisher goroutine stores readings into an atomic, over and
// over, and a receiver goroutine loads the latest one and then takes its own
// reading, which must not be behind the one it loaded. Where Linux allows,
// the two are pinned to different CPUs, so that the load waits for a cache
// line the other core is writing: the case where an unordered read is taken
// before the load completes.
//
// By default each kind runs for a bounded time, so that the suite stays
// fast; COUNTER_HANDOFFS=10000000 asks for that many handoffs of each kind
// and fails where they do not all happen.

// handoffEnv names the variable that asks for a full count of handoffs.
const handoffEnv = "COUNTER_HANDOFFS"

// handoffBudget is how many handoffs each kind runs, and for how long at
// least and at most.
type handoffBudget struct {
	n        int           // handoffs wanted
	min      int           // fewest handoffs that count as a run
	soft     time.Duration // stop here once min handoffs are done
	hard     time.Duration // stop here, and fail where min are not done
	required bool          // fail unless all n happen
}

func budgetFor(t *testing.T) handoffBudget {
	s := os.Getenv(handoffEnv)
	if s == "" {
		b := handoffBudget{n: 300_000, min: 1_000, soft: 30 * time.Millisecond, hard: 10 * time.Second}
		if testing.Short() {
			b.soft = 10 * time.Millisecond
		}
		return b
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q; want a positive count of handoffs", handoffEnv, s)
	}
	return handoffBudget{n: n, min: n, soft: 3 * time.Minute, hard: 3 * time.Minute, required: true}
}

// A route says where the publisher and the receiver run.
type route struct {
	name     string
	from, to int  // the CPUs they are pinned to, where pinned
	pinned   bool // pin them; otherwise leave them to the scheduler
	yield    bool // they share one CPU or one P: spin loops must yield
}

// handoffRoutes returns the routes a kind's handoffs take: from the first
// allowed CPU to the last and back (on a machine of two sockets, the first
// and last CPU are likely on different ones), or one unpinned route where
// there is no second CPU or P, or no way to pin.
func handoffRoutes(t *testing.T) []route {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 {
		return []route{{name: "GOMAXPROCS=1, unpinned", yield: true}}
	}
	cpus, err := affinity.Allowed()
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		return []route{{name: "unpinned (" + runtime.GOOS + " has no affinity call)", yield: true}}
	case err != nil:
		t.Fatalf("affinity.Allowed: %v", err)
	case len(cpus) < 2:
		return []route{{name: fmt.Sprintf("one CPU (%d), unpinned", cpus[0]), yield: true}}
	}
	first, last := cpus[0], cpus[len(cpus)-1]
	return []route{
		{name: fmt.Sprintf("CPU %d→%d", first, last), from: first, to: last, pinned: true},
		{name: fmt.Sprintf("CPU %d→%d", last, first), from: last, to: first, pinned: true},
	}
}

// A handoffResult tallies one run of the harness.
type handoffResult struct {
	handoffs int   // fresh readings the receiver loaded and checked
	skipped  int   // handoffs the check declined to judge
	backward int   // handoffs whose own reading was behind the loaded one
	closest  int64 // the least of own − loaded, negative where one went back
}

func (r *handoffResult) add(o handoffResult) {
	if r.handoffs == 0 || o.closest < r.closest {
		r.closest = o.closest
	}
	r.handoffs += o.handoffs
	r.skipped += o.skipped
	r.backward += o.backward
}

// handOff runs one route: publish on one goroutine, over and over, storing
// each result in an atomic; on another, whenever the atomic holds a value
// it has not seen, check(value), which returns own − loaded in its own unit
// (negative for a reading behind the loaded one), or ok false for a handoff
// it declines to judge. It stops after n handoffs, or as b says, and never
// spins without yielding where the two goroutines share a CPU or a P.
func handOff(t *testing.T, rt route, n int, b handoffBudget, publish func() uint64, check func(loaded uint64) (d int64, ok bool)) handoffResult {
	var latest atomic.Uint64
	var stop atomic.Bool
	var res handoffResult
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // the publisher
		defer wg.Done()
		onCPU(t, rt, rt.from, func() {
			for i := 0; !stop.Load(); i++ {
				latest.Store(publish())
				if rt.yield && i%16 == 15 {
					runtime.Gosched()
				}
			}
		})
	}()
	go func() { // the receiver
		defer wg.Done()
		defer stop.Store(true)
		onCPU(t, rt, rt.to, func() {
			start := time.Now()
			var seen uint64
			for spins := 0; res.handoffs < n; spins++ {
				if spins%1024 == 0 {
					took := time.Since(start)
					if took > b.hard || took > b.soft && res.handoffs >= b.min {
						return
					}
				}
				loaded := latest.Load()
				if loaded == seen {
					if rt.yield {
						runtime.Gosched()
					}
					continue
				}
				seen = loaded
				d, ok := check(loaded)
				if !ok {
					res.skipped++
					continue
				}
				if res.handoffs == 0 || d < res.closest {
					res.closest = d
				}
				res.handoffs++
				if d < 0 {
					res.backward++
				}
			}
		})
	}()
	wg.Wait()
	return res
}

// onCPU runs f pinned to cpu where rt pins, and reports a failure to pin or
// unpin with t.Errorf, so that it may run on any goroutine.
func onCPU(t *testing.T, rt route, cpu int, f func()) {
	if !rt.pinned {
		f()
		return
	}
	unpin, err := affinity.Pin(cpu)
	if err != nil {
		t.Errorf("pinning a thread to CPU %d: %v", cpu, err)
		return
	}
	f()
	if err := unpin(); err != nil {
		t.Errorf("unpinning a thread from CPU %d: %v", cpu, err)
	}
}

// runHandoffs runs every route of this machine, splitting the budget
// between them, and returns the sum.
func runHandoffs(t *testing.T, b handoffBudget, publish func() uint64, check func(uint64) (int64, bool)) handoffResult {
	routes := handoffRoutes(t)
	var sum handoffResult
	for i, rt := range routes {
		share := b
		share.n = b.n / len(routes)
		if i == 0 {
			share.n += b.n % len(routes)
		}
		share.min = min(b.min, share.n)
		share.soft /= time.Duration(len(routes))
		r := handOff(t, rt, share.n, share, publish, check)
		t.Logf("%s: %d handoffs, %d behind, closest %d", rt.name, r.handoffs, r.backward, r.closest)
		if r.handoffs < share.min {
			t.Errorf("%s: %d handoffs in %v; want at least %d", rt.name, r.handoffs, b.hard, share.min)
		}
		sum.add(r)
	}
	if b.required && sum.handoffs < b.n {
		t.Errorf("%d handoffs; want %d (%s)", sum.handoffs, b.n, handoffEnv)
	}
	return sum
}

// readingCheck is the check of a kind of read: read, then own − loaded in
// ticks.
func readingCheck(read func() counter.Tickstamp) func(uint64) (int64, bool) {
	return func(loaded uint64) (int64, bool) {
		return int64(read().Sub(counter.Tickstamp(loaded))), true
	}
}

// TestHandoffOrderedReads hands readings of each ordered read between
// goroutines on different CPUs: no receiver's reading may be behind the one
// it loaded before taking it.
func TestHandoffOrderedReads(t *testing.T) {
	c := counter.New(oneGHz)
	mono := counter.Monotonic()
	b := budgetFor(t)
	for _, k := range []struct {
		name string
		read func() counter.Tickstamp
	}{
		{"Now", c.Now},
		{"NowFenced", counter.NowFenced}, // Now's read on a CPU without RDTSCP
		{"Begin", c.Begin},
		{"End", c.End},
		{"NowCPU", func() counter.Tickstamp { ts, _ := c.NowCPU(); return ts }},
		{"Monotonic", mono.Now},
	} {
		t.Run(k.name, func(t *testing.T) {
			publish := func() uint64 { return uint64(k.read()) }
			r := runHandoffs(t, b, publish, readingCheck(k.read))
			t.Logf("%d handoffs, the receiver's reading followed the loaded one by at least %d ticks", r.handoffs, r.closest)
			if r.backward != 0 {
				t.Errorf("%d of %d readings were behind the reading their goroutine had loaded, by up to %d ticks; want none", r.backward, r.handoffs, -r.closest)
			}
		})
	}
}

// TestHandoffUnordered runs the same harness with NowUnordered, which may
// be taken before the load that precedes it completes, and reports how
// many of its readings went back: the fault the ordered reads exist to
// prevent. Whether it shows depends on the processor (a 2-vCPU Intel KVM
// guest showed it in 5.7% of handoffs), so the count is logged, not
// asserted; TestHandoffHarnessCounts checks that the harness would count it.
func TestHandoffUnordered(t *testing.T) {
	c := counter.New(oneGHz)
	publish := func() uint64 { return uint64(c.NowUnordered()) }
	r := runHandoffs(t, budgetFor(t), publish, readingCheck(c.NowUnordered))
	var behind string
	if r.backward > 0 {
		behind = fmt.Sprintf(", by up to %d ticks", -r.closest)
	}
	t.Logf("NowUnordered: %d of %d readings behind the reading their goroutine had loaded (%.4f%%)%s",
		r.backward, r.handoffs, 100*float64(r.backward)/float64(max(r.handoffs, 1)), behind)
}

// TestHandoffHarnessCounts runs the harness with a receiver whose every
// seventh reading is one tick behind what it loaded: the harness must count
// exactly those, so a backward read cannot pass unseen.
func TestHandoffHarnessCounts(t *testing.T) {
	c := counter.New(oneGHz)
	calls := 0
	check := func(loaded uint64) (int64, bool) {
		calls++
		if calls%7 == 1 {
			return -1, true
		}
		return int64(c.Now().Sub(counter.Tickstamp(loaded))), true
	}
	b := handoffBudget{n: 7_000, min: 7_000, soft: 10 * time.Second, hard: 10 * time.Second}
	r := runHandoffs(t, b, func() uint64 { return uint64(c.Now()) }, check)
	if want := (r.handoffs + 6) / 7; r.backward != want || r.closest != -1 {
		t.Fatalf("harness counted %d backward of %d, closest %d; want %d, closest -1", r.backward, r.handoffs, r.closest, want)
	}
}

// TestHandoffAnchor hands stamps of Now between goroutines while a third
// re-anchors: the receiver converts the stamp it loaded, then takes and
// converts its own, which must convert to no earlier a time. The Anchor
// promises that for a reading converted within 30 re-anchorings of being
// taken; a handoff where the receiver was held up longer than that is not
// judged, and counted apart.
func TestHandoffAnchor(t *testing.T) {
	c := counter.New(oneGHz)
	if rate, err := counter.MeasureRate(); err == nil {
		c = counter.New(rate) // converted times then track the wall clock, as in use
	} else {
		t.Logf("no measured rate (%v): converting at 1 GHz", err)
	}
	a, err := counter.NewAnchor(c)
	if err != nil {
		t.Fatalf("NewAnchor: %v", err)
	}
	if runtime.GOMAXPROCS(0) >= 2 {
		// The publisher and the receiver spin on a P each; give the
		// re-anchoring goroutine one of its own.
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + 1))
	}
	var reanchors atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := a.Reanchor(); err != nil {
				t.Errorf("Reanchor: %v", err)
				return
			}
			reanchors.Add(1)
			time.Sleep(50 * time.Microsecond)
		}
	}()
	check := func(loaded uint64) (int64, bool) {
		was := a.Time(counter.Tickstamp(loaded))
		before := reanchors.Load()
		own := c.Now()
		now := a.Time(own)
		if reanchors.Load()-before >= 30 {
			return 0, false
		}
		return int64(now.Sub(was)), true
	}
	r := runHandoffs(t, budgetFor(t), func() uint64 { return uint64(c.Now()) }, check)
	close(stop)
	wg.Wait()
	t.Logf("%d handoffs, %d re-anchorings, %d not judged; the receiver's time followed the loaded one's by at least %v",
		r.handoffs, reanchors.Load(), r.skipped, time.Duration(r.closest))
	if r.backward != 0 {
		t.Errorf("%d of %d converted times were earlier than the time of the stamp their goroutine had loaded, by up to %v; want none",
			r.backward, r.handoffs, time.Duration(-r.closest))
	}
}
