package counter

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// fakeHost is the watch's machine: a simMachine on synctest's fake time,
// whose true time is the bubble's time since epoch plus the time the reads
// themselves have taken (a counter read 15 to 75 ns, a raw read 200 ns to a
// microsecond, varying), so that the raw clock is read at varying places
// within the brackets. Of
// its own it has the clocksource file and the per-CPU check, each with a
// fault at a time of the bubble.
type fakeHost struct {
	simMachine
	epoch time.Time

	sourceAt   time.Duration // when the clocksource file changes (never where 0)
	sourceFrom string
	sourceTo   string
	sourceErr  error // what reading the file returns after sourceAt, instead of sourceTo
	noSource   bool  // there is no file
	badSource  bool  // the file cannot be read
	closed     int

	cpuAt  time.Duration // when the per-CPU check starts refusing (never where 0)
	cpuErr error         // what it refuses with then, where not the CPUs disagreeing
}

// newHost returns a host whose counter runs at hz (watchFor's default
// where 0) and changes as changes say.
func newHost(hz float64, changes ...simChange) *fakeHost {
	f := &fakeHost{}
	f.simMachine = simMachine{hz: hz, changes: changes, counterCost: 15, rawBefore: 100, rawAfter: 100, jitter: true,
		wall: func() time.Duration { return time.Since(f.epoch) }}
	return f
}

func (f *fakeHost) deps() watchDeps {
	return watchDeps{
		clocks:  f.clocks(),
		haveRaw: true,
		clocksrc: func() (clocksourceFile, error) {
			if f.noSource {
				return nil, errors.New("no such file or directory")
			}
			return hostClocksource{f}, nil
		},
		cpuCheck: func(TickRate) (*cpuCheckResult, error) {
			if f.cpuAt != 0 && time.Since(f.epoch) >= f.cpuAt {
				if f.cpuErr != nil {
					return nil, f.cpuErr
				}
				check := &cpuCheckResult{CPUs: []CPUOffset{{CPU: 0}, {CPU: 1, Offset: -1600 * time.Millisecond, Bound: 2 * time.Microsecond}}}
				return check, cpusError(check)
			}
			return &cpuCheckResult{}, nil
		},
		counterSrc: isCounterClocksource,
	}
}

// hostClocksource is a fakeHost's clocksource file, open.
type hostClocksource struct{ f *fakeHost }

func (h hostClocksource) readAll(b []byte) (int, error) {
	f := h.f
	if f.badSource {
		return 0, errors.New("input/output error")
	}
	if f.sourceAt != 0 && time.Since(f.epoch) >= f.sourceAt {
		if f.sourceErr != nil {
			return 0, f.sourceErr
		}
		return copy(b, f.sourceTo+"\n"), nil
	}
	return copy(b, f.sourceFrom+"\n"), nil
}

func (h hostClocksource) close() error { h.f.closed++; return nil }

// testPeriod is the period the tests run their watches at.
const testPeriod = time.Second

// watchFor runs a watch of f, made with opts, for d of fake time at
// testPeriod, and returns it and the events it raised.
func watchFor(t *testing.T, f *fakeHost, opts WatchOptions, d time.Duration) (*Watch, []Event) {
	t.Helper()
	f.epoch = time.Now()
	if f.hz == 0 {
		f.hz = 2_096_000_000
	}
	if f.sourceFrom == "" {
		f.sourceFrom = "tsc"
	}
	var got []Event
	opts.OnEvent = func(e Event) { got = append(got, e) }
	rate, _ := NewTickRate(uint64(f.hz))
	w, err := newWatch(rate, opts, f.deps())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- w.Run(ctx, testPeriod) }()
	time.Sleep(d)
	synctest.Wait()
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("Run returned %v; want context.Canceled", err)
	}
	return w, got
}

// estimate returns the refined fit's estimate, unrounded.
func (w *Watch) estimate() fitEstimate {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.det.fit.estimate()
}

// detected checks that the events are one of kind, raised within two
// periods of at, of severity sev, and returns it.
func detected(t *testing.T, f *fakeHost, events []Event, kind EventKind, sev WatchState, at, period time.Duration) Event {
	t.Helper()
	if len(events) != 1 || events[0].Kind != kind {
		t.Fatalf("events %v; want one %v", events, kind)
	}
	e := events[0]
	if after := e.At.Sub(f.epoch) - at; after < 0 || after > 2*period {
		t.Errorf("%v raised %v after the fault; want within two periods (%v)", kind, after, 2*period)
	}
	if e.Severity != sev {
		t.Errorf("severity %v; want %v", e.Severity, sev)
	}
	return e
}

func TestWatchQuiet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(0)
		w, events := watchFor(t, f, WatchOptions{CPUPeriod: 10 * time.Second}, 60*time.Second)
		if len(events) != 0 || w.State() != Trusted {
			t.Fatalf("events %v, state %v; want none, trusted", events, w.State())
		}
		r := w.estimate()
		if r.points != 61 || math.Abs(r.hz-f.hz)/f.hz*1e6 > 0.01 || r.uncertaintyPPM > 0.01 {
			t.Errorf("refined %+v; want 61 checks within 0.01 ppm of %v Hz", r, f.hz)
		}
		if math.Abs(r.hz-f.hz)/f.hz*1e6 > 4*r.uncertaintyPPM+1e-6 {
			t.Errorf("refined %v Hz, %v from the truth: more than 4 standard errors (%v ppm)", r.hz, r.hz-f.hz, r.uncertaintyPPM)
		}
		if rate, u := w.Refined(); rate.Hertz() != uint64(math.Round(r.hz)) || u != r.uncertaintyPPM {
			t.Errorf("Refined() = %v, %v; want the fit's %v Hz rounded, and %v", rate, u, r.hz, r.uncertaintyPPM)
		}
		if f.closed != 1 {
			t.Errorf("clocksource file closed %d times; want 1", f.closed)
		}
	})
}

func TestWatchRateChange(t *testing.T) {
	// 10 ppm is at the default tolerance: it takes a tighter one, as a
	// service whose rate came from a quiet discovery may set.
	for _, tc := range []struct{ ppm, tol float64 }{{100, 0}, {-100, 0}, {10, 1}, {5000, 0}} {
		ppm := tc.ppm
		t.Run(strings.ReplaceAll(time.Duration(ppm).String(), "ns", "ppm"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const at = 3500 * time.Millisecond
				f := newHost(0, simChange{at: at, ppm: ppm})
				w, events := watchFor(t, f, WatchOptions{RateTolerancePPM: tc.tol}, 20*time.Second)
				sev := Degraded
				if math.Abs(ppm) > untrustedRatePPM {
					sev = Untrusted
				}
				e := detected(t, f, events, EventRate, sev, at, time.Second)
				if tol := cmp.Or(tc.tol, defaultRateTolerancePPM); math.Abs(e.Value-ppm) > e.Threshold || e.Threshold > tol+2 {
					t.Errorf("rate %v ppm, threshold %v ppm; want %v ppm", e.Value, e.Threshold, ppm)
				}
				if w.State() != sev {
					t.Errorf("state %v; want %v", w.State(), sev)
				}
				// The refined rate follows the new rate.
				want := f.hz * (1 + ppm/1e6)
				if r := w.estimate(); math.Abs(r.hz-want)/want*1e6 > 0.05 || r.points < 10 {
					t.Errorf("refined %+v; want %v Hz", r, want)
				}
			})
		})
	}
}

func TestWatchJump(t *testing.T) {
	// A period's threshold holds the rate tolerance times the period: 10 µs
	// at the defaults, so a jump of 10 µs takes a tighter tolerance.
	for _, tc := range []struct {
		jump time.Duration
		tol  float64
	}{{time.Millisecond, 0}, {-time.Millisecond, 0}, {10 * time.Microsecond, 1}, {-1600 * time.Millisecond, 0}} {
		jump := tc.jump
		t.Run(jump.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const at = 3500 * time.Millisecond
				f := newHost(0, simChange{at: at, jump: jump})
				w, events := watchFor(t, f, WatchOptions{RateTolerancePPM: tc.tol}, 20*time.Second)
				e := detected(t, f, events, EventJump, Untrusted, at, time.Second)
				tolNs := cmp.Or(tc.tol, defaultRateTolerancePPM) * 1e3 // ppm of a 1 s period, in ns
				if math.Abs(e.Value-float64(jump)) > e.Threshold || e.Threshold > tolNs+3000 {
					t.Errorf("jump %v ns, threshold %v ns; want %v", e.Value, e.Threshold, jump)
				}
				// The refined rate takes the jump out.
				if r := w.estimate(); math.Abs(r.hz-f.hz)/f.hz*1e6 > 0.05 {
					t.Errorf("refined %+v; want %v Hz", r, f.hz)
				}
			})
		})
	}
}

// TestWatchMigration is a change of rate and offset at once: both are seen.
func TestWatchMigration(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const jump = 50 * time.Millisecond
		f := newHost(0, simChange{at: 3500 * time.Millisecond, ppm: 200, jump: jump})
		_, events := watchFor(t, f, WatchOptions{}, 10*time.Second)
		if len(events) != 2 || events[0].Kind != EventJump || events[1].Kind != EventRate {
			t.Fatalf("events %v; want a jump and a rate", events)
		}
		if math.Abs(events[0].Value-float64(jump)) > 200e-6*1e9 || math.Abs(events[1].Value-200) > events[1].Threshold {
			t.Errorf("events %v; want a 50 ms jump and 200 ppm", events)
		}
	})
}

// TestWatchStateOnlyWorsens: an untrusted jump, then a degraded change of
// rate: both are raised, and the state stays untrusted, as WatchState
// promises (a Watch does not forgive).
func TestWatchStateOnlyWorsens(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(0, simChange{at: 3500 * time.Millisecond, jump: time.Millisecond}, simChange{at: 8500 * time.Millisecond, ppm: 200})
		w, events := watchFor(t, f, WatchOptions{}, 15*time.Second)
		if len(events) != 2 || events[0].Severity != Untrusted || events[1].Kind != EventRate || events[1].Severity != Degraded {
			t.Fatalf("events %v; want an untrusted jump, then a degraded rate", events)
		}
		if w.State() != Untrusted {
			t.Errorf("state %v after a degraded event; want it still untrusted", w.State())
		}
	})
}

// TestWatchCheckTakesEightBrackets: a check reads the counter twice for
// each of its 8 brackets, and no more, as Watch's doc says.
func TestWatchCheckTakesEightBrackets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(2_096_000_000)
		f.epoch, f.sourceFrom = time.Now(), "tsc"
		rate, _ := NewTickRate(uint64(f.hz))
		w, err := newWatch(rate, WatchOptions{}, f.deps())
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			before := f.reads
			w.check()
			if got := f.reads - before; got != 2*8 {
				t.Fatalf("a check read the counter %d times; want 16, two for each of 8 brackets", got)
			}
		}
	})
}

// TestWatchEventAtIsTheChecks gives the migration's two events, found by one
// check, to an OnEvent that takes a while over each: both carry the time
// that check began, not the time each was handed over.
func TestWatchEventAtIsTheChecks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(2_096_000_000, simChange{at: 3500 * time.Millisecond, ppm: 200, jump: 50 * time.Millisecond})
		f.epoch, f.sourceFrom = time.Now(), "tsc"
		var got []Event
		slow := func(e Event) {
			got = append(got, e)
			time.Sleep(testPeriod / 4)
		}
		rate, _ := NewTickRate(uint64(f.hz))
		w, err := newWatch(rate, WatchOptions{OnEvent: slow}, f.deps())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		if err := w.Run(ctx, testPeriod); err != context.DeadlineExceeded {
			t.Fatalf("Run returned %v; want context.DeadlineExceeded", err)
		}
		if len(got) != 2 || !got[0].At.Equal(got[1].At) {
			t.Fatalf("events %v; want two from one check, at one time", got)
		}
	})
}

// TestWatchBlockedOnEventHoldsRun: an OnEvent that blocks holds Run,
// which returns only after it does, even with ctx cancelled meanwhile.
func TestWatchBlockedOnEventHoldsRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(2_096_000_000, simChange{at: 3500 * time.Millisecond, jump: 50 * time.Millisecond})
		f.epoch, f.sourceFrom = time.Now(), "tsc"
		entered, release := make(chan struct{}), make(chan struct{})
		block := func(Event) {
			select {
			case entered <- struct{}{}:
			default:
			}
			<-release
		}
		rate, _ := NewTickRate(uint64(f.hz))
		w, err := newWatch(rate, WatchOptions{OnEvent: block}, f.deps())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- w.Run(ctx, testPeriod) }()
		<-entered
		cancel()
		synctest.Wait()
		select {
		case err := <-done:
			t.Fatalf("Run returned %v while OnEvent was blocked", err)
		default:
		}
		close(release)
		if err := <-done; err != context.Canceled {
			t.Fatalf("Run returned %v; want context.Canceled once OnEvent returned", err)
		}
	})
}

// TestWatchRateInUseOff: the rate in use is 1.2 ppm off the raw clock's,
// too little for one period to see: the rate since the start shows it.
func TestWatchRateInUseOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(2_096_000_000, simChange{at: time.Nanosecond, ppm: 1.2})
		w, events := watchFor(t, f, WatchOptions{RateTolerancePPM: 1}, 30*time.Second)
		if len(events) != 1 || events[0].Kind != EventRateSinceStart || events[0].Severity != Degraded {
			t.Fatalf("events %v; want one rate-since-start", events)
		}
		if e := events[0]; math.Abs(e.Value-1.2) > 0.1 || e.Threshold < 1 || e.Threshold > e.Value {
			t.Errorf("event %v; want 1.2 ppm against a threshold between 1 and it", e)
		}
		if w.State() != Degraded {
			t.Errorf("state %v", w.State())
		}
	})
}

func TestWatchClocksource(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		err      error
		sev      WatchState
	}{
		{"tsc", "hpet", nil, Untrusted},
		{"arch_sys_counter", "jiffies", nil, Untrusted},
		{"kvm-clock", "hpet", nil, Degraded},
		{"hpet", "tsc", nil, Degraded},
		{"tsc", "", errors.New("input/output error"), Degraded},
	} {
		t.Run(tc.from+"→"+tc.to, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newHost(0)
				f.sourceAt, f.sourceFrom, f.sourceTo, f.sourceErr = 3500*time.Millisecond, tc.from, tc.to, tc.err
				w, events := watchFor(t, f, WatchOptions{}, 10*time.Second)
				e := detected(t, f, events, EventClocksource, tc.sev, f.sourceAt, time.Second)
				if e.From != tc.from || e.To != tc.to || e.Err != tc.err {
					t.Errorf("event %+v; want %q → %q (%v)", e, tc.from, tc.to, tc.err)
				}
				if w.State() != tc.sev {
					t.Errorf("state %v; want %v", w.State(), tc.sev)
				}
			})
		})
	}
	t.Run("no file", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			f := newHost(0)
			f.noSource = true
			if _, events := watchFor(t, f, WatchOptions{}, 5*time.Second); len(events) != 0 {
				t.Errorf("events %v; want none", events)
			}
		})
	})
	t.Run("unreadable from the start", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			f := newHost(0)
			f.badSource = true
			if _, events := watchFor(t, f, WatchOptions{}, 5*time.Second); len(events) != 0 || f.closed != 1 {
				t.Errorf("events %v, closed %d times; want none, and the file closed", events, f.closed)
			}
		})
	})
}

func TestWatchCPUOffsets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(0)
		f.cpuAt = 25 * time.Second
		w, events := watchFor(t, f, WatchOptions{CPUPeriod: 10 * time.Second}, 60*time.Second)
		e := detected(t, f, events, EventCPUOffsets, Untrusted, f.cpuAt, 10*time.Second)
		if !errors.Is(e.Err, ErrCPUsDisagree) || e.Value != float64(-1600*time.Millisecond) || e.Threshold != 2000 {
			t.Errorf("event %+v", e)
		}
		if w.State() != Untrusted {
			t.Errorf("state %v", w.State())
		}
	})
}

// TestWatchCPUCheckDisabled: a per-CPU check whose thread may not read the
// counter (ErrDisabled) read nothing, and raises nothing.
func TestWatchCPUCheckDisabled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(0)
		f.cpuAt, f.cpuErr = 5*time.Second, ErrDisabled
		w, events := watchFor(t, f, WatchOptions{CPUPeriod: 10 * time.Second}, 60*time.Second)
		if len(events) != 0 || w.State() != Trusted {
			t.Errorf("events %v, state %v; want none, Trusted", events, w.State())
		}
	})
}

// TestWatchOnEvent checks that the callback sees each event after the
// state took it in, on Run's goroutine, and that a slow callback delays the
// next check, the ticks meanwhile dropped.
func TestWatchOnEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(2e9, simChange{at: 3500 * time.Millisecond, jump: time.Millisecond})
		f.sourceAt, f.sourceFrom, f.sourceTo = 1500*time.Millisecond, "kvm-clock", "hpet"
		f.epoch = time.Now()
		var seen []string
		var w *Watch
		rate, _ := NewTickRate(2e9)
		w, err := newWatch(rate, WatchOptions{OnEvent: func(e Event) {
			seen = append(seen, e.Kind.String()+" "+w.State().String())
			if e.Kind == EventJump {
				time.Sleep(3200 * time.Millisecond) // a slow callback: three ticks go by
			}
		}}, f.deps())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second+testPeriod/2)
		defer cancel()
		if err := w.Run(ctx, testPeriod); err != context.DeadlineExceeded {
			t.Fatalf("Run returned %v; want context.DeadlineExceeded", err)
		}
		if want := "clocksource degraded,jump untrusted"; strings.Join(seen, ",") != want {
			t.Errorf("OnEvent saw %v; want %s", seen, want)
		}
		// Checks at 0 to 5 s; the callback holds the check of 5 s until
		// 8.2 s, the ticker keeps one tick of those it dropped, and the
		// checks go on at 8.2, 9 and 10 s: 9 checks and not 11.
		if got := w.estimate().points; got != 9 {
			t.Errorf("the fit has %d checks; want 9, the ticks the callback held dropped", got)
		}
	})
}

func TestWatchRunTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(2e9)
		f.epoch = time.Now()
		rate, _ := NewTickRate(2e9)
		w, err := newWatch(rate, WatchOptions{}, f.deps())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { done <- w.Run(ctx, testPeriod) }()
		synctest.Wait()
		if err := w.Run(ctx, testPeriod); err == nil || err.Error() != "counter: the watch is already running" {
			t.Errorf("a second Run: %v", err)
		}
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("Run returned %v on cancel; want context.Canceled", err)
		}
		// Run again after it returned, at another period: allowed, and
		// carries on from the checks made.
		ctx, cancel = context.WithTimeout(t.Context(), 3*time.Second+time.Millisecond)
		defer cancel()
		if err := w.Run(ctx, time.Second/2); err != context.DeadlineExceeded {
			t.Errorf("Run after Run returned: %v; want context.DeadlineExceeded", err)
		}
		if got := w.estimate().points; got != 1+7 {
			t.Errorf("the fit has %d checks; want 1 from the first run and 7 from the second", got)
		}
	})
}

// TestNewWatchRefusesMonotonic checks that a watch of a Monotonic Counter
// is refused rather than made: its checks would read the hardware counter,
// which that Counter does not read.
func TestNewWatchRefusesMonotonic(t *testing.T) {
	w, err := NewWatch(Monotonic(), WatchOptions{})
	if want := "counter: a Monotonic Counter reads the kernel's own clock"; err == nil || w != nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("NewWatch(Monotonic()) = %v, %v; want the error %q…", w, err, want)
	}
}

func TestNewWatchRefuses(t *testing.T) {
	deps := newHost(0).deps()
	rate, _ := NewTickRate(2e9)
	for _, tc := range []struct {
		name string
		rate TickRate
		opts WatchOptions
		raw  bool
		want string
	}{
		{"zero rate", TickRate{}, WatchOptions{}, true, "counter: the watch needs a Counter with a rate: the zero Counter has none"},
		{"no raw clock", rate, WatchOptions{}, false, "has no raw monotonic clock to watch the counter against"},
		{"negative per-CPU period", rate, WatchOptions{CPUPeriod: -1}, true, "counter: a per-CPU period of -1ns is negative"},
		{"negative tolerance", rate, WatchOptions{RateTolerancePPM: -1}, true, "counter: a rate tolerance of -1 ppm is not a finite number of ppm from 0 up"},
		{"NaN tolerance", rate, WatchOptions{RateTolerancePPM: math.NaN()}, true, "counter: a rate tolerance of NaN ppm is not a finite number of ppm from 0 up"},
		{"infinite tolerance", rate, WatchOptions{RateTolerancePPM: math.Inf(1)}, true, "counter: a rate tolerance of +Inf ppm is not a finite number of ppm from 0 up"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			deps.haveRaw = tc.raw
			w, err := newWatch(tc.rate, tc.opts, deps)
			if err == nil || !strings.Contains(err.Error(), tc.want) || w != nil {
				t.Fatalf("= %v, %v; want the error %q", w, err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "counter: ") {
				t.Errorf("message %q", err)
			}
			if !tc.raw && !errors.Is(err, errors.ErrUnsupported) {
				t.Errorf("%v does not wrap errors.ErrUnsupported", err)
			}
		})
	}
	if _, err := NewWatch(Counter{}, WatchOptions{}); err == nil {
		t.Errorf("NewWatch of the zero Counter: no error")
	}
}

// TestWatchRunRefuses checks that Run refuses at once, checking nothing, a
// period under the minimum, a per-CPU period under the period, and a
// context already done.
func TestWatchRunRefuses(t *testing.T) {
	done, cancel := context.WithCancel(t.Context())
	cancel()
	for _, tc := range []struct {
		name   string
		opts   WatchOptions
		ctx    context.Context
		period time.Duration
		want   string
	}{
		{"negative period", WatchOptions{}, t.Context(), -time.Second, "counter: a watch cannot check every -1s: the period must be at least 10ms"},
		{"zero period", WatchOptions{}, t.Context(), 0, "counter: a watch cannot check every 0s: the period must be at least 10ms"},
		{"short period", WatchOptions{}, t.Context(), minWatchPeriod - 1, "counter: a watch cannot check every 9.999999ms: the period must be at least 10ms"},
		{"per-CPU period under the period", WatchOptions{CPUPeriod: time.Second}, t.Context(), time.Minute, "counter: a per-CPU period of 1s is shorter than the watch's period of 1m0s"},
		{"done", WatchOptions{}, done, time.Second, context.Canceled.Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newHost(2e9)
			opened := false
			deps := f.deps()
			deps.clocksrc = func() (clocksourceFile, error) {
				opened = true
				return nil, errors.ErrUnsupported
			}
			rate, _ := NewTickRate(2e9)
			w, err := newWatch(rate, tc.opts, deps)
			if err != nil {
				t.Fatal(err)
			}
			err = w.Run(tc.ctx, tc.period)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("Run = %v; want the error %q", err, tc.want)
			}
			if p := w.estimate().points; p != 0 || opened {
				t.Errorf("a refused Run made %d checks, opened the clocksource file: %v; want none", p, opened)
			}
		})
	}
	// The least period is taken.
	synctest.Test(t, func(t *testing.T) {
		f := newHost(2e9)
		f.epoch = time.Now()
		rate, _ := NewTickRate(2e9)
		w, _ := newWatch(rate, WatchOptions{}, f.deps())
		ctx, cancel := context.WithTimeout(t.Context(), 5*minWatchPeriod+minWatchPeriod/2)
		defer cancel()
		if err := w.Run(ctx, minWatchPeriod); err != context.DeadlineExceeded {
			t.Errorf("Run at the least period: %v", err)
		}
		if p := w.estimate().points; p != 6 {
			t.Errorf("%d checks; want 6", p)
		}
	})
}

// TestWatchRefined checks Refined's edges: nothing before two checks, a
// rate without an uncertainty from two, the fit's rate rounded to the
// hertz and its standard error from three.
func TestWatchRefined(t *testing.T) {
	rate, _ := NewTickRate(2e9)
	w, err := newWatch(rate, WatchOptions{}, newHost(0).deps())
	if err != nil {
		t.Fatal(err)
	}
	if r, u := w.Refined(); r != (TickRate{}) || u != 0 {
		t.Errorf("Refined of a new watch = %v, %v; want the zero TickRate and 0", r, u)
	}
	d := &w.det
	d.fit.add(100, 50)
	if r, u := w.Refined(); r != (TickRate{}) || u != 0 {
		t.Errorf("Refined of one check = %v, %v; want the zero TickRate and 0", r, u)
	}
	d.fit.add(1_000_000_100, 2_000_000_123.6+50) // 2000000123.6 Hz
	if r, u := w.Refined(); r.Hertz() != 2_000_000_124 || !math.IsInf(u, 1) {
		t.Errorf("Refined of two checks = %v, %v; want 2000000124 Hz and +Inf", r, u)
	}
	d.fit.add(2_000_000_100, 4_000_000_247.2+50+10)
	want := d.fit.estimate()
	if r, u := w.Refined(); r.Hertz() != uint64(math.Round(want.hz)) || u != want.uncertaintyPPM || u <= 0 || math.IsInf(u, 0) {
		t.Errorf("Refined of three checks = %v, %v; want %v Hz rounded and %v ppm", r, u, want.hz, want.uncertaintyPPM)
	}
	// A fit whose rate no TickRate can hold gives nothing.
	d.fit.reset(2)
	d.fit.add(0, 0)
	d.fit.add(1_000_000_000, 0.25)
	if r, u := w.Refined(); r != (TickRate{}) || u != 0 {
		t.Errorf("Refined of a rate under a hertz = %v, %v; want the zero TickRate and 0", r, u)
	}
	d.fit.reset(2)
	d.fit.add(0, 0)
	d.fit.add(1_000_000_000, -2e9)
	if r, u := w.Refined(); r != (TickRate{}) || u != 0 {
		t.Errorf("Refined of a counter that ran backwards = %v, %v; want the zero TickRate and 0", r, u)
	}
}

func TestWatchNames(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Trusted.String(), "trusted"}, {Degraded.String(), "degraded"}, {Untrusted.String(), "untrusted"},
		{WatchState(7).String(), "state(7)"},
		{EventRate.String(), "rate"}, {EventRateSinceStart.String(), "rate-since-start"}, {EventJump.String(), "jump"},
		{EventClocksource.String(), "clocksource"}, {EventCPUOffsets.String(), "cpu-offsets"}, {EventKind(0).String(), "event(0)"},
		{Event{Kind: EventRate, Severity: Degraded, Value: 100, Threshold: 2.5}.String(), "rate (degraded): 100.000 ppm, threshold ±2.500 ppm"},
		{Event{Kind: EventJump, Severity: Untrusted, Value: -1e6, Threshold: 1500}.String(), "jump (untrusted): -1000000.000 ns, threshold ±1500.000 ns"},
		{Event{Kind: EventClocksource, Severity: Untrusted, From: "tsc", To: "hpet"}.String(), `clocksource (untrusted): "tsc" → "hpet"`},
		{Event{Kind: EventClocksource, Severity: Degraded, From: "tsc", Err: errors.New("EIO")}.String(), `clocksource (degraded): "tsc" → "": EIO`},
		{Event{Kind: EventRateSinceStart, Severity: Degraded, Value: 1.5, Threshold: 1}.String(), "rate-since-start (degraded): 1.500 ppm, threshold ±1.000 ppm"},
		{Event{Kind: EventCPUOffsets, Severity: Untrusted, Value: 2500, Threshold: 900, Err: errors.New("CPUs disagree")}.String(),
			"cpu-offsets (untrusted): 2500.000 ns, threshold ±900.000 ns: CPUs disagree"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q; want %q", tc.got, tc.want)
		}
	}
}

// TestWatchSteadyErrorNearToleranceIsNoJump runs a counter whose rate is
// 10.3 ppm off the rate in use, just past the default tolerance, so that
// periods fall just past their N and just within it by turns: that is a
// rate error, reported as such at most, never a jump.
func TestWatchSteadyErrorNearToleranceIsNoJump(t *testing.T) {
	for _, ppm := range []float64{10.1, 10.3, 10.5, -10.3} {
		t.Run(fmt.Sprint(ppm), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newHost(0, simChange{at: time.Nanosecond, ppm: ppm})
				w, events := watchFor(t, f, WatchOptions{}, 60*time.Second)
				for _, e := range events {
					if e.Kind == EventJump {
						t.Errorf("a steady %v ppm raised %v", ppm, e)
					}
				}
				if w.State() == Untrusted {
					t.Errorf("state %v after %v; want no worse than degraded", w.State(), events)
				}
			})
		})
	}
}

// TestWatchSecondRateChange changes the rate by 100 ppm, then by 4900 ppm
// more: each change is an event, the second one untrusted.
func TestWatchSecondRateChange(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(0, simChange{at: 3500 * time.Millisecond, ppm: 100}, simChange{at: 10500 * time.Millisecond, ppm: 4900})
		w, events := watchFor(t, f, WatchOptions{}, 20*time.Second)
		if len(events) != 2 || events[0].Kind != EventRate || events[1].Kind != EventRate ||
			events[0].Severity != Degraded || events[1].Severity != Untrusted {
			t.Fatalf("events %v; want a degraded rate event, then an untrusted one", events)
		}
		if math.Abs(events[1].Value-5000) > events[1].Threshold || w.State() != Untrusted {
			t.Errorf("second event %v, state %v; want about 5000 ppm and untrusted", events[1], w.State())
		}
	})
}

// TestWatchRateChangeLateInPeriod changes the rate 0.95 of the way into a
// period: that period is within its N, so the change is reported at the end
// of the second whole period after it, as EventRate's doc says.
func TestWatchRateChangeLateInPeriod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const at = 3950 * time.Millisecond
		f := newHost(0, simChange{at: at, ppm: 100})
		_, events := watchFor(t, f, WatchOptions{}, 20*time.Second)
		if len(events) != 1 || events[0].Kind != EventRate {
			t.Fatalf("events %v; want one rate event", events)
		}
		if after := events[0].At.Sub(f.epoch) - at; after < 0 || after > 2*time.Second+50*time.Millisecond {
			t.Errorf("raised %v after the change; want within two periods and the rest of the one it came in", after)
		}
	})
}

// TestWatchClocksourceChangedWhileStopped runs a watch, stops it, lets the
// clocksource change, and runs it again: the change is reported.
func TestWatchClocksourceChangedWhileStopped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(2_096_000_000)
		f.sourceFrom, f.sourceTo, f.sourceAt = "tsc", "hpet", 4*time.Second
		f.epoch = time.Now()
		rate, _ := NewTickRate(uint64(f.hz))
		var got []Event
		w, err := newWatch(rate, WatchOptions{OnEvent: func(e Event) { got = append(got, e) }}, f.deps())
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []time.Duration{3 * time.Second, 2 * time.Second} {
			ctx, cancel := context.WithTimeout(t.Context(), d)
			if err := w.Run(ctx, testPeriod); err != context.DeadlineExceeded {
				t.Fatal(err)
			}
			cancel()
			time.Sleep(2 * time.Second) // stopped meanwhile
		}
		if len(got) != 1 || got[0].Kind != EventClocksource || got[0].From != "tsc" || got[0].To != "hpet" || w.State() != Untrusted {
			t.Errorf("events %v, state %v; want tsc → hpet, untrusted", got, w.State())
		}
	})
}

// TestWatchReadersWhileRunning reads State and Refined from other
// goroutines while the watch runs through a change of rate and a jump: run
// with -race (CI does), it fails on a data race; and a reader never sees the
// state improve, nor the refined rate gone once it had one, not even across
// the refit that follows a change of rate.
func TestWatchReadersWhileRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newHost(2_096_000_000, simChange{at: 3500 * time.Millisecond, ppm: 200}, simChange{at: 7500 * time.Millisecond, jump: time.Millisecond})
		f.epoch = time.Now()
		rate, _ := NewTickRate(uint64(f.hz))
		var events []Event
		w, err := newWatch(rate, WatchOptions{OnEvent: func(e Event) { events = append(events, e) }}, f.deps())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 12*time.Second)
		defer cancel()
		var readers sync.WaitGroup
		for range 3 {
			readers.Go(func() {
				worst, hadFit := Trusted, false
				for ctx.Err() == nil {
					s := w.State()
					if s < worst {
						t.Errorf("state went from %v back to %v", worst, s)
					}
					worst = max(worst, s)
					r, _ := w.Refined()
					if hadFit && r.Hertz() == 0 {
						t.Errorf("the refined rate was gone after the fit had two checks")
					}
					hadFit = hadFit || r.Hertz() != 0
					time.Sleep(10 * time.Millisecond)
				}
			})
		}
		if err := w.Run(ctx, testPeriod); err != context.DeadlineExceeded {
			t.Fatal(err)
		}
		readers.Wait()
		if w.State() != Untrusted || len(events) < 2 || events[0].Kind != EventRate {
			t.Errorf("state %v, events %v; want untrusted after a rate event and a jump", w.State(), events)
		}
	})
}

// TestWatchCoversDiscoverysSpread checks that a watch given the Discovery
// that measured its rate tolerates five of that measurement's spreads; that
// the tolerance of a watch given none, or a Discovery whose rate was
// reported, or one given explicitly and larger, stands; and that a
// Discovery of another rate is refused.
func TestWatchCoversDiscoverysSpread(t *testing.T) {
	rate, _ := NewTickRate(2e9)
	measured := func(spread float64) *Discovery {
		return &Discovery{Rate: rate, Source: SourceMeasured, SpreadPPM: spread}
	}
	for _, tc := range []struct {
		d    *Discovery
		opt  float64
		want float64 // ppm
	}{
		{nil, 0, 2}, // the default
		{nil, 3, 3},
		{measured(0), 0, 2},
		{measured(0.2), 0, 2},
		{measured(1), 0, 5},
		{measured(1), 2, 5},
		{measured(4), 0, 20},
		{measured(4), 30, 30},
		{measured(math.Inf(1)), 0, 100}, // the cap
		{measured(30), 0, 100},
		{&Discovery{Rate: rate, Source: SourceCrystal, SpreadPPM: 4}, 0, 2}, // a reported rate's check
	} {
		w, err := NewWatch(New(rate), WatchOptions{RateTolerancePPM: tc.opt, Discovery: tc.d})
		if errors.Is(err, errors.ErrUnsupported) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := w.det.tol * 1e6; math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("Discovery %+v, RateTolerancePPM %v: tolerance %v ppm; want %v", tc.d, tc.opt, got, tc.want)
		}
	}
	if _, err := NewWatch(New(rate), WatchOptions{RateTolerancePPM: -1}); err == nil {
		t.Error("a negative tolerance was accepted")
	}
	other, _ := NewTickRate(3e9)
	_, err := NewWatch(New(other), WatchOptions{Discovery: measured(1)})
	if want := "counter: the watch's Discovery found a rate of 2 GHz, not the Counter's 3 GHz"; err == nil || err.Error() != want {
		t.Errorf("a Discovery of another rate: %v; want %q", err, want)
	}
}
