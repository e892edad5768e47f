package main

import (
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/affinity"
)

// minHandoffs is how many readings each CPU pair hands over at least,
// however small its share of the time, unless that takes a second more.
const minHandoffs = 1000

// maxTickdelta is the largest span, which no step or gap seen reaches.
const maxTickdelta = counter.Tickdelta(math.MaxInt64)

// stopSeq in a handoff's seq tells the other side the pair is done.
const stopSeq = math.MaxUint64

// A handoff is the word two CPUs pass a reading through: seq counts the
// readings published, even ones by the first side, odd ones by the second.
// It fills a cache line of its own, so that only the two sides touch it.
type handoff struct {
	val atomic.Uint64 // the last reading published
	seq atomic.Uint64 // readings published so far; stopSeq to stop
	_   [48]byte
}

// A sideResult is what one side of a pair saw of the readings the other
// side handed it: each compared with its own reading taken just after.
type sideResult struct {
	side   uint64            // the job's side
	n      int               // readings compared
	back   counter.Tickdelta // the largest backward step; 0 for none
	minGap counter.Tickdelta // the smallest forward step; maxTickdelta for none
}

// A job sets a pinned worker to one side of a pair.
type job struct {
	h        *handoff
	side     uint64    // 0 or 1
	deadline time.Time // when side 0 stops, having handed minHandoffs
	c        counter.Counter
	done     chan<- sideResult
}

// play is one side of a pair: it waits for the other side's reading, reads
// the counter, compares, and hands its own reading back, until side 0 stops.
// Both reads are ordered (Begin): after the load that saw the other side's
// reading, and before the store that publishes its own.
func (j job) play() sideResult {
	res := sideResult{side: j.side, minGap: maxTickdelta}
	for next := j.side; ; next += 2 {
		for {
			s := j.h.seq.Load()
			if s == next {
				break
			}
			if s == stopSeq {
				return res
			}
		}
		now := j.c.Begin()
		if next > 0 {
			d := now.Sub(counter.Tickstamp(j.h.val.Load()))
			if d < 0 {
				res.back = max(res.back, -d)
			} else {
				res.minGap = min(res.minGap, d)
			}
			res.n++
		}
		if j.side == 0 && res.n%64 == 0 {
			// Past the deadline, stop once the pair has had its least
			// share of handoffs, or a second later where a busy machine
			// keeps it from getting that many.
			if wall := time.Now(); wall.After(j.deadline) && (res.n >= minHandoffs/2 || wall.After(j.deadline.Add(time.Second))) {
				j.h.seq.Store(stopSeq)
				return res
			}
		}
		j.h.val.Store(uint64(now))
		j.h.seq.Store(next + 1)
	}
}

// A worker is a goroutine locked to a thread pinned to one CPU.
type worker struct {
	cpu  int
	jobs chan job
}

// startWorker starts a worker on cpu. It returns once the thread is pinned,
// or with the error of pinning it. When jobs closes, the worker gives the
// thread its mask back; where that fails, the thread stays locked and ends
// with the goroutine, so that no pinned thread runs other goroutines.
func startWorker(cpu int) (*worker, error) {
	w := &worker{cpu: cpu, jobs: make(chan job)}
	ready := make(chan error)
	go func() {
		unpin, err := affinity.Pin(cpu)
		ready <- err
		if err != nil {
			return
		}
		for j := range w.jobs {
			j.done <- j.play()
		}
		unpin()
	}()
	return w, <-ready
}

// checkCrossCore hands readings of c between every pair of the CPUs this
// process may run on, each pair in both directions, for budget shared by the
// pairs (minHandoffs a pair at least), and reports the worst backward step:
// a reading from one CPU found ahead of the counter read on another just
// after. A skew smaller than the quickest handoff cannot show. Where the
// threads cannot be pinned (one CPU, GOMAXPROCS 1, no affinity call on this
// system), the report says why it did not check.
func checkCrossCore(c counter.Counter, budget time.Duration) crossCoreReport {
	r := newCrossCoreReport()
	cpus, err := affinity.Allowed()
	switch {
	case err != nil:
		r.Reason = "not checked: the CPUs this process may run on are unknown: " + err.Error()
		return r
	case len(cpus) < 2:
		r.Reason = fmt.Sprintf("not checked: this process may run on one CPU only (%v)", cpus)
		return r
	case runtime.GOMAXPROCS(0) < 2:
		r.Reason = "not checked: GOMAXPROCS is 1, so two pinned threads cannot run at once"
		return r
	}
	workers, err := startWorkers(cpus)
	defer stopWorkers(workers)
	if err != nil {
		r.Reason = "not checked: " + err.Error()
		return r
	}
	share := budget / time.Duration(len(cpus)*(len(cpus)-1)/2)
	minGap := maxTickdelta
	for i, a := range workers {
		for _, b := range workers[i+1:] {
			minGap = min(minGap, handPair(&r, a, b, c, share))
		}
	}
	r.Checked = true
	r.CPUs = cpus
	if minGap != maxTickdelta {
		r.MinHandoffTicks = int64(minGap)
	}
	r.WorstBackNS = round(ns(counter.Tickdelta(r.WorstBackTicks), c.Rate()), 1)
	r.MinHandoffNS = round(ns(counter.Tickdelta(r.MinHandoffTicks), c.Rate()), 1)
	return r
}

// startWorkers starts a worker pinned to each of cpus. Where one cannot be
// pinned, it returns the workers started so far, for stopWorkers, and an
// error that names the CPU.
func startWorkers(cpus []int) ([]*worker, error) {
	workers := make([]*worker, 0, len(cpus))
	for _, cpu := range cpus {
		w, err := startWorker(cpu)
		if err != nil {
			return workers, fmt.Errorf("pinning a thread to CPU %d refused: %w", cpu, err)
		}
		workers = append(workers, w)
	}
	return workers, nil
}

// stopWorkers ends the workers, which give their threads back.
func stopWorkers(workers []*worker) {
	for _, w := range workers {
		close(w.jobs)
	}
}

// handPair hands readings of c between the workers a and b for share, adds
// what each side saw to r (two ordered pairs: readings from b compared on a,
// and from a on b), and returns the quickest handoff seen, maxTickdelta for
// none.
func handPair(r *crossCoreReport, a, b *worker, c counter.Counter, share time.Duration) counter.Tickdelta {
	h := new(handoff)
	deadline := time.Now().Add(share)
	done := make(chan sideResult)
	a.jobs <- job{h: h, side: 0, deadline: deadline, c: c, done: done}
	b.jobs <- job{h: h, side: 1, deadline: deadline, c: c, done: done}
	minGap := maxTickdelta
	// The two sides' results arrive in either order, so each says which
	// side it is: side 0 compared readings from b on a.
	for range 2 {
		res := <-done
		from, to := a.cpu, b.cpu
		if res.side == 0 {
			from, to = b.cpu, a.cpu
		}
		r.Pairs++
		r.Handoffs += res.n
		minGap = min(minGap, res.minGap)
		if res.back > 0 {
			r.BackwardPairs++
			if int64(res.back) > r.WorstBackTicks {
				r.WorstBackTicks, r.WorstFrom, r.WorstTo = int64(res.back), from, to
			}
		}
	}
	return minGap
}
