package counter

import (
	"errors"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeCPUs is a machine of several CPUs for the per-CPU check: each CPU's
// counter runs at 2.5 GHz, offset from true time by its own amount (see
// simMachine.offset); a counter read takes 10 ns and a raw read longer, so
// brackets have width. The tour's pins cost a migration each, are counted,
// and fail where a test says so.
type fakeCPUs struct {
	simMachine
	allowed  []int
	failPin  map[int]bool // CPUs that cannot be pinned
	failBack bool         // the second pin of the first CPU fails
	pins     map[int]int
	unpinErr error
}

const fakeHz = 2_500_000_000

// newCPUs returns a machine whose affinity mask holds allowed.
func newCPUs(allowed ...int) *fakeCPUs {
	return &fakeCPUs{simMachine: simMachine{hz: fakeHz, counterCost: 10, rawBefore: 700, rawAfter: 600}, allowed: allowed}
}

func (f *fakeCPUs) checker() cpuChecker {
	return cpuChecker{
		clocks:  f.clocks(),
		allowed: func() ([]int, error) { return slices.Clone(f.allowed), nil },
		pin: func(cpu int) (func() error, error) {
			if f.pins == nil {
				f.pins = map[int]int{}
			}
			f.pins[cpu]++
			if f.failPin[cpu] || (f.failBack && f.pins[cpu] == 2) {
				return nil, errors.New("invalid argument")
			}
			f.cpu = cpu
			f.ns += 20_000 // a migration
			return func() error { return f.unpinErr }, nil
		},
	}
}

func fakeRate(t *testing.T) TickRate {
	r, err := NewTickRate(fakeHz)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestCPUCheckAgrees(t *testing.T) {
	f := newCPUs(0, 1, 2, 3)
	check, err := f.checker().check(fakeRate(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(check.CPUs); got != 4 || check.Unchecked != nil {
		t.Fatalf("checked %v, unchecked %v; want all 4", check.CPUs, check.Unchecked)
	}
	for _, o := range check.CPUs {
		if o.Offset.Abs() > o.Bound {
			t.Errorf("CPU %d offset %v past its bound %v", o.CPU, o.Offset, o.Bound)
		}
	}
	// Each bracket is 1.3 µs plus two counter reads wide, the step 10 ns:
	// a bound is (1.32 + 1.32)/2 µs + 10 ns + 2 ns.
	if b := check.bound(); b < 1300*time.Nanosecond || b > 1400*time.Nanosecond {
		t.Errorf("bound() = %v; want about 1.33 µs", b)
	}
	if check.Brackets != maxCPUBrackets {
		t.Errorf("Brackets = %d; want %d for 4 CPUs", check.Brackets, maxCPUBrackets)
	}
}

// TestCPUCheckRefusesOffsetCPU is the Ryzen laptop: CPU 0 1.6 s behind the
// others.
func TestCPUCheckRefusesOffsetCPU(t *testing.T) {
	for _, tc := range []struct {
		name   string
		offset map[int]time.Duration
		bad    int
		want   time.Duration
	}{
		{"first CPU behind", map[int]time.Duration{0: -1600 * time.Millisecond}, 1, 1600 * time.Millisecond},
		{"a later CPU ahead", map[int]time.Duration{2: 1600 * time.Millisecond}, 2, 1600 * time.Millisecond},
		{"just past the bound", map[int]time.Duration{3: 2 * time.Microsecond}, 3, 2 * time.Microsecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newCPUs(0, 1, 2, 3)
			f.offset = tc.offset
			check, err := f.checker().check(fakeRate(t))
			if !errors.Is(err, ErrCPUsDisagree) {
				t.Fatalf("error %v; want one wrapping ErrCPUsDisagree", err)
			}
			largest := check.largest()
			if largest.CPU != tc.bad {
				t.Errorf("largest() = CPU %d; want CPU %d", largest.CPU, tc.bad)
			}
			if want := " CPU " + strconv.Itoa(tc.bad) + " is "; !strings.Contains(err.Error(), want) {
				t.Errorf("message %q does not name the CPU out of bound (%q)", err.Error(), want)
			}
			if d := (largest.Offset - tc.want).Abs(); d > largest.Bound {
				t.Errorf("largest offset %v; want %v within %v", largest.Offset, tc.want, largest.Bound)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "counter: the CPUs' counters disagree: CPU ") ||
				!strings.Contains(msg, "use Monotonic instead") || strings.HasSuffix(msg, ".") {
				t.Errorf("message %q", msg)
			}
		})
	}
}

// TestCPUCheckBudget: many CPUs share a fixed number of brackets.
func TestCPUCheckBudget(t *testing.T) {
	for _, n := range []int{2, 16, 64, 256} {
		f := newCPUs()
		for cpu := range n {
			f.allowed = append(f.allowed, cpu)
		}
		check, err := f.checker().check(fakeRate(t))
		if err != nil {
			t.Fatalf("%d CPUs: %v", n, err)
		}
		want := max(minCPUBrackets, min(maxCPUBrackets, cpuBracketBudget/n))
		if check.Brackets != want || len(check.CPUs) != n {
			t.Errorf("%d CPUs: %d brackets each, %d checked; want %d, %d", n, check.Brackets, len(check.CPUs), want, n)
		}
		// The budget, and one more visit, except where every CPU's least
		// number of brackets is past it.
		if total, budget := check.Brackets*(n+1), max(cpuBracketBudget, minCPUBrackets*n)+check.Brackets; total > budget {
			t.Errorf("%d CPUs took %d brackets; the budget is %d", n, total, budget)
		}
	}
}

func TestCPUCheckSkipsAndFailures(t *testing.T) {
	rate := fakeRate(t)
	t.Run("one CPU", func(t *testing.T) {
		f := newCPUs(3)
		if check, err := f.checker().check(rate); check != nil || err != nil {
			t.Errorf("= %v, %v; want nil, nil", check, err)
		}
	})
	t.Run("no affinity call", func(t *testing.T) {
		c := newCPUs().checker()
		c.allowed = func() ([]int, error) { return nil, errors.ErrUnsupported }
		if check, err := c.check(rate); check != nil || err != nil {
			t.Errorf("= %v, %v; want nil, nil", check, err)
		}
	})
	t.Run("a CPU cannot be pinned", func(t *testing.T) {
		f := newCPUs(0, 1, 2)
		f.failPin = map[int]bool{1: true}
		check, err := f.checker().check(rate)
		if err != nil || len(check.CPUs) != 2 || !slices.Equal(check.Unchecked, []int{1}) {
			t.Errorf("= %+v, %v; want CPUs 0 and 2 checked, 1 not", check, err)
		}
	})
	t.Run("the first CPU cannot be pinned", func(t *testing.T) {
		f := newCPUs(0, 1, 2)
		f.failPin = map[int]bool{0: true}
		check, err := f.checker().check(rate)
		if err != nil || len(check.CPUs) != 2 || check.CPUs[0].CPU != 1 || f.pins[1] != 2 {
			t.Errorf("= %+v, %v (pins %v); want CPUs 1 and 2 checked against 1", check, err, f.pins)
		}
	})
	t.Run("only one CPU can be pinned", func(t *testing.T) {
		f := newCPUs(0, 1)
		f.failPin = map[int]bool{0: true}
		check, err := f.checker().check(rate)
		if err != nil || check.CPUs != nil || !slices.Equal(check.Unchecked, []int{0, 1}) {
			t.Errorf("= %+v, %v; want nothing checked", check, err)
		}
	})
	t.Run("no CPU can be pinned", func(t *testing.T) {
		f := newCPUs(0, 1)
		f.failPin = map[int]bool{0: true, 1: true}
		check, err := f.checker().check(rate)
		if err != nil || check.CPUs != nil || !slices.Equal(check.Unchecked, []int{0, 1}) {
			t.Errorf("= %+v, %v; want nothing checked", check, err)
		}
	})
	t.Run("the first CPU cannot be pinned again", func(t *testing.T) {
		f := newCPUs(0, 1)
		f.failBack = true
		check, err := f.checker().check(rate)
		if err != nil || check.CPUs != nil || !slices.Equal(check.Unchecked, []int{0, 1}) {
			t.Errorf("= %+v, %v; want nothing checked", check, err)
		}
	})
	t.Run("a mask cannot be restored", func(t *testing.T) {
		f := newCPUs(0, 1)
		f.unpinErr = errors.New("invalid argument")
		check, err := f.checker().check(rate)
		if err != nil || check.CPUs != nil || !slices.Equal(check.Unchecked, []int{0, 1}) || f.pins[1] != 0 {
			t.Errorf("= %+v, %v (pins %v); want the tour ended at the first CPU", check, err, f.pins)
		}
	})
	t.Run("the counter only goes backwards", func(t *testing.T) {
		f := newCPUs(0, 1)
		f.backwards = true
		check, err := f.checker().check(rate)
		if err != nil || check.CPUs != nil {
			t.Errorf("= %+v, %v; want nothing checked", check, err)
		}
	})
	t.Run("nil and short checks", func(t *testing.T) {
		var none *cpuCheckResult
		if none.largest() != (CPUOffset{}) || none.bound() != 0 {
			t.Errorf("a nil check has a largest offset or a bound")
		}
		one := &cpuCheckResult{CPUs: []CPUOffset{{CPU: 4}}}
		if one.largest() != (CPUOffset{}) || one.bound() != 0 {
			t.Errorf("a one-CPU check has a largest offset or a bound")
		}
	})
}

// TestCPUCheckTourRunsOnItsOwn checks what discover relies on: start
// returns at once with the tour running on a goroutine of its own, and a
// tour nobody waits for ends by itself.
func TestCPUCheckTourRunsOnItsOwn(t *testing.T) {
	f := newCPUs(0, 1)
	c := f.checker()
	release, pinned := make(chan struct{}), make(chan struct{}, 3)
	pin := c.pin
	c.pin = func(cpu int) (func() error, error) {
		<-release // the tour cannot pin until the test lets it
		unpin, err := pin(cpu)
		pinned <- struct{}{}
		return unpin, err
	}
	before := runtime.NumGoroutine()
	run := c.start() // would block here if the tour ran on the caller
	close(release)
	for range 3 { // both CPUs, and back to the first
		<-pinned
	}
	_ = run // its result never asked for: the tour's goroutine must end all the same
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 10 s after the tour; %d before it", runtime.NumGoroutine(), before)
		}
	}
}

// TestCPUCheckTourAsksItsThread: the tour asks, on its own thread, whether
// the counter's instruction faults there, before it reads or pins anything;
// where it does, the check refuses with ErrDisabled.
func TestCPUCheckTourAsksItsThread(t *testing.T) {
	for _, faults := range []bool{false, true} {
		f := newCPUs(0, 1)
		tr := f.checker()
		asked := 0
		tr.faults = func() bool { asked++; return faults }
		check, err := tr.check(fakeRate(t))
		if asked != 1 {
			t.Errorf("faults %v: asked %d times; want once", faults, asked)
		}
		if !faults {
			if err != nil || len(check.CPUs) != 2 {
				t.Errorf("no fault: %+v, %v; want both CPUs checked", check, err)
			}
			continue
		}
		if err != ErrDisabled || check != nil || f.ns != 0 || len(f.pins) != 0 {
			t.Errorf("fault: %+v, %v, %v ns read, pins %v; want nil, ErrDisabled, nothing read or pinned", check, err, f.ns, f.pins)
		}
	}
}

// boundTour is a tour of CPUs 2 (first), 5, 7 and 9 with brackets laid out
// by hand, for the arithmetic of the bound at 1 GHz, where a tick is a
// nanosecond and converts to itself. The first CPU's brackets are 4 µs
// apart on both clocks, and each other CPU's raw reading falls a whole
// number of nanoseconds into them, so that the interpolated counter is
// whole and a CPU's offset is exactly what the test put there. Every width
// is even: every half-width is a whole tick, and the bound has no rounding
// to respect.
type boundTour struct {
	firstWidth, backWidth Tickdelta         // the first CPU's two brackets
	step                  Tickdelta         // the counter's step
	widths                map[int]Tickdelta // each other CPU's bracket
}

// boundCPUs are the CPUs of a boundTour after the first, in the tour's
// order.
var boundCPUs = []int{5, 7, 9}

// visited returns the tour with each CPU's counter offset ahead of the first
// CPU's by offset (none where missing).
func (b boundTour) visited(offset map[int]time.Duration) cpuTour {
	const raw0, mid0 = 5_000_000_000, Tickstamp(1_000_000_000_000)
	visits := []cpuVisit{{cpu: 2, b: bracket{raw: raw0, mid: mid0, width: b.firstWidth, cpu: -1}}}
	for i, cpu := range boundCPUs {
		at := int64(i+1) * 1000 // ns, and ticks, after the first bracket
		visits = append(visits, cpuVisit{cpu: cpu, b: bracket{
			raw:   raw0 + at,
			mid:   mid0.add(Tickdelta(at) + Tickdelta(offset[cpu])),
			width: b.widths[cpu],
			cpu:   -1,
		}})
	}
	back := bracket{raw: raw0 + 4000, mid: mid0.add(4000), width: b.backWidth, cpu: -1}
	return cpuTour{check: &cpuCheckResult{}, visits: visits, back: back, step: b.step}
}

// boundCases are the first CPU's two brackets both ways round, wider
// second and wider first, so that a bound taking the narrower of the two,
// or always the same one, differs from the formula. Each case's bounds are
// worked out by hand from the formula of CPUOffset: this CPU's half-width
// + the wider half-width of the first CPU's two + the step + 2 ns, in
// nanoseconds.
var boundCases = []struct {
	name   string
	tour   boundTour
	bounds map[int]time.Duration
}{
	{
		"the first CPU's second bracket wider",
		boundTour{firstWidth: 100, backWidth: 300, step: 7, widths: map[int]Tickdelta{5: 40, 7: 120, 9: 1000}},
		map[int]time.Duration{5: 20 + 150 + 7 + 2, 7: 60 + 150 + 7 + 2, 9: 500 + 150 + 7 + 2},
	},
	{
		"the first CPU's first bracket wider",
		boundTour{firstWidth: 640, backWidth: 260, step: 16, widths: map[int]Tickdelta{5: 1000, 7: 2, 9: 360}},
		map[int]time.Duration{5: 500 + 320 + 16 + 2, 7: 1 + 320 + 16 + 2, 9: 180 + 320 + 16 + 2},
	},
}

// TestCPUCheckBoundIsTheFormula checks each CPU's Bound against the
// formula of CPUOffset to the nanosecond, and that each CPU's Offset is
// the one laid out.
func TestCPUCheckBoundIsTheFormula(t *testing.T) {
	for _, tc := range boundCases {
		t.Run(tc.name, func(t *testing.T) {
			offset := map[int]time.Duration{5: -30, 7: 0, 9: 45}
			check, err := tc.tour.visited(offset).finish(gigahertz())
			if err != nil {
				t.Fatal(err)
			}
			if len(check.CPUs) != 1+len(boundCPUs) || check.CPUs[0] != (CPUOffset{CPU: 2}) {
				t.Fatalf("CPUs = %+v; want CPU 2 first, at 0 within 0, then %v", check.CPUs, boundCPUs)
			}
			for i, o := range check.CPUs[1:] {
				want := CPUOffset{CPU: boundCPUs[i], Offset: offset[boundCPUs[i]], Bound: tc.bounds[boundCPUs[i]]}
				if o != want {
					t.Errorf("got %+v; want %+v", o, want)
				}
			}
		})
	}
}

// TestCPUCheckRefusesJustPastTheBound: an offset exactly at a CPU's bound,
// either way, is accepted; one nanosecond past it, the least the check
// resolves at 1 GHz, is refused, and the refusal names that CPU, with its
// offset and bound, and no CPU within its bound.
func TestCPUCheckRefusesJustPastTheBound(t *testing.T) {
	for _, tc := range boundCases {
		t.Run(tc.name, func(t *testing.T) {
			for _, sign := range []time.Duration{1, -1} {
				at := map[int]time.Duration{}
				for _, cpu := range boundCPUs {
					at[cpu] = sign * tc.bounds[cpu]
				}
				if _, err := tc.tour.visited(at).finish(gigahertz()); err != nil {
					t.Errorf("offsets %v, each at its bound: %v", at, err)
				}
				for _, bad := range boundCPUs {
					past := maps.Clone(at)
					past[bad] += sign
					_, err := tc.tour.visited(past).finish(gigahertz())
					if !errors.Is(err, ErrCPUsDisagree) {
						t.Errorf("CPU %d %v past its bound: error %v; want one wrapping ErrCPUsDisagree", bad, past[bad], err)
						continue
					}
					msg := err.Error()
					want := " CPU " + strconv.Itoa(bad) + " is " + past[bad].String() + " from CPU 2 (the measurement explains ±" +
						tc.bounds[bad].String() + ");"
					if !strings.Contains(msg, want) {
						t.Errorf("CPU %d past its bound: message %q does not hold %q", bad, msg, want)
					}
					for _, cpu := range append([]int{2}, boundCPUs...) {
						if named := " CPU " + strconv.Itoa(cpu) + " is "; cpu != bad && strings.Contains(msg, named) {
							t.Errorf("CPU %d past its bound: message %q names CPU %d, within its bound", bad, msg, cpu)
						}
					}
				}
			}
		})
	}
}

// TestCPUCheckTourBound makes the tour on a simulated machine at 1 GHz,
// whose brackets are as wide as a raw read and a counter read take, and
// whose reads are its step apart, and checks that the bounds follow the
// formula of CPUOffset from the widths and the step the tour saw: the
// first CPU's second visit is the other of its two brackets, and the step
// is the counter's.
func TestCPUCheckTourBound(t *testing.T) {
	// A bracket is 10 ns of counter read, 700 ns of raw read before its
	// reading and rawAfter after it: 710 ns + rawAfter wide. The step is
	// the 10 ns between two counter reads.
	for _, tc := range []struct {
		name     string
		rawAfter []float64 // ns, on each visit: CPUs 0, 1 and 2, and 0 again
		bounds   []time.Duration
	}{
		// CPU 1's bracket is 1110 ns wide, CPU 2's 1310; the first CPU's
		// wider is 1710.
		{"the first CPU's second bracket wider", []float64{600, 400, 600, 1000}, []time.Duration{555 + 855 + 10 + 2, 655 + 855 + 10 + 2}},
		{"the first CPU's first bracket wider", []float64{1000, 400, 600, 600}, []time.Duration{555 + 855 + 10 + 2, 655 + 855 + 10 + 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeCPUs{simMachine: simMachine{hz: 1e9, counterCost: 10, rawBefore: 700}, allowed: []int{0, 1, 2}}
			tr := f.checker()
			pin, visit := tr.pin, 0
			tr.pin = func(cpu int) (func() error, error) {
				f.rawAfter = tc.rawAfter[visit]
				visit++
				return pin(cpu)
			}
			check, err := tr.check(gigahertz())
			if err != nil {
				t.Fatal(err)
			}
			if visit != 4 || len(check.CPUs) != 3 {
				t.Fatalf("%d visits, CPUs %+v; want 4 visits and CPUs 0, 1 and 2", visit, check.CPUs)
			}
			for i, o := range check.CPUs[1:] {
				if o.Bound != tc.bounds[i] {
					t.Errorf("CPU %d's bound %v; want %v", o.CPU, o.Bound, tc.bounds[i])
				}
			}
		})
	}
}
