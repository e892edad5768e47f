package counter

import (
	"sync"
	"time"

	"github.com/tickstamp/counter/internal/rawclock"
	"github.com/tickstamp/counter/internal/step"
)

// A bracket places one reading of the raw clock on the counter's scale: the
// counter is read before and after the raw clock, so the raw clock's
// reading was taken when the counter stood somewhere between the two. It is
// the one home of that primitive: discovery's measurement, the per-CPU
// check and the watch all take brackets with [clockPair.take].
type bracket struct {
	raw   int64     // the raw clock, in nanoseconds
	mid   Tickstamp // the counter's midpoint: the raw reading's place, to within width/2
	width Tickdelta // the counter's ticks from the read before to the read after; negative where it ran back
	cpu   int       // the CPU of both counter readings; -1 where unknown, or where they were read on two
}

// end returns the counter's second reading of the bracket.
func (b *bracket) end() Tickstamp { return b.mid.add(b.width - b.width/2) }

// A clockPair is what a bracket reads: the counter, with the CPU it was read
// on (-1 where the instruction does not say), and the raw clock in
// nanoseconds. A measurement also asks cpu, the CPU the thread runs on as
// the OS sees it (nil where the OS cannot say), and waits stallWait past its
// window for a raw clock that does not advance. Tests put fakes in their
// place.
//
// The counter read must be ordered after every earlier instruction, so that
// a bracket's second read cannot be taken before the raw clock's read has
// returned; the first read may be held back a few cycles by the system call
// that follows it, which moves every midpoint alike.
type clockPair struct {
	counter   func() (Tickstamp, int)
	raw       func() int64
	cpu       func() int
	stallWait time.Duration
	// now times the wait for a stalled raw clock: the runtime's clock
	// where nil.
	now func() int64
}

// machineClocks are this machine's, for the per-CPU check and the watch:
// the read of [Counter.Begin], ordered both ways, and bracketNanos.
var machineClocks = clockPair{counter: readBothWays, raw: bracketNanos}

// bracketNanos is the brackets' read of the raw clock, rawClock's.
func bracketNanos() int64 { return rawClock().Read() }

// rawClock is the brackets' read of the raw clock: on Linux on amd64
// through the vDSO, unless RDTSC faults on the thread of the first bracket
// (readsFault), which opens it for the process.
var rawClock = sync.OnceValue(func() rawclock.Clock { return rawclock.Open(readsFault()) })

func readBothWays() (Tickstamp, int) { return Tickstamp(readBegin()), -1 }

// withoutCPU adapts a counter that does not say its CPU to a clockPair.
func withoutCPU(read func() Tickstamp) func() (Tickstamp, int) {
	return func() (Tickstamp, int) { return read(), -1 }
}

// take reads the raw clock between two readings of the counter into b.
func (p clockPair) take(b *bracket) {
	t0, cpu0 := p.counter()
	b.raw = p.raw()
	t1, cpu1 := p.counter()
	b.width = t1.Sub(t0)
	b.mid = t0.add(b.width / 2)
	b.cpu = cpu0
	if cpu1 != cpu0 {
		b.cpu = -1
	}
}

// accepted reports whether w, a bracket's width or the gap from one bracket
// to the next, is near enough the least seen to trust: no more than twice
// it, plus 64 ticks for a counter that steps. A wider one was stretched by
// an interrupt, a preemption or a slow read of the raw clock.
func accepted(w, least Tickdelta) bool {
	return w >= 0 && (least >= maxTickdelta/4 || w <= 2*least+64)
}

// maxBrackets is the most brackets one call of tightest takes.
const maxBrackets = 64

// tightest takes n brackets back to back (at least 1, at most maxBrackets)
// and returns the narrowest: the one least stretched by an interrupt or by
// the system call that reads the raw clock having been slow. It also
// returns the mean place of the brackets no more than twice as wide as the
// narrowest (plus 64 ticks, for a counter that steps), as offsets from the
// narrowest's raw reading and midpoint, in nanoseconds and ticks; averaging
// them halves the scatter of where within a bracket the raw clock was read.
// A bracket whose counter went backwards is skipped; where all n did, the
// narrowest has width -1.
func (c clockPair) tightest(n int) (best bracket, meanRaw, meanMid float64, kept int) {
	n = max(1, min(n, maxBrackets))
	var all [maxBrackets]bracket
	best.width = -1
	for i := range n {
		c.take(&all[i])
		if w := all[i].width; w >= 0 && (best.width < 0 || w < best.width) {
			best = all[i]
		}
	}
	if best.width < 0 {
		return best, 0, 0, 0
	}
	for _, b := range all[:n] {
		if accepted(b.width, best.width) {
			kept++
			meanRaw += float64(b.raw - best.raw)
			meanMid += float64(b.mid.Sub(best.mid))
		}
	}
	return best, meanRaw / float64(kept), meanMid / float64(kept), kept
}

// step returns the counter's smallest step, as [step.Smallest] finds it
// over c's counter read: the least advance a single reading can be seen to
// make (the counter's resolution, or a read's cost where that is larger),
// which the watch's and the per-CPU check's bounds allow for; 0 where the
// counter did not advance.
func (c clockPair) step() Tickdelta {
	return Tickdelta(step.Smallest(func() uint64 {
		t, _ := c.counter()
		return uint64(t)
	}))
}
