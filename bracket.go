package counter

// A bracket places one reading of the raw clock on the counter's scale: the
// counter is read, in order, before and after the raw clock, so the raw
// clock's reading was taken when the counter stood somewhere between the two.
type bracket struct {
	raw   int64     // the raw clock, in nanoseconds
	mid   Tickstamp // the counter's midpoint: the raw reading's place, to within width/2
	width Tickdelta // the counter's ticks from the read before to the read after
}

// refClocks are what the per-CPU check and the watch read: the counter,
// ordered both ways (no earlier instruction may finish after it and no later
// one start before it), and the raw monotonic clock in nanoseconds. Tests
// put fakes in their place.
type refClocks struct {
	counter func() Tickstamp
	raw     func() int64
}

// machineClocks are this machine's: the ordered read of [Counter.Begin]
// and rawNanos.
var machineClocks = refClocks{counter: readOrdered, raw: rawNanos}

func readOrdered() Tickstamp { return Tickstamp(readBegin()) }

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
func (c refClocks) tightest(n int) (best bracket, meanRaw, meanMid float64, kept int) {
	n = max(1, min(n, maxBrackets))
	var all [maxBrackets]bracket
	best.width = -1
	for i := range n {
		t0 := c.counter()
		raw := c.raw()
		t1 := c.counter()
		w := t1.Sub(t0)
		all[i] = bracket{raw: raw, mid: t0.Add(w / 2), width: w}
		if w >= 0 && (best.width < 0 || w < best.width) {
			best = all[i]
		}
	}
	if best.width < 0 {
		return best, 0, 0, 0
	}
	for _, b := range all[:n] {
		if b.width >= 0 && b.width <= 2*best.width+64 {
			kept++
			meanRaw += float64(b.raw - best.raw)
			meanMid += float64(b.mid.Sub(best.mid))
		}
	}
	return best, meanRaw / float64(kept), meanMid / float64(kept), kept
}

// step returns the counter's smallest step: the least advance from a
// reading to the first different one, over a few tries. It is the
// resolution of a single reading: about 24 ticks (10 ns) on AMD
// processors, 1 tick on others, 1 µs of ticks under qemu-user; where a read
// takes longer than a step, it is the read's cost. It is 0 where the
// counter did not advance in 1000 reads.
func (c refClocks) step() Tickdelta {
	var least Tickdelta
	for range 8 {
		t0 := c.counter()
		for range 1000 {
			if d := c.counter().Sub(t0); d != 0 {
				if d > 0 && (least == 0 || d < least) {
					least = d
				}
				break
			}
		}
	}
	return least
}
