package counter

import (
	"math"
	"time"
)

// A simMachine is the simulated machine of the tests of discovery's
// measurement, the per-CPU check and the watch: a counter and a raw clock,
// both read on a simulated true time that each read advances by what it
// costs, as on a real machine, so that brackets have width and the raw
// clock is read somewhere within them. Each test file's constructor sets
// its rate and costs; the fields below them are the faults a test adds.
type simMachine struct {
	ns    float64              // true time so far, ns: the reads' costs, pauses, interrupts and moves
	wall  func() time.Duration // true time that passes besides the reads (synctest's, for the watch); none where nil
	reads int                  // counter reads so far

	hz          float64 // the counter's rate, before any change
	step        float64 // where above 1, the counter moves in steps of this many ticks
	counterCost float64 // ns a counter read takes, before its reading
	rawBefore   float64 // ns a raw read takes before its reading
	rawAfter    float64 // and after it
	jitter      bool    // each read takes from its cost to five times it, varying
	seed        uint64  // the jitter's generator

	offset         map[int]time.Duration // each CPU's counter, ahead of true time
	changes        []simChange           // the counter's changes of rate and jumps, in order of time
	pauseAt        map[int]float64       // ns the thread is off its CPU before a counter read, by the read's number
	interruptEvery int                   // a raw read after every interruptEvery-th counter read is stretched by simInterrupt (never where 0)

	cpu     int                // the CPU the thread is on
	cpuOf   func(read int) int // where not nil, the CPU of each counter read by its number, in place of cpu
	cpuFrom simCPUFrom         // who says the CPU

	stalled   bool // the raw clock does not advance
	frozen    bool // the counter does not advance
	backwards bool // the counter runs backwards
}

// A simChange is a change of a simMachine's counter at a true time: from
// then on its rate is ppm more, and it is jump ahead.
type simChange struct {
	at   time.Duration
	ppm  float64
	jump time.Duration
}

// A simCPUFrom says who tells the CPU a simMachine's thread is on.
type simCPUFrom int

const (
	cpuFromNoOne simCPUFrom = iota // the counter's reads say -1, as RDTSC's do, and there is no getcpu
	cpuFromReads                   // the counter's reads say it, as RDTSCP's do
	cpuFromOS                      // only getcpu, a system call as long as a raw read
)

// The readings of a simMachine's counter and raw clock at true time 0,
// arbitrary as a machine's are, and an interrupt's length.
const (
	simCounterOrigin = 1e12   // ticks
	simRawOrigin     = 5e9    // ns
	simInterrupt     = 20_000 // ns
)

// now returns true time, in ns.
func (s *simMachine) now() float64 {
	if s.wall == nil {
		return s.ns
	}
	return s.ns + float64(s.wall())
}

// spend advances true time by a read's cost, more where it varies.
func (s *simMachine) spend(cost float64) {
	if s.jitter {
		s.seed = s.seed*6364136223846793005 + 1442695040888963407
		cost += float64(int64(s.seed>>33) % (int64(cost)*4 + 1))
	}
	s.ns += cost
}

// where returns the CPU the thread is on now.
func (s *simMachine) where() int {
	if s.cpuOf != nil {
		return s.cpuOf(s.reads)
	}
	return s.cpu
}

// counter reads the counter, with its CPU where the reads say it.
func (s *simMachine) counter() (Tickstamp, int) {
	s.spend(s.counterCost)
	s.reads++
	s.ns += s.pauseAt[s.reads]
	t, cpu := s.now(), s.where()
	x := t * s.hz / 1e9
	for _, c := range s.changes {
		if t > float64(c.at) {
			x += (t - float64(c.at)) * s.hz / 1e9 * c.ppm / 1e6
			x += float64(c.jump) * s.hz / 1e9
		}
	}
	if s.backwards {
		x = -x
	}
	ticks := simCounterOrigin + x + float64(s.offset[cpu])*s.hz/1e9
	if s.frozen {
		ticks = simCounterOrigin
	}
	if s.step > 1 {
		ticks = math.Floor(ticks/s.step) * s.step
	}
	if s.cpuFrom != cpuFromReads {
		cpu = -1
	}
	return Tickstamp(ticks), cpu
}

// raw reads the raw clock in whole nanoseconds, rawBefore into the call.
func (s *simMachine) raw() int64 {
	s.spend(s.rawBefore)
	at := s.now()
	if s.interruptEvery > 0 && s.reads%s.interruptEvery == 0 {
		s.ns += simInterrupt // inside the system call
	}
	s.spend(s.rawAfter)
	if s.stalled {
		return simRawOrigin
	}
	return int64(at) + simRawOrigin
}

// getcpu is the OS's answer to where the thread is.
func (s *simMachine) getcpu() int {
	s.spend(s.rawBefore + s.rawAfter)
	return s.where()
}

// clocks returns the machine's clocks as a measurement, the per-CPU tour
// and the watch read them.
func (s *simMachine) clocks() clockPair {
	p := clockPair{counter: s.counter, raw: s.raw, stallWait: stalledClockWait}
	if s.cpuFrom == cpuFromOS {
		p.cpu = s.getcpu
	}
	return p
}
