// Package crosscpu hands readings of a clock from one goroutine to another,
// pinned to different CPUs where the system allows, and counts how many of
// the receiver's own readings were behind the one it had loaded. It is the
// one home of that harness: the counter package's tests check the ordered
// reads with it, and cmd/counterinfo looks with it for a counter that is
// behind on one CPU what it was on another.
//
// A run has two goroutines. The publisher reads the clock and stores the
// reading in an atomic word, over and over, counting the stores. The
// receiver loads the word and then the count and, whenever a store it has
// not seen came to pass, takes and judges its own reading against the one
// it loaded; the first store it sees it only notes, since the word it
// loaded before that may still have been the zero. Freshness is the
// count's, not the reading's, so that a counter that moves in coarse steps
// still hands a reading a store. Pinned to two CPUs, the receiver's load
// waits for a cache line the other CPU keeps writing: the case where a read
// that is not ordered after the load can be taken before the load
// completes.
package crosscpu

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tickstamp/counter/internal/affinity"
)

// A Route says where a run's two goroutines run.
type Route struct {
	From, To int  // the CPUs of the publisher and the receiver, where Pinned
	Pinned   bool // pin them; otherwise leave them to the scheduler
	Yield    bool // they may share a CPU or a P: the spin loops yield now and then
}

// A Budget says when a run stops: after N handoffs; at Soft once Min have
// been done; at Hard in any case.
type Budget struct {
	N    int           // handoffs wanted
	Min  int           // fewest handoffs that count as a run
	Soft time.Duration // stop here once Min handoffs are done
	Hard time.Duration // stop here, however many are done
}

// A slot is the word a run hands readings through, with the count of the
// readings stored in it. It fills a cache line of its own, so that only the
// two goroutines touch it.
type slot struct {
	val atomic.Uint64 // the last reading stored
	seq atomic.Uint64 // readings stored so far
	_   [48]byte
}

// A Result tallies one run, or with [Result.Add] several.
type Result struct {
	Handoffs int   // fresh readings the receiver loaded and judged
	Skipped  int   // fresh readings the check declined to judge
	Backward int   // handoffs whose own reading was behind the loaded one
	Closest  int64 // the least own − loaded: negative where one went back; 0 with no handoffs
	Quickest int64 // the least own − loaded that is not negative; 0 where no handoff was forward
}

// Add adds o's tally to r's.
func (r *Result) Add(o Result) {
	if o.Handoffs > 0 && (r.Handoffs == 0 || o.Closest < r.Closest) {
		r.Closest = o.Closest
	}
	if o.Handoffs > o.Backward && (r.Handoffs == r.Backward || o.Quickest < r.Quickest) {
		r.Quickest = o.Quickest
	}
	r.Handoffs += o.Handoffs
	r.Skipped += o.Skipped
	r.Backward += o.Backward
}

// Run hands readings along rt until b says stop. publish runs on the
// publisher and returns a reading to store. check runs on the receiver, once
// for each store it sees, with the reading it loaded just before; it takes
// its own reading and returns own − loaded in its own unit, negative where
// its reading is behind, or ok false for a handoff it declines to judge. Where rt pins and a goroutine cannot
// be pinned, Run hands nothing and returns the error, which names the CPU;
// where a pinned thread cannot be given its mask back, it ends with its
// goroutine, and Run returns the result and that error.
func Run(rt Route, b Budget, publish func() uint64, check func(loaded uint64) (d int64, ok bool)) (Result, error) {
	latest := new(slot)
	var stop atomic.Bool
	var res Result
	var wg sync.WaitGroup
	pinned := make(chan error, 2)
	begin := make(chan bool, 2)
	var pubErr, recvErr error
	wg.Add(2)
	go func() { // the publisher
		defer wg.Done()
		pubErr = onCPU(rt, rt.From, pinned, begin, func() {
			for i := 0; !stop.Load(); i++ {
				latest.val.Store(publish())
				latest.seq.Add(1)
				if rt.Yield && i%16 == 15 {
					runtime.Gosched()
				}
			}
		})
	}()
	go func() { // the receiver
		defer wg.Done()
		recvErr = onCPU(rt, rt.To, pinned, begin, func() {
			defer stop.Store(true)
			res = receive(rt, b, latest, check)
		})
	}()
	err := errors.Join(<-pinned, <-pinned)
	begin <- err == nil
	begin <- err == nil
	wg.Wait()
	if err != nil {
		return Result{}, err
	}
	return res, errors.Join(pubErr, recvErr)
}

// receive is the receiver's loop: it judges a reading loaded from latest
// with check after each store it sees, until b says stop.
func receive(rt Route, b Budget, latest *slot, check func(uint64) (int64, bool)) Result {
	var res Result
	start := time.Now()
	var seen uint64
	for spins := 0; res.Handoffs < b.N; spins++ {
		if spins%1024 == 0 {
			took := time.Since(start)
			if took > b.Hard || took > b.Soft && res.Handoffs >= b.Min {
				break
			}
		}
		// The reading first: its load is the one that waits for the
		// publisher's cache line, and the check must come after it.
		loaded := latest.val.Load()
		seq := latest.seq.Load()
		if seq == seen {
			if rt.Yield {
				runtime.Gosched()
			}
			continue
		}
		if seen == 0 {
			// The first store seen: the reading loaded may be older
			// than it, the word's zero. Every later load follows a
			// load that saw a store.
			seen = seq
			continue
		}
		seen = seq
		d, ok := check(loaded)
		if !ok {
			res.Skipped++
			continue
		}
		if res.Handoffs == 0 || d < res.Closest {
			res.Closest = d
		}
		if d < 0 {
			res.Backward++
		} else if res.Handoffs == res.Backward || d < res.Quickest {
			res.Quickest = d
		}
		res.Handoffs++
	}
	return res
}

// onCPU pins the calling goroutine to cpu where rt pins, says on pinned
// whether that worked, and where it did waits for begin and runs f where
// begin says to. It then gives the thread its mask back, and returns the
// error where it cannot; the thread then ends with the goroutine.
func onCPU(rt Route, cpu int, pinned chan<- error, begin <-chan bool, f func()) error {
	if !rt.Pinned {
		pinned <- nil
		if <-begin {
			f()
		}
		return nil
	}
	unpin, err := affinity.Pin(cpu)
	if err != nil {
		pinned <- fmt.Errorf("pinning a thread to CPU %d refused: %w", cpu, err)
		return nil
	}
	pinned <- nil
	if <-begin {
		f()
	}
	if err := unpin(); err != nil {
		return fmt.Errorf("giving a thread pinned to CPU %d its mask back: %w", cpu, err)
	}
	return nil
}
