package main

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/affinity"
	"github.com/tickstamp/counter/internal/crosscpu"
)

// minHandoffs is how many readings each CPU pair hands over at least, half
// in each direction, however small its share of the time, unless that takes
// a second more.
const minHandoffs = 1000

// checkCrossCore hands readings of c between every pair of the CPUs this
// process may run on, each pair in both directions, with the harness of
// internal/crosscpu, for budget shared by the pairs (minHandoffs a pair at
// least), and reports the worst backward step: a reading from one CPU found
// ahead of the counter read on another just after. Both reads are Begin's,
// ordered after the load that saw the other CPU's reading and before the
// store that publishes a reading. A skew smaller than the quickest handoff
// cannot show. Where the threads cannot be pinned (one CPU, GOMAXPROCS 1, no
// affinity call on this system), the report says why it did not check.
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
	// Each direction of a pair has half the pair's share of the budget.
	share := budget / time.Duration(len(cpus)*(len(cpus)-1))
	b := crosscpu.Budget{N: math.MaxInt, Min: minHandoffs / 2, Soft: share, Hard: share + time.Second/2}
	publish := func() uint64 { return uint64(c.Begin()) }
	check := func(loaded uint64) (int64, bool) {
		return int64(c.Begin().Sub(counter.Tickstamp(loaded))), true
	}
	var sum crosscpu.Result
	for _, from := range cpus {
		for _, to := range cpus {
			if from == to {
				continue
			}
			res, err := crosscpu.Run(crosscpu.Route{From: from, To: to, Pinned: true}, b, publish, check)
			if err != nil {
				r = newCrossCoreReport()
				r.Reason = "not checked: " + err.Error()
				return r
			}
			addPair(&r, res, from, to)
			sum.Add(res)
		}
	}
	r.Checked = true
	r.CPUs = cpus
	r.Handoffs = sum.Handoffs
	if sum.Handoffs > sum.Backward {
		r.MinHandoffTicks = sum.Quickest
	}
	r.WorstBackNS = round(ns(counter.Tickdelta(r.WorstBackTicks), c.Rate()), 1)
	r.MinHandoffNS = round(ns(counter.Tickdelta(r.MinHandoffTicks), c.Rate()), 1)
	return r
}

// addPair adds to r what the ordered pair from → to found: readings from
// CPU from judged on CPU to.
func addPair(r *crossCoreReport, res crosscpu.Result, from, to int) {
	r.Pairs++
	if res.Backward == 0 {
		return
	}
	r.BackwardPairs++
	if back := -res.Closest; back > r.WorstBackTicks {
		r.WorstBackTicks, r.WorstFrom, r.WorstTo = back, from, to
	}
}
