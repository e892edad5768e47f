package counter

import (
	"errors"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// run makes the tour and converts its offsets at rate, as checkCPUs does
// with the machine's.
func (t cpuTour) run(rate TickRate) (*cpuCheck, error) { return t.start()(rate) }

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

func (f *fakeCPUs) tour() cpuTour {
	return cpuTour{
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
	check, err := f.tour().run(fakeRate(t))
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
			check, err := f.tour().run(fakeRate(t))
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
		check, err := f.tour().run(fakeRate(t))
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
		if check, err := f.tour().run(rate); check != nil || err != nil {
			t.Errorf("= %v, %v; want nil, nil", check, err)
		}
	})
	t.Run("no affinity call", func(t *testing.T) {
		tour := newCPUs().tour()
		tour.allowed = func() ([]int, error) { return nil, errors.ErrUnsupported }
		if check, err := tour.run(rate); check != nil || err != nil {
			t.Errorf("= %v, %v; want nil, nil", check, err)
		}
	})
	t.Run("a CPU cannot be pinned", func(t *testing.T) {
		f := newCPUs(0, 1, 2)
		f.failPin = map[int]bool{1: true}
		check, err := f.tour().run(rate)
		if err != nil || len(check.CPUs) != 2 || !slices.Equal(check.Unchecked, []int{1}) {
			t.Errorf("= %+v, %v; want CPUs 0 and 2 checked, 1 not", check, err)
		}
	})
	t.Run("the first CPU cannot be pinned", func(t *testing.T) {
		f := newCPUs(0, 1, 2)
		f.failPin = map[int]bool{0: true}
		check, err := f.tour().run(rate)
		if err != nil || len(check.CPUs) != 2 || check.CPUs[0].CPU != 1 || f.pins[1] != 2 {
			t.Errorf("= %+v, %v (pins %v); want CPUs 1 and 2 checked against 1", check, err, f.pins)
		}
	})
	t.Run("only one CPU can be pinned", func(t *testing.T) {
		f := newCPUs(0, 1)
		f.failPin = map[int]bool{0: true}
		check, err := f.tour().run(rate)
		if err != nil || check.CPUs != nil || !slices.Equal(check.Unchecked, []int{0, 1}) {
			t.Errorf("= %+v, %v; want nothing checked", check, err)
		}
	})
	t.Run("no CPU can be pinned", func(t *testing.T) {
		f := newCPUs(0, 1)
		f.failPin = map[int]bool{0: true, 1: true}
		check, err := f.tour().run(rate)
		if err != nil || check.CPUs != nil || !slices.Equal(check.Unchecked, []int{0, 1}) {
			t.Errorf("= %+v, %v; want nothing checked", check, err)
		}
	})
	t.Run("the first CPU cannot be pinned again", func(t *testing.T) {
		f := newCPUs(0, 1)
		f.failBack = true
		check, err := f.tour().run(rate)
		if err != nil || check.CPUs != nil || !slices.Equal(check.Unchecked, []int{0, 1}) {
			t.Errorf("= %+v, %v; want nothing checked", check, err)
		}
	})
	t.Run("a mask cannot be restored", func(t *testing.T) {
		f := newCPUs(0, 1)
		f.unpinErr = errors.New("invalid argument")
		check, err := f.tour().run(rate)
		if err != nil || check.CPUs != nil || !slices.Equal(check.Unchecked, []int{0, 1}) || f.pins[1] != 0 {
			t.Errorf("= %+v, %v (pins %v); want the tour ended at the first CPU", check, err, f.pins)
		}
	})
	t.Run("the counter only goes backwards", func(t *testing.T) {
		f := newCPUs(0, 1)
		f.backwards = true
		check, err := f.tour().run(rate)
		if err != nil || check.CPUs != nil {
			t.Errorf("= %+v, %v; want nothing checked", check, err)
		}
	})
	t.Run("nil and short checks", func(t *testing.T) {
		var none *cpuCheck
		if none.largest() != (CPUOffset{}) || none.bound() != 0 {
			t.Errorf("a nil check has a largest offset or a bound")
		}
		one := &cpuCheck{CPUs: []CPUOffset{{CPU: 4}}}
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
	tour := f.tour()
	release, pinned := make(chan struct{}), make(chan struct{}, 3)
	pin := tour.pin
	tour.pin = func(cpu int) (func() error, error) {
		<-release // the tour cannot pin until the test lets it
		unpin, err := pin(cpu)
		pinned <- struct{}{}
		return unpin, err
	}
	before := runtime.NumGoroutine()
	finish := tour.start() // would block here if the tour ran on the caller
	close(release)
	for range 3 { // both CPUs, and back to the first
		<-pinned
	}
	_ = finish // never called: the tour's goroutine must end all the same
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
		tr := f.tour()
		asked := 0
		tr.faults = func() bool { asked++; return faults }
		check, err := tr.run(fakeRate(t))
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
