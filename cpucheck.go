package counter

import (
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/tickstamp/counter/internal/affinity"
)

// A CPUOffset is one CPU's counter placed against the first CPU's, by the
// per-CPU check of [DiscoverDetails] (see [Discovery.CPUs]).
//
// A thread of the check's own, beside the one measuring the rate, is pinned
// to each CPU in turn, first to last and back to the first, and on each CPU
// it takes the tightest of several brackets: a reading of the raw clock
// between two ordered readings of the counter. The two visits to the first
// CPU fix the first CPU's counter against the raw clock at both ends of the
// tour; each other CPU's offset is its bracket's midpoint less the first
// CPU's counter interpolated to the same raw instant. That makes the rate in
// use, and its error, drop out: the interpolation's error, from the rate the
// two visits imply and the time the tour took, is no more than the wider of
// the first CPU's two half-widths. So the bound of each CPU is
//
//	its bracket's half-width + the wider half-width of the first CPU's two
//	+ the counter's step + 2 ns (the raw clock reads whole nanoseconds)
//
// which holds whatever the system call did inside the brackets, as long as
// every CPU's raw clock is the same clock.
type CPUOffset struct {
	CPU int // the CPU's number, as Linux counts them

	// Offset is how far this CPU's counter is ahead of the first CPU's
	// (behind, where negative) at the same instant of the raw clock,
	// converted at the rate in use; 0 for the first CPU itself.
	Offset time.Duration

	// Bound is the largest offset the measurement can explain: an offset
	// within ±Bound may be the measurement's alone. 0 for the first CPU.
	Bound time.Duration
}

// A cpuCheckResult is what the per-CPU check found: each CPU's offset, the
// CPUs it could not check (see [Discovery] for both), how many brackets it
// took on each visit (fewer on machines with many CPUs, so that the check
// stays within its budget), and how long it took.
type cpuCheckResult struct {
	CPUs      []CPUOffset
	Unchecked []int
	Brackets  int
	Took      time.Duration
}

// largest returns the CPU whose offset is largest in size, with its offset
// and bound; the zero CPUOffset where fewer than two CPUs were checked.
func (c *cpuCheckResult) largest() CPUOffset {
	var largest CPUOffset
	if c == nil || len(c.CPUs) < 2 {
		return largest
	}
	largest = c.CPUs[1]
	for _, o := range c.CPUs[2:] {
		if o.Offset.Abs() > largest.Offset.Abs() {
			largest = o
		}
	}
	return largest
}

// bound returns the widest bound of any CPU checked: an offset between any
// CPU and the first that is within it may be the measurement's alone. It is
// 0 where fewer than two CPUs were checked.
func (c *cpuCheckResult) bound() time.Duration {
	var b time.Duration
	if c == nil || len(c.CPUs) < 2 {
		return b
	}
	for _, o := range c.CPUs[1:] {
		b = max(b, o.Bound)
	}
	return b
}

// cpusError is the refusal of a check whose CPUs disagree. It wraps
// [ErrCPUsDisagree]; its message names each CPU that is out of bound, its
// offset and its bound.
func cpusError(check *cpuCheckResult) error {
	var b strings.Builder
	b.WriteString("counter: the CPUs' counters disagree:")
	first := check.CPUs[0].CPU
	for _, o := range check.CPUs[1:] {
		if o.Offset.Abs() > o.Bound {
			b.WriteString(" CPU " + strconv.Itoa(o.CPU) + " is " + o.Offset.String() + " from CPU " + strconv.Itoa(first) +
				" (the measurement explains ±" + o.Bound.String() + ");")
		}
	}
	b.WriteString(" use Monotonic instead, or pin the process to CPUs that agree")
	return &wrapError{msg: b.String(), wrapped: ErrCPUsDisagree}
}

// The per-CPU check's budget: cpuBracketBudget brackets in all, shared out
// between the CPUs, between minCPUBrackets and maxCPUBrackets on each. A
// bracket costs one read of the raw clock and pinning costs a migration,
// so 2 CPUs take 32 brackets each and 256 CPUs 4 each: at most 512 raw
// reads and 257 migrations whatever the machine.
const (
	cpuBracketBudget = 512
	minCPUBrackets   = 4
	maxCPUBrackets   = 32
)

// A cpuChecker is what the per-CPU check reads and calls: machineCPUs holds
// the machine's, and tests fill one with fakes.
type cpuChecker struct {
	clocks  clockPair
	allowed func() ([]int, error)
	pin     func(cpu int) (unpin func() error, err error)
	// faults reports whether the counter's instruction faults on the
	// calling thread (see ErrDisabled); nil for never.
	faults func() bool
}

// machineCPUs checks this machine's CPUs.
var machineCPUs = cpuChecker{clocks: machineClocks, allowed: affinity.Allowed, pin: affinity.Pin, faults: readsFault}

// check places the counter of every CPU in the affinity mask against the
// raw clock, and refuses with [cpusError] where any CPU's offset from the
// first is past its bound. It returns nil and no error where there is no
// affinity call or the mask holds one CPU.
func (t cpuChecker) check(rate TickRate) (*cpuCheckResult, error) {
	return t.start().result(rate)
}

// A cpuCheckRun is a per-CPU check under way, from [cpuChecker.start].
type cpuCheckRun interface {
	// result waits for the check to end, converts its offsets at rate,
	// and refuses as [cpuChecker.check] does.
	result(rate TickRate) (*cpuCheckResult, error)
}

// noCPUCheck is the run of a check with nothing to check: no affinity
// call, or one CPU to run on. Its result is nil and no error.
type noCPUCheck struct{}

func (noCPUCheck) result(TickRate) (*cpuCheckResult, error) { return nil, nil }

// tourUnderWay is a tour on a goroutine of its own, which sends what its
// visits found.
type tourUnderWay <-chan cpuTour

func (t tourUnderWay) result(rate TickRate) (*cpuCheckResult, error) { return (<-t).finish(rate) }

// start makes the tour on a goroutine of its own, so that the caller can
// find the rate meanwhile: where a CPU mask cannot be restored, that
// goroutine ends locked to its thread, and the runtime ends the thread with
// it rather than hand the caller a pinned one. A caller that never asks the
// run for its result leaves the tour to end on its own.
func (t cpuChecker) start() cpuCheckRun {
	cpus, err := t.allowed()
	if err != nil || len(cpus) < 2 {
		return noCPUCheck{}
	}
	done := make(chan cpuTour, 1)
	go func() { done <- t.visit(cpus) }()
	return tourUnderWay(done)
}

// A cpuTour is what the visits found, before any rate converts it.
type cpuTour struct {
	check    *cpuCheckResult // all but its offsets
	visits   []cpuVisit      // nil where too few CPUs were checked
	back     bracket         // the first CPU's second bracket
	step     Tickdelta       // the largest counter step seen
	disabled bool            // the tour's thread has the counter's instruction fault
}

// finish works out the offsets at rate, and refuses where one is past its
// bound, or with ErrDisabled where the tour's thread could not read the
// counter.
func (r cpuTour) finish(rate TickRate) (*cpuCheckResult, error) {
	if r.disabled {
		return nil, ErrDisabled
	}
	check := r.check
	if r.visits == nil {
		return check, nil
	}
	check.CPUs = offsets(r.visits, r.back, rate, r.step)
	for _, o := range check.CPUs[1:] {
		if o.Offset.Abs() > o.Bound {
			return check, cpusError(check)
		}
	}
	return check, nil
}

// A cpuVisit is the tightest bracket taken on one CPU.
type cpuVisit struct {
	cpu int
	b   bracket
}

// visit pins the thread to each CPU in turn and back to the first, taking
// the tightest of a few brackets on each. The flag that makes the counter's
// instruction fault is per thread, and the tour's goroutine may run on any
// thread, one the caller's process flagged included: so it locks to its
// thread and asks first, and reads nothing where the answer is yes.
func (t cpuChecker) visit(cpus []int) cpuTour {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if t.faults != nil && t.faults() {
		return cpuTour{disabled: true}
	}
	start := nanotime()
	check := &cpuCheckResult{Brackets: max(minCPUBrackets, min(maxCPUBrackets, cpuBracketBudget/len(cpus)))}
	defer func() { check.Took = time.Duration(nanotime() - start) }()
	visits := make([]cpuVisit, 0, len(cpus))
	back := bracket{width: -1}
	var step Tickdelta
	for i := 0; i <= len(cpus); i++ {
		var cpu int
		switch {
		case i < len(cpus):
			cpu = cpus[i]
		case len(visits) > 0:
			cpu = visits[0].cpu // back to the first CPU that was checked
		default:
			return cpuTour{check: check} // no CPU could be pinned
		}
		unpin, err := t.pin(cpu)
		if err != nil {
			if i == len(cpus) {
				// The first CPU is gone: nothing to interpolate against.
				check.Unchecked = cpus
				return cpuTour{check: check}
			}
			check.Unchecked = append(check.Unchecked, cpu)
			continue
		}
		b, _, _, _ := t.clocks.tightest(check.Brackets)
		step = max(step, t.clocks.step())
		if err := unpin(); err != nil {
			// The thread stays locked and pinned, and ends with this
			// goroutine; the tour ends here, unchecked.
			check.Unchecked = cpus
			return cpuTour{check: check}
		}
		switch {
		case b.width < 0:
			check.Unchecked = append(check.Unchecked, cpu) // its counter only went backwards
		case i == len(cpus):
			back = b
		default:
			visits = append(visits, cpuVisit{cpu, b})
		}
	}
	if len(visits) < 2 || back.width < 0 {
		check.Unchecked = cpus
		return cpuTour{check: check}
	}
	return cpuTour{check: check, visits: visits, back: back, step: step}
}

// offsets places each visit against the first CPU's counter, interpolated
// between its first bracket, visits[0], and its last, back: see [CPUOffset]
// for the bound.
func offsets(visits []cpuVisit, back bracket, rate TickRate, step Tickdelta) []CPUOffset {
	first := visits[0].b
	span := float64(back.raw - first.raw)
	advance := float64(back.mid.Sub(first.mid))
	ref := max(first.width, back.width)
	out := make([]CPUOffset, len(visits))
	out[0] = CPUOffset{CPU: visits[0].cpu}
	for i, v := range visits[1:] {
		expected := 0.0 // ticks after first.mid
		if span > 0 {
			expected = advance * float64(v.b.raw-first.raw) / span
		}
		off := Tickdelta(float64(v.b.mid.Sub(first.mid)) - expected)
		bound := (v.b.width+ref)/2 + step
		out[i+1] = CPUOffset{
			CPU:    v.cpu,
			Offset: off.Duration(rate),
			Bound:  bound.Duration(rate) + 2*time.Nanosecond,
		}
	}
	return out
}
