package step

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A fakeCounter is a counter whose readings are a clock that advances cost
// ticks a read, rounded down to a multiple of its step.
type fakeCounter struct {
	now   uint64 // the clock, in ticks
	step  uint64 // the counter's step
	cost  uint64 // the clock's advance per read
	reads int    // reads so far
}

func (f *fakeCounter) read() uint64 {
	f.reads++
	f.now += f.cost
	return f.now / f.step * f.step
}

func TestSmallest(t *testing.T) {
	for _, tc := range []struct {
		name              string
		start, step, cost uint64
		want              int64
	}{
		{"a step larger than a read", 0, 24, 10, 24},
		{"a step a read's cost exactly", 5, 24, 24, 24},
		{"a read dearer than the step", 0, 1, 30, 30},
		{"two steps a read", 0, 10, 20, 20},
		{"a counter that wraps", math.MaxUint64 - 100, 1, 7, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeCounter{now: tc.start, step: tc.step, cost: tc.cost}
			if got := Smallest(f.read); got != tc.want {
				t.Errorf("Smallest = %d; want %d", got, tc.want)
			}
		})
	}
}

// TestSmallestStuck checks that a counter that never advances gives 0,
// after no more reads than the doc says.
func TestSmallestStuck(t *testing.T) {
	reads := 0
	got := Smallest(func() uint64 { reads++; return 42 })
	if got != 0 {
		t.Errorf("Smallest of a stuck counter = %d; want 0", got)
	}
	if reads > 8*1001 {
		t.Errorf("%d reads; want at most 8 × 1001", reads)
	}

	// A counter that moves every read: each try takes two reads.
	reads = 0
	var now uint64
	if got := Smallest(func() uint64 { reads++; now += 5; return now }); got != 5 || reads != 8*2 {
		t.Errorf("a counter 5 ticks a read: %d ticks after %d reads; want 5 after %d", got, reads, 8*2)
	}
}

// TestSmallestWithin1000Reads checks the limit of a try: a counter that
// advances on the 1000th read after a try's first is seen to, and one that
// advances on the 1001st is not.
func TestSmallestWithin1000Reads(t *testing.T) {
	for _, tc := range []struct {
		every uint64 // the counter advances every this many reads
		want  int64
	}{
		{1000, 1000},
		{1001, 0},
	} {
		reads := uint64(0)
		got := Smallest(func() uint64 { v := reads / tc.every * tc.every; reads++; return v })
		if got != tc.want {
			t.Errorf("a counter that advances every %d reads: %d; want %d", tc.every, got, tc.want)
		}
	}
}

// TestSmallestEightTries checks that the least is over eight tries: a step
// the eighth try alone sees is found.
func TestSmallestEightTries(t *testing.T) {
	try, now, t0 := 0, uint64(0), true
	got := Smallest(func() uint64 {
		if t0 {
			try++
		}
		t0 = !t0 // each try here is two reads: its first and the advance
		if try < 8 {
			now += 100
		} else {
			now += 3
		}
		return now
	})
	if got != 3 {
		t.Errorf("Smallest = %d; want 3, the step of the eighth try", got)
	}
}

// TestSmallestSlowCounter checks that a counter that takes the full 1000
// reads of a try to advance is still seen to.
func TestSmallestSlowCounter(t *testing.T) {
	f := &fakeCounter{step: 1000, cost: 1}
	if got := Smallest(f.read); got != 1000 {
		t.Errorf("Smallest = %d; want 1000 for a counter that advances every 1000 reads", got)
	}
}

// TestSmallestOutliers checks that a try stretched by an interrupt, or one
// where the counter went back, does not hide the step the other tries see.
func TestSmallestOutliers(t *testing.T) {
	// readings: a try that jumps ahead, a try that goes back, then steady
	// steps of 3.
	seq := []uint64{100, 100, 900, 900, 800}
	next := uint64(800)
	i := 0
	got := Smallest(func() uint64 {
		if i < len(seq) {
			i++
			return seq[i-1]
		}
		next += 3
		return next
	})
	if got != 3 {
		t.Errorf("Smallest = %d; want 3", got)
	}
	// Where every try went back, there is no advance to report.
	v := uint64(1 << 40)
	if got := Smallest(func() uint64 { v -= 5; return v }); got != 0 {
		t.Errorf("Smallest of a counter that only goes back = %d; want 0", got)
	}
}

// A simCounter is a counter read by a simulated read: each read advances
// a clock by the read's cost, cost plus a jitter drawn evenly from 0 to
// jitter, and returns value of the clock. rng seeds the jitter, so that a
// run is the same every time.
type simCounter struct {
	now          uint64                     // the clock, in ticks of the reading
	cost, jitter uint64                     // the read's cost, in ticks of the clock
	value        func(uint64) uint64        // the counter's reading at a time of the clock
	rng          *rand.Rand                 // the jitter's
	reads        int                        // reads so far
	extra        func(int) (uint64, uint64) // a further advance of the clock and of the value before read n; nil for none
	offset       uint64                     // what extra has added to the value so far
}

func (s *simCounter) read() uint64 {
	s.reads++
	s.now += s.cost
	if s.jitter > 0 {
		s.now += s.rng.Uint64N(s.jitter + 1)
	}
	if s.extra != nil {
		dt, dv := s.extra(s.reads)
		s.now += dt
		s.offset += dv
	}
	return s.value(s.now) + s.offset
}

// quantized returns a counter of the given resolution: the clock rounded
// down to a whole number of resolution ticks.
func quantized(resolution uint64) func(uint64) uint64 {
	return func(t uint64) uint64 { return t / resolution * resolution }
}

// scaled24MHz is a counter that counts at 24 MHz and reads at 1 GHz, as an
// Arm counter with FEAT_ECV's scaling does: at t ns, floor(t·24e6/1e9)
// counts, each 1e9/24e6 ticks of 1 GHz, rounded to a whole tick.
func scaled24MHz(t uint64) uint64 {
	n := t * 24 / 1000
	return (n*1000 + 12) / 24
}

// TestResolution checks Resolution against simulated counters of known
// resolution, read faster and slower than they advance.
func TestResolution(t *testing.T) {
	const mean24MHz = 1e9 / 24e6 // 41.67 ticks of 1 GHz
	for _, tc := range []struct {
		name         string
		value        func(uint64) uint64
		cost, jitter uint64
		want, within float64
	}{
		{"1 tick, reads of 20 to 48 ticks", quantized(1), 20, 28, 1, 0},
		{"2 ticks, reads of 20 to 48 ticks (an Intel guest)", quantized(2), 20, 28, 2, 0},
		{"2 ticks, reads of 40 to 48 ticks", quantized(2), 40, 8, 2, 0},
		{"2 ticks, reads of 1 tick", quantized(2), 1, 0, 2, 0},
		{"21 ticks, reads of 5 to 15 ticks", quantized(21), 5, 10, 21, 0},
		{"21 ticks, reads of 15 to 30 ticks", quantized(21), 15, 15, 21, 0},
		{"21 ticks, reads of 30 to 58 ticks", quantized(21), 30, 28, 21, 0},
		{"21 ticks, reads of 42 to 46 ticks: a multiple, jittered", quantized(21), 42, 4, 21, 0},
		{"2 ticks, reads of 40 to 42 ticks: a multiple, jittered", quantized(2), 40, 2, 2, 0},
		{"24 MHz at 1 GHz, reads of 15 to 25 ns", scaled24MHz, 15, 10, mean24MHz, 0.1},
		{"24 MHz at 1 GHz, reads of 2 ns", scaled24MHz, 2, 0, mean24MHz, 0.1},
		{"24 MHz at 1 GHz, reads of 35 to 50 ns", scaled24MHz, 35, 15, mean24MHz, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &simCounter{now: 1 << 40, cost: tc.cost, jitter: tc.jitter, value: tc.value, rng: rand.New(rand.NewPCG(1, 2))}
			got := Resolution(s.read)
			if math.Abs(got-tc.want) > tc.within {
				t.Errorf("Resolution = %v; want %v (within %v)", got, tc.want, tc.within)
			}
			if s.reads != Pairs+1 {
				t.Errorf("%d reads; want Pairs+1 = %d", s.reads, Pairs+1)
			}
		})
	}
}

// TestResolutionLimits checks what Resolution reports where its
// differences cannot show the resolution, as its doc says: the read's cost
// where every difference is the same, and 1 for a scaled counter read
// slower than it advances.
func TestResolutionLimits(t *testing.T) {
	for _, tc := range []struct {
		name         string
		value        func(uint64) uint64
		cost, jitter uint64
		want         float64
	}{
		{"1 tick, every read 40 ticks", quantized(1), 40, 0, 40},
		{"21 ticks, every read 42 ticks", quantized(21), 42, 0, 42},
		{"24 MHz at 1 GHz, reads of 60 to 80 ns", scaled24MHz, 60, 20, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &simCounter{cost: tc.cost, jitter: tc.jitter, value: tc.value, rng: rand.New(rand.NewPCG(3, 4))}
			if got := Resolution(s.read); got != tc.want {
				t.Errorf("Resolution = %v; want %v", got, tc.want)
			}
		})
	}
}

// TestResolutionOutliers checks that pairs an interrupt stretched, or a
// migration to a CPU whose counter is a tick ahead, do not hide the
// resolution, read slower or faster than the counter.
func TestResolutionOutliers(t *testing.T) {
	// Every 1000th read is 5000 to 5100 ticks late; every 3000th is on
	// another CPU, a tick further ahead.
	outliers := func(n int) (uint64, uint64) {
		var dt, dv uint64
		if n%1000 == 0 {
			dt = 5000 + uint64(n%101)
		}
		if n%3000 == 0 {
			dv = 1
		}
		return dt, dv
	}
	for _, tc := range []struct {
		name         string
		cost, jitter uint64
		want         float64
	}{
		{"reads slower", 20, 28, 2},
		{"reads faster", 1, 0, 2},
	} {
		s := &simCounter{cost: tc.cost, jitter: tc.jitter, value: quantized(2), rng: rand.New(rand.NewPCG(5, 6)), extra: outliers}
		if got := Resolution(s.read); got != tc.want {
			t.Errorf("%s: Resolution = %v; want %v", tc.name, got, tc.want)
		}
	}
}

// TestResolutionEdges checks a counter that wraps, one that never advances
// and one that only goes back.
func TestResolutionEdges(t *testing.T) {
	s := &simCounter{now: math.MaxUint64 - 1000, cost: 20, jitter: 28, value: quantized(1), rng: rand.New(rand.NewPCG(7, 8))}
	if got := Resolution(s.read); got != 1 {
		t.Errorf("a counter that wraps: %v; want 1", got)
	}
	if got := Resolution(func() uint64 { return 42 }); got != 0 {
		t.Errorf("a counter that never advances: %v; want 0", got)
	}
	v := uint64(1 << 40)
	if got := Resolution(func() uint64 { v -= 6; return v }); got != 0 {
		t.Errorf("a counter that only goes back: %v; want 0", got)
	}
}
