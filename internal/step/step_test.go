package step

import (
	"math"
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
