package counter

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// A fakeMachine is a counter and a raw clock driven by a simulated time that
// advances with every read, as on a real machine: a counter at hz that moves
// in steps (AMD's move every 10 ns or so), a raw clock in whole nanoseconds,
// and a system call that now and then is stretched by an interrupt.
type fakeMachine struct {
	ns       float64 // simulated time
	hz       float64
	step     float64 // the counter's step, in ticks
	callCost float64 // ns of each read of the raw clock
	reads    int
	cpuOf    func(read int) int // the CPU of each counter read
	stalled  bool               // the raw clock does not advance
	frozen   bool               // the counter does not advance
}

func (f *fakeMachine) counter() (Tickstamp, int) {
	f.ns += 6
	f.reads++
	ticks := 1e12 + f.ns*f.hz/1e9 // from an arbitrary origin
	if f.frozen {
		ticks = 1e12
	}
	if f.step > 1 {
		ticks = math.Floor(ticks/f.step) * f.step
	}
	cpu := 0
	if f.cpuOf != nil {
		cpu = f.cpuOf(f.reads)
	}
	return Tickstamp(ticks), cpu
}

func (f *fakeMachine) raw() int64 {
	f.ns += f.callCost / 2
	at := f.ns
	if f.reads%997 == 0 {
		f.ns += 20_000 // an interrupt inside the system call
	}
	f.ns += f.callCost / 2
	if f.stalled {
		return 5e9
	}
	return int64(at) + 5e9
}

func (f *fakeMachine) clocks() clockPair { return clockPair{counter: f.counter, raw: f.raw} }

func TestMeasureFakeMachine(t *testing.T) {
	for _, hz := range []float64{1e6, 24e6, 62.5e6, 1e9, 2_445_434_000, 3e9, 1e10} {
		f := &fakeMachine{hz: hz, step: math.Max(1, hz/1e8), callCost: 350}
		m, err := f.clocks().measure(10 * time.Millisecond)
		if err != nil {
			t.Fatalf("%v Hz: %v", hz, err)
		}
		// A 10 ns staircase and whole-nanosecond raw readings, averaged over
		// tens of thousands of brackets: far below a part per million.
		ppm := (float64(m.Hz) - hz) / hz * 1e6
		t.Logf("%v Hz: measured %d Hz, %+.4f ppm, spread %.4f ppm, kept %d of %d", hz, m.Hz, ppm, m.SpreadPPM, m.Kept, m.Brackets)
		if math.Abs(ppm) > 0.2 {
			t.Errorf("%v Hz: measured %d Hz, %+.3f ppm off; want within 0.2 ppm", hz, m.Hz, ppm)
		}
		if m.Kept == 0 || m.Kept >= m.Brackets || m.Brackets < 1000 {
			t.Errorf("%v Hz: kept %d of %d brackets; want most, but not the stretched ones", hz, m.Kept, m.Brackets)
		}
		if m.Window < 9*time.Millisecond || m.Window > 10*time.Millisecond {
			t.Errorf("%v Hz: window %v; want about 10ms", hz, m.Window)
		}
		if got, want := float64(m.Ticks), hz*m.Window.Seconds(); math.Abs(got-want) > max(want*1e-5, 1) {
			t.Errorf("%v Hz: %v over %v; want about %.0f", hz, m.Ticks, m.Window, want)
		}
	}
}

func TestMeasureRetriesAMovedThread(t *testing.T) {
	// The thread moves once, in the first window: the second is kept.
	f := &fakeMachine{hz: 1e9, step: 1, callCost: 350, cpuOf: func(read int) int {
		if read > 1000 {
			return 1
		}
		return 0
	}}
	m, err := f.clocks().measure(time.Millisecond)
	if err != nil || m.Retries != 1 {
		t.Fatalf("measure = %d Hz after %d retries, %v; want one retry and a rate", m.Hz, m.Retries, err)
	}
	// The thread keeps moving.
	f = &fakeMachine{hz: 1e9, step: 1, callCost: 350, cpuOf: func(read int) int { return read / 500 % 2 }}
	_, err = f.clocks().measure(time.Millisecond)
	want := "counter: could not measure the rate: the thread moved between CPUs in each of 5 windows; pin it and try again"
	if !errors.Is(err, ErrMeasure) || err.Error() != want {
		t.Fatalf("measure error %v; want %s", err, want)
	}
}

func TestMeasureRefusesStoppedClocks(t *testing.T) {
	f := &fakeMachine{hz: 1e9, callCost: 350, frozen: true}
	_, err := f.clocks().measure(time.Millisecond)
	if want := "counter: could not measure the rate: the counter advanced 0 ticks over"; !errors.Is(err, ErrMeasure) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("measure error %v; want one starting %q", err, want)
	}
	f = &fakeMachine{hz: 1e9, callCost: 350, stalled: true}
	start := time.Now()
	_, err = f.clocks().measure(time.Millisecond)
	if want := "counter: could not measure the rate: the raw clock did not advance 1ms in 1.001s"; !errors.Is(err, ErrMeasure) || err.Error() != want {
		t.Fatalf("measure error %v; want %s", err, want)
	}
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("gave up on a stalled clock after %v; want about a second", took)
	}
}

func TestFitBinsNeedsThreeBins(t *testing.T) {
	var bins [measureBins]bin
	bins[0], bins[5] = bin{n: 1, sx: 1, sy: 1}, bin{n: 1, sx: 10, sy: 10}
	_, _, err := fitBins(bins[:])
	if want := "counter: could not measure the rate: the brackets filled only 2 of 64 stretches of the window"; !errors.Is(err, ErrMeasure) || err.Error() != want {
		t.Fatalf("fitBins error %v; want %s", err, want)
	}
	bins[5] = bin{n: 1, sx: 1, sy: 10}
	bins[9] = bin{n: 2, sx: 2, sy: 40}
	if _, _, err = fitBins(bins[:]); !errors.Is(err, ErrMeasure) || !strings.Contains(err.Error(), "did not advance") {
		t.Fatalf("fitBins of a raw clock standing still: %v; want an error saying so", err)
	}
}

// TestMeasureAgainstLongerWindow checks the real measurement against one of
// 200 ms, which is twenty times less sensitive to how either end falls. The
// bound is loose on purpose: 50 ppm, and the two spreads, since a loaded VM
// or an emulator may stretch any of it.
func TestMeasureAgainstLongerWindow(t *testing.T) {
	if !haveRawClock {
		t.Skip("no raw clock on this system")
	}
	if readsFault() {
		t.Skip("RDTSC faults in this process")
	}
	detectFeatures()
	short, err := measureCounter(measureWindow)
	if err != nil {
		t.Fatal(err)
	}
	long, err := measureCounter(200 * time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	ppm := (float64(short.Hz) - float64(long.Hz)) / float64(long.Hz) * 1e6
	t.Logf("10 ms: %d Hz (spread %.3f ppm); 200 ms: %d Hz (spread %.3f ppm); %+.3f ppm apart", short.Hz, short.SpreadPPM, long.Hz, long.SpreadPPM, ppm)
	if bound := 50 + 3*(short.SpreadPPM+long.SpreadPPM); math.Abs(ppm) > bound {
		t.Errorf("the 10 ms measurement is %+.3f ppm from the 200 ms one; want within %.1f ppm", ppm, bound)
	}
}
