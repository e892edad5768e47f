package counter

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// measured returns the machine discovery's measurement reads in these
// tests: a counter at hz that moves in steps of step ticks (AMD's move
// every 10 ns or so), read in 6 ns and saying its CPU as RDTSCP does, and a
// raw clock read by a system call of 350 ns, which an interrupt stretches
// once every 997 reads.
func measured(hz, step float64) *simMachine {
	return &simMachine{hz: hz, step: step, counterCost: 6, rawBefore: 175, rawAfter: 175, interruptEvery: 997, cpuFrom: cpuFromReads}
}

// fromOS has only the OS say the CPU, where fromOS, as where the counter's
// instruction does not.
func (s *simMachine) fromOS(fromOS bool) *simMachine {
	if fromOS {
		s.cpuFrom = cpuFromOS
	}
	return s
}

func TestMeasureFakeMachine(t *testing.T) {
	for _, hz := range []float64{1e6, 24e6, 62.5e6, 1e9, 2_445_434_000, 3e9, 1e10} {
		f := measured(hz, math.Max(1, hz/1e8))
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

// TestMeasureFollowsASlowerThread slows the reads of the raw clock to two
// and a half times their cost for most of the window, as a busy sibling
// sharing the thread's core does (seen on the AMD guest under load, with
// brackets through the vDSO), with short spells at full speed between: the
// slow brackets are wider than twice the fast ones. The measurement must
// hold each bracket against the recent narrowest, not the narrowest of the
// window, and keep the slow ones; held against the narrowest of the
// window, it keeps only the spells and nearly nothing of the window.
func TestMeasureFollowsASlowerThread(t *testing.T) {
	const hz = 2_445_434_000
	f := measured(hz, 1)
	f.interruptEvery = 0
	p := f.clocks()
	raw := p.raw
	p.raw = func() int64 {
		f.rawBefore, f.rawAfter = 440, 440
		if f.reads%3000 < 100 { // the sibling idles
			f.rawBefore, f.rawAfter = 175, 175
		}
		return raw()
	}
	m, err := p.measure(10 * time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	ppm := (float64(m.Hz) - hz) / hz * 1e6
	t.Logf("measured %d Hz, %+.4f ppm, kept %d of %d", m.Hz, ppm, m.Kept, m.Brackets)
	if math.Abs(ppm) > 0.2 || m.Kept < m.Brackets*2/3 {
		t.Errorf("measured %d Hz, %+.3f ppm off, from %d of %d brackets; want within 0.2 ppm, from two thirds or more", m.Hz, ppm, m.Kept, m.Brackets)
	}
}

// TestMeasureKeepsAMovedThreadsData moves the thread to a CPU whose counter
// is 10 µs ahead, halfway through the window: the window goes on in a second
// segment with an offset of its own, not from the start, and the rate is as
// good as if the thread had stayed. It does so whether the counter's reads
// say where they ran (RDTSCP) or only the OS can (getcpu).
func TestMeasureKeepsAMovedThreadsData(t *testing.T) {
	for _, fromOS := range []bool{false, true} {
		const hz = 2e9
		var moveAt int
		f := measured(hz, 1).fromOS(fromOS)
		f.cpuOf = func(read int) int {
			if moveAt != 0 && read >= moveAt {
				return 1
			}
			return 0
		}
		f.offset = map[int]time.Duration{1: 10 * time.Microsecond}
		// The move comes with 50 µs off the CPU, halfway through.
		moveAt = 30_000
		f.pauseAt = map[int]float64{moveAt: 50_000}
		m, err := f.clocks().measure(10 * time.Millisecond)
		if err != nil {
			t.Fatalf("OS says the CPU: %v: %v", fromOS, err)
		}
		ppm := (float64(m.Hz) - hz) / hz * 1e6
		t.Logf("OS says the CPU: %v: %d Hz, %+.4f ppm, %d segments, spread %.4f ppm, kept %d of %d",
			fromOS, m.Hz, ppm, m.Segments, m.SpreadPPM, m.Kept, m.Brackets)
		if m.Segments != 2 || math.Abs(ppm) > 0.2 {
			t.Errorf("OS says the CPU: %v: %+.3f ppm in %d segments; want within 0.2 ppm, in 2", fromOS, ppm, m.Segments)
		}
		if m.Window < 9*time.Millisecond {
			t.Errorf("OS says the CPU: %v: window %v; want the whole window kept", fromOS, m.Window)
		}
	}
}

// TestMeasureOneSegmentWithoutAMove checks that pauses with no move, and a
// thread whose CPU no one can tell, keep one segment: only a known move
// costs the fit an offset.
func TestMeasureOneSegmentWithoutAMove(t *testing.T) {
	pauses := map[int]float64{5000: 30_000, 15_000: 200_000, 20_000: 4_000}
	for _, fromOS := range []bool{false, true} {
		f := measured(1e9, 1).fromOS(fromOS)
		f.pauseAt = pauses
		m, err := f.clocks().measure(10 * time.Millisecond)
		if err != nil || m.Segments != 1 {
			t.Errorf("OS says the CPU: %v: %d segments, %v; want 1", fromOS, m.Segments, err)
		}
	}
	f := measured(1e9, 1)
	f.pauseAt, f.cpuOf = pauses, func(int) int { return -1 }
	if m, err := f.clocks().measure(10 * time.Millisecond); err != nil || m.Segments != 1 || m.Hz != 1e9 {
		t.Errorf("no one says the CPU: %d Hz, %d segments, %v; want 1 GHz in 1", m.Hz, m.Segments, err)
	}
}

// TestMeasureRefusesAThreadThatKeepsMoving moves the thread every 200 reads.
func TestMeasureRefusesAThreadThatKeepsMoving(t *testing.T) {
	f := measured(1e9, 1)
	f.cpuOf = func(read int) int { return read / 200 % 2 }
	_, err := f.clocks().measure(10 * time.Millisecond)
	want := "counter: could not measure the rate: the thread moved between CPUs more than 15 times in 10ms; pin it and try again"
	if !errors.Is(err, ErrMeasure) || err.Error() != want {
		t.Fatalf("measure error %v; want %s", err, want)
	}
}

// TestMeasureTakesFifteenMoves: a thread that moves 15 times in the window
// is measured, in 16 segments; one that moves 16 times is refused.
func TestMeasureTakesFifteenMoves(t *testing.T) {
	for _, moves := range []int{15, 16} {
		f := measured(1e9, 1)
		f.cpuOf = func(read int) int { return min(read/200, moves) }
		m, err := f.clocks().measure(10 * time.Millisecond)
		switch {
		case moves == 15 && (err != nil || m.Segments != 16 || m.Hz != 1e9):
			t.Errorf("15 moves: %d Hz in %d segments, %v; want 1 GHz in 16", m.Hz, m.Segments, err)
		case moves == 16 && !errors.Is(err, ErrMeasure):
			t.Errorf("16 moves: %d Hz in %d segments, %v; want ErrMeasure", m.Hz, m.Segments, err)
		}
	}
}

// TestMeasureSurvivesAnOSThatCannotSay has getcpu fail (as under a seccomp
// filter), with interrupts and pauses in the window: nothing says the thread
// moved, so the window stays one segment, and the rate is right.
func TestMeasureSurvivesAnOSThatCannotSay(t *testing.T) {
	f := measured(1e9, 1).fromOS(true)
	f.cpuOf = func(int) int { return -1 }
	f.pauseAt = map[int]float64{8000: 30_000, 16_000: 30_000}
	m, err := f.clocks().measure(10 * time.Millisecond)
	if err != nil || m.Segments != 1 || m.Hz != 1e9 {
		t.Fatalf("measure = %d Hz in %d segments, %v; want 1 GHz in 1", m.Hz, m.Segments, err)
	}
}

func TestMeasureRefusesStoppedClocks(t *testing.T) {
	f := measured(1e9, 0)
	f.frozen = true
	_, err := f.clocks().measure(time.Millisecond)
	if want := "counter: could not measure the rate: the counter advanced 0 ticks over"; !errors.Is(err, ErrMeasure) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("measure error %v; want one starting %q", err, want)
	}
	f = measured(1e9, 0)
	f.stalled = true
	p := f.clocks()
	p.stallWait = 20 * time.Millisecond
	start := time.Now()
	_, err = p.measure(time.Millisecond)
	if want := "counter: could not measure the rate: the raw clock did not advance 1ms in 21ms"; !errors.Is(err, ErrMeasure) || err.Error() != want {
		t.Fatalf("measure error %v; want %s", err, want)
	}
	if took := time.Since(start); took < 21*time.Millisecond || took > 10*time.Second {
		t.Errorf("gave up on a stalled clock after %v; want about 21ms", took)
	}
}

func TestFitBinsRefusals(t *testing.T) {
	// Two bins of one segment, and one of another: one degree of freedom.
	bins := []bin{{seg: 0, slot: 0, n: 1, x0: 1, y0: 1}, {seg: 0, slot: 5, n: 1, x0: 10, y0: 10}, {seg: 1, slot: 9, n: 1, x0: 20, y0: 30}}
	_, _, _, err := fitBins(bins, 0, 0)
	if want := "counter: could not measure the rate: the brackets filled only 2 of 64 stretches of the window on 1 CPUs"; !errors.Is(err, ErrMeasure) || err.Error() != want {
		t.Fatalf("fitBins error %v; want %s", err, want)
	}
	// A raw clock standing still.
	bins = []bin{{slot: 0, n: 1, x0: 1, y0: 1}, {slot: 1, n: 1, x0: 1, y0: 10}, {slot: 2, n: 2, x0: 1, y0: 40}}
	if _, _, _, err = fitBins(bins, 0, 0); !errors.Is(err, ErrMeasure) || !strings.Contains(err.Error(), "did not advance") {
		t.Fatalf("fitBins of a raw clock standing still: %v; want an error saying so", err)
	}
}

// TestFitBinsSpreadSeesSharedErrors fits bins whose errors wander together
// (a slow wave, as a raw clock's offset wanders on a VM) and bins whose
// errors are independent, of the same size: the spread must be larger
// where neighbouring bins share their errors, since repeats scatter more.
func TestFitBinsSpreadSeesSharedErrors(t *testing.T) {
	mk := func(err func(i int) float64) []bin {
		bins := make([]bin, measureBins)
		for i := range bins {
			x := int64(i) * 156_250
			bins[i] = bin{slot: i, n: 1, x0: x, y0: Tickstamp(2*float64(x) + 1000 + err(i))}
		}
		return bins
	}
	alternating := mk(func(i int) float64 { return float64(i%2*2-1) * 10 })
	wave := mk(func(i int) float64 { return 10 * math.Sin(float64(i)*2*math.Pi/40) })
	s1, white, _, err := fitBins(alternating, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	s2, shared, _, err := fitBins(wave, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("independent: slope %.6f spread %.3g; shared: slope %.6f spread %.3g", s1, white, s2, shared)
	if !(shared > 3*white) {
		t.Errorf("spread %.3g with shared errors, %.3g with independent ones; want the first well above", shared, white)
	}
	if math.Abs(s2-2) > 3*shared {
		t.Errorf("slope off by %.3g with a spread of %.3g; want within three spreads", math.Abs(s2-2), shared)
	}
}

// TestMeasureAgainstLongerWindow checks the real measurement against one of
// 200 ms, which is twenty times less sensitive to how either end falls. The
// bound is loose on purpose: 50 ppm, and the two spreads, since a loaded VM
// or an emulator may stretch any of it.
func TestMeasureAgainstLongerWindow(t *testing.T) {
	if !measureRawClock {
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

// TestMeasureAgainAfterAStarvedWindow keeps the thread off its CPU for 9 ms
// of the first 10 ms window, as a loaded machine may: the brackets of that
// window fill a few of its stretches, so the window is extended by the
// stretches the fit needs, rather than measured again. Off its CPU for 25
// ms, past a second window's time, the window is measured again and the
// rate comes from the second. A thread starved in every window gets the
// fit of the last one, or its refusal.
func TestMeasureAgainAfterAStarvedWindow(t *testing.T) {
	const hz = 2_445_434_000
	for _, tc := range []struct {
		pause   float64
		starved int
	}{{9e6, 0}, {25e6, 1}} {
		f := measured(hz, 24)
		f.pauseAt = map[int]float64{40: tc.pause}
		m, err := f.clocks().measure(10 * time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if ppm := (float64(m.Hz) - hz) / hz * 1e6; m.Starved != tc.starved || math.Abs(ppm) > 0.2 {
			t.Errorf("off the CPU %v: measured %d Hz (%+.3f ppm) after %d starved windows; want within 0.2 ppm after %d",
				time.Duration(tc.pause), m.Hz, ppm, m.Starved, tc.starved)
		}
		if tc.starved == 0 && (m.Window <= 10*time.Millisecond || m.Window > 20*time.Millisecond) {
			t.Errorf("off the CPU %v: a window of %v; want one extended past 10 ms, within a second window's time", time.Duration(tc.pause), m.Window)
		}
	}

	starve := map[int]float64{}
	for i := 1; i <= 100; i++ {
		starve[40*i] = 9.9e6 // every 20 brackets, about a window
	}
	f := measured(hz, 24)
	f.pauseAt = starve
	m, err := f.clocks().measure(10 * time.Millisecond)
	if m.Starved != measureWindows-1 {
		t.Errorf("starved in every window: Starved = %d; want %d", m.Starved, measureWindows-1)
	}
	ppm := (float64(m.Hz) - hz) / hz * 1e6
	switch {
	case err != nil && (!errors.Is(err, ErrMeasure) || !strings.Contains(err.Error(), "filled only")):
		t.Errorf("starved in every window: %v; want an ErrMeasure saying how few stretches were filled", err)
	case err == nil && math.Abs(ppm) > 0.2:
		t.Errorf("starved in every window: %+.3f ppm; want the last window's fit within 0.2 ppm, or a refusal", ppm)
	}
}

// TestJackknifeIgnoresEmptyBlocks fits bins that all fall in the window's
// first block: every other block would give the full fit's slope again and
// a spread of nothing, so there is no estimate, +Inf, rather than a
// confident zero.
func TestJackknifeIgnoresEmptyBlocks(t *testing.T) {
	var bins []bin
	for slot := range 5 {
		bins = append(bins, bin{slot: slot, n: 1, x0: int64(slot) * 150_000, y0: Tickstamp(slot*300_000 + slot%2*7)})
	}
	keep := []bool{true, true, true, true, true}
	if got := jackknife(bins, keep, 0, 0, spreadBlocks); !math.IsInf(got, 1) {
		t.Errorf("jackknife of bins in one block = %v; want +Inf", got)
	}
	// Spread over the blocks, the same scatter gives a finite spread.
	bins = bins[:0]
	for slot := 0; slot < measureBins; slot += 4 {
		bins = append(bins, bin{slot: slot, n: 1, x0: int64(slot) * 150_000, y0: Tickstamp(slot*300_000 + slot%8)})
	}
	keep = make([]bool, len(bins))
	for i := range keep {
		keep[i] = true
	}
	if got := jackknife(bins, keep, 0, 0, spreadBlocks); math.IsInf(got, 0) || got <= 0 {
		t.Errorf("jackknife of bins over the window = %v; want a finite spread above 0", got)
	}
}

// TestMeasureThroughAPause stops the simulated process for seconds during
// the window, as SIGSTOP, a debugger or a paused VM do, with the deadline
// for a stalled raw clock timed by the same simulated clock: the thread
// wakes past that deadline, yet the raw clock has advanced, so the window is
// measured again rather than refused, and the rate is as good as an
// undisturbed one. A pause in the second half leaves enough to fit.
func TestMeasureThroughAPause(t *testing.T) {
	const hz = 2_096_015_000
	for _, tc := range []struct {
		at      int     // the counter read the pause comes before
		pause   float64 // ns
		starved int     // windows measured again
	}{
		{at: 40, pause: 3e9, starved: 1},
		{at: 8000, pause: 0.1e9, starved: 1},
		{at: 20000, pause: 5e9, starved: 1},
		{at: 35000, pause: 2e9, starved: 0}, // past half the window
	} {
		f := measured(hz, 21)
		f.pauseAt = map[int]float64{tc.at: tc.pause}
		p := f.clocks()
		p.now = func() int64 { return int64(f.ns) }
		m, err := p.measure(10 * time.Millisecond)
		if err != nil {
			t.Fatalf("a %v pause before read %d: %v", time.Duration(tc.pause), tc.at, err)
		}
		ppm := (float64(m.Hz) - hz) / hz * 1e6
		t.Logf("a %v pause before read %d: %+.4f ppm, %d windows again, window %v", time.Duration(tc.pause), tc.at, ppm, m.Starved, m.Window)
		if m.Starved != tc.starved || math.Abs(ppm) > 0.2 || m.Window < 5*time.Millisecond {
			t.Errorf("a %v pause before read %d: %+.3f ppm over %v after %d windows measured again; want within 0.2 ppm over 5 ms or more after %d",
				time.Duration(tc.pause), tc.at, ppm, m.Window, m.Starved, tc.starved)
		}
	}
}

// samplesAt returns the samples of a window of length ns of the raw clock
// whose kept brackets fell at each of at, in ns past the window's start, on
// a counter at 2 GHz.
func samplesAt(length int64, at ...int64) samples {
	first := bracket{raw: simRawOrigin, mid: simCounterOrigin}
	s := newSamples(length, &first)
	for _, x := range at {
		b := bracket{raw: simRawOrigin + x, mid: Tickstamp(simCounterOrigin + 2*x)}
		s.add(&b)
	}
	return s
}

// inSlots returns a place in each of the window's stretches from slot
// first to slot last, for a window of length ns.
func inSlots(length int64, first, last int) []int64 {
	var at []int64
	for slot := first; slot <= last; slot++ {
		at = append(at, int64(slot)*length/measureBins+1)
	}
	return at
}

// TestDecide drives each course of a window from recorded samples: go on
// within the window, refuse a stalled raw clock, fit a full window, stretch
// a starved or cut one and fit it once enough stretches past its end are
// kept, measure again where a second window's time has passed, and fit the
// last window allowed as it is.
func TestDecide(t *testing.T) {
	const L = int64(10 * time.Millisecond)
	few := inSlots(L, 0, minFilledBins-2) // a stretch short of enough
	full := samplesAt(L, inSlots(L, 0, measureBins-1)...)
	starved := samplesAt(L, few...)
	cut := samplesAt(L, inSlots(L, 0, measureBins/2-2)...) // enough stretches, all in the first half
	stretched := samplesAt(L, slices.Concat(few, inSlots(L, measureBins, measureBins+1))...)
	enough := samplesAt(L, slices.Concat(few, inSlots(L, measureBins, measureBins+extendStretches-1))...)
	names := map[course]string{gatherOn: "gather on", stretchWindow: "stretch", fitWindow: "fit", measureAgain: "measure again", fitLast: "fit the last", clockStalled: "stalled"}
	for _, tc := range []struct {
		name    string
		s       samples
		x       int64
		starved int
		late    bool
		want    course
	}{
		{"within the window", full, L / 2, 0, false, gatherOn},
		{"within the window, past the deadline", full, L / 2, 0, true, clockStalled},
		{"a full window at its end", full, L, 0, false, fitWindow},
		{"a full window at its end, past the deadline", full, L, 0, true, fitWindow},
		{"a starved window at its end", starved, L, 0, false, stretchWindow},
		{"a starved window stretched, past the deadline", starved, L + L/2, 0, true, clockStalled},
		{"a starved window a second window on", starved, 2 * L, 0, false, measureAgain},
		{"a starved second window a second window on", starved, 2 * L, 1, false, measureAgain},
		{"the last starved window a second window on", starved, 2 * L, measureWindows - 1, false, fitLast},
		{"a cut window at its end", cut, L, 0, false, stretchWindow},
		{"a cut window a second window on", cut, 2 * L, 0, false, measureAgain},
		{"the last cut window a second window on", cut, 2 * L, measureWindows - 1, false, fitLast},
		{"a window stretched by too few stretches", stretched, L + L/4, 0, false, stretchWindow},
		{"a window stretched by too few, a second window on", stretched, 2 * L, 0, false, fitWindow},
		{"a window stretched by enough stretches", enough, L + L/4, 0, false, fitWindow},
	} {
		bins := slices.Clone(tc.s.bins)
		if got := decide(tc.s, tc.x, tc.starved, tc.late); got != tc.want {
			t.Errorf("%s: %s; want %s", tc.name, names[got], names[tc.want])
		}
		if !slices.Equal(bins, tc.s.bins) {
			t.Errorf("%s: decide changed the samples' bins", tc.name)
		}
	}
	if !cut.cut() || full.cut() || starved.filled() != minFilledBins-1 || cut.filled() < minFilledBins {
		t.Errorf("the samples are not what the cases say: cut %v %v, filled %d %d", cut.cut(), full.cut(), starved.filled(), cut.filled())
	}
}

// TestSamplesAddAndSplit checks where add puts a bracket, and that split
// starts a segment only where the one under way holds a bracket.
func TestSamplesAddAndSplit(t *testing.T) {
	const L = 64_000
	s := samplesAt(L, -1, 2*L) // before the window, and past its stretch: dropped
	if s.kept != 0 || len(s.bins) != 0 || !s.cut() {
		t.Fatalf("brackets outside the window and its stretch: kept %d in %d bins; want none", s.kept, len(s.bins))
	}
	s = samplesAt(L, 10, 20, 1500, L+10)
	if got := s.split(); got != 2 {
		t.Errorf("split after brackets = %d segments; want 2", got)
	}
	if got := s.split(); got != 2 {
		t.Errorf("split of an empty segment = %d segments; want still 2", got)
	}
	b := bracket{raw: simRawOrigin + 1600, mid: simCounterOrigin + 3200}
	s.add(&b)
	type place struct{ seg, slot, n int }
	var got []place
	for _, b := range s.bins {
		got = append(got, place{b.seg, b.slot, b.n})
	}
	want := []place{{0, 0, 2}, {0, 1, 1}, {0, measureBins, 1}, {1, 1, 1}}
	if !slices.Equal(got, want) || s.kept != 5 || s.firstRaw != simRawOrigin+10 || s.lastRaw != simRawOrigin+1600 || s.past() != 1 {
		t.Errorf("bins %v, kept %d from %d to %d, %d past; want %v, 5 from 10 to 1600, 1 past",
			got, s.kept, s.firstRaw-simRawOrigin, s.lastRaw-simRawOrigin, s.past(), want)
	}
}

// TestWhereNowReturnsWhatItRead checks that asking the OS where the thread
// runs returns the counter's latest reading and the narrowest question,
// retrying an answer of -1, and returns them as given where it cannot ask.
func TestWhereNowReturnsWhatItRead(t *testing.T) {
	var ticks Tickstamp
	answers := []int{-1, 3}
	p := clockPair{
		counter: func() (Tickstamp, int) { ticks += 100; return ticks, -1 },
		cpu:     func() int { a := answers[0]; answers = answers[1:]; ticks += 50; return a },
	}
	cpu, last, asked := p.whereNow(7, maxTickdelta)
	if cpu != 3 || last != 500 || asked != 150 {
		t.Errorf("whereNow = CPU %d, last %d, asked %d; want 3, 500, 150", cpu, last, asked)
	}
	p.cpu = nil
	if cpu, last, asked := p.whereNow(7, 40); cpu != -1 || last != 7 || asked != 40 {
		t.Errorf("whereNow with no OS to ask = CPU %d, last %d, asked %d; want -1, 7, 40", cpu, last, asked)
	}
}
