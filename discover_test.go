package counter

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeMeasure returns a measurement function that measures hz (or fails
// with err) and records the windows it was asked for.
func fakeMeasure(hz uint64, err error, windows *[]time.Duration) func(time.Duration) (measurement, error) {
	return func(w time.Duration) (measurement, error) {
		*windows = append(*windows, w)
		return measurement{Hz: hz, Window: w, Ticks: Tickdelta(float64(hz) * w.Seconds())}, err
	}
}

func TestSettle(t *testing.T) {
	failed := errors.New("measurement failed")
	tests := []struct {
		name     string
		reported uint64
		src      RateSource
		measured uint64
		measErr  error
		noClock  bool

		wantHz      uint64
		wantSrc     RateSource
		wantWindows []time.Duration
		wantErr     string
	}{
		{name: "reported, and the check agrees", reported: 2_419_200_000, src: SourceCrystal, measured: 2_419_180_000,
			wantHz: 2_419_200_000, wantSrc: SourceCrystal, wantWindows: []time.Duration{crossCheckWindow}},
		{name: "reported, just within 1%", reported: 1e9, src: SourceHypervisor, measured: 1_009_999_999,
			wantHz: 1e9, wantSrc: SourceHypervisor, wantWindows: []time.Duration{crossCheckWindow}},
		{name: "reported, just within -1%", reported: 1e9, src: SourceHypervisor, measured: 990_000_001,
			wantHz: 1e9, wantSrc: SourceHypervisor, wantWindows: []time.Duration{crossCheckWindow}},
		{name: "reported, just past 1%", reported: 1e9, src: SourceHypervisor, measured: 1_010_000_001,
			wantHz: 1_010_000_001, wantSrc: SourceMeasured, wantWindows: []time.Duration{crossCheckWindow, measureWindow}},
		{name: "reported, just past -1%", reported: 1e9, src: SourceHypervisor, measured: 989_999_999,
			wantHz: 989_999_999, wantSrc: SourceMeasured, wantWindows: []time.Duration{crossCheckWindow, measureWindow}},
		// An emulator that passes on the host's CPUID, its counter 875 times slower.
		{name: "reported, and the check disagrees", reported: 3_000_000_000, src: SourceCrystal, measured: 3_428_571,
			wantHz: 3_428_571, wantSrc: SourceMeasured, wantWindows: []time.Duration{crossCheckWindow, measureWindow}},
		{name: "reported, no raw clock to check it", reported: 24_000_000, src: SourceFrequencyReg, noClock: true,
			wantHz: 24_000_000, wantSrc: SourceFrequencyReg},
		{name: "nothing reported: measured", measured: 2_445_434_000,
			wantHz: 2_445_434_000, wantSrc: SourceMeasured, wantWindows: []time.Duration{measureWindow}},
		{name: "nothing reported, no raw clock", noClock: true,
			wantErr: "counter: CPUID reports no rate and there is no raw clock here to measure one against"},
		{name: "the check fails", reported: 1e9, src: SourceCrystal, measErr: failed,
			wantErr: "measurement failed", wantWindows: []time.Duration{crossCheckWindow}},
		{name: "the measurement fails", measErr: failed,
			wantErr: "measurement failed", wantWindows: []time.Duration{measureWindow}},
		{name: "reported rate too slow", reported: 42, src: SourceFrequencyReg, noClock: true,
			wantErr: "counter: a rate of 42 Hz (cntfrq) is outside 1 MHz to 10 GHz"},
		{name: "measured rate too fast", measured: 10_000_000_001,
			wantErr: "counter: a rate of 10000000001 Hz (measured) is outside 1 MHz to 10 GHz", wantWindows: []time.Duration{measureWindow}},
		{name: "lowest rate", reported: 1_000_000, src: SourceCrystal, noClock: true, wantHz: 1_000_000, wantSrc: SourceCrystal},
		{name: "highest rate", reported: 10_000_000_000, src: SourceCrystal, noClock: true, wantHz: 10_000_000_000, wantSrc: SourceCrystal},
		{name: "just below the lowest", reported: 999_999, src: SourceCrystal, noClock: true,
			wantErr: "counter: a rate of 999999 Hz (cpuid-0x15) is outside 1 MHz to 10 GHz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var windows []time.Duration
			measure := fakeMeasure(tt.measured, tt.measErr, &windows)
			if tt.noClock {
				measure = nil
			}
			d, err := findRate(tt.reported, tt.src, measure)
			if !equalDurations(windows, tt.wantWindows) {
				t.Errorf("measured over %v; want %v", windows, tt.wantWindows)
			}
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("findRate error %v; want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Rate.Hertz() != tt.wantHz || d.Source != tt.wantSrc || d.Reported != tt.reported {
				t.Fatalf("findRate = %v from %v (reported %d); want %d Hz from %v", d.Rate, d.Source, d.Reported, tt.wantHz, tt.wantSrc)
			}
			// The last measurement made: the full one where the rate was
			// measured, else the check; none without a raw clock.
			var wantWindow time.Duration
			if n := len(tt.wantWindows); n > 0 {
				wantWindow = tt.wantWindows[n-1]
			}
			if d.Window != wantWindow {
				t.Errorf("Window = %v; want %v", d.Window, wantWindow)
			}
		})
	}
}

// TestDiscoverOverlapsTheTour checks the order discover keeps: the per-CPU
// tour starts after the platform's refusals and before the rate is checked
// or measured, so that its waits for each CPU overlap the measurement; its
// result is taken after, converted at the rate found; a refusal before it
// starts no tour, and a failed measurement does not wait for it.
func TestDiscoverOverlapsTheTour(t *testing.T) {
	var events []string
	check := &cpuCheckResult{Brackets: 32, CPUs: []CPUOffset{{CPU: 0}, {CPU: 1, Offset: time.Second, Bound: time.Microsecond}}, Unchecked: []int{2}}
	startCheck := func(fail error) func() cpuCheckRun {
		return func() cpuCheckRun {
			events = append(events, "tour starts")
			return loggedCheckRun{&events, check, fail}
		}
	}
	measure := func(err error) func(time.Duration) (measurement, error) {
		return func(w time.Duration) (measurement, error) {
			events = append(events, "measures "+w.String())
			return measurement{Hz: 2_600_000_000, Window: w, Ticks: 1}, err
		}
	}
	reported := func(hz uint64, err error) func() (uint64, RateSource, error) {
		return func() (uint64, RateSource, error) {
			events = append(events, "platform")
			return hz, SourceHypervisor, err
		}
	}
	disagree := cpusError(check)
	failed := errors.New("measurement failed")
	for _, tt := range []struct {
		name     string
		reported func() (uint64, RateSource, error)
		tourErr  error
		measure  func(time.Duration) (measurement, error)
		want     []string
		wantErr  error
	}{
		{"measured", reported(0, nil), nil, measure(nil),
			[]string{"platform", "tour starts", "measures 10ms", "tour waited for at 2.6 GHz"}, nil},
		{"reported and checked", reported(2_600_000_000, nil), nil, measure(nil),
			[]string{"platform", "tour starts", "measures 1ms", "tour waited for at 2.6 GHz"}, nil},
		{"refused by the platform", reported(0, ErrNotInvariant), nil, measure(nil),
			[]string{"platform"}, ErrNotInvariant},
		{"the measurement fails", reported(0, nil), nil, measure(failed),
			[]string{"platform", "tour starts", "measures 10ms"}, failed},
		{"the cores disagree", reported(0, nil), disagree, measure(nil),
			[]string{"platform", "tour starts", "measures 10ms", "tour waited for at 2.6 GHz"}, ErrCPUsDisagree},
	} {
		t.Run(tt.name, func(t *testing.T) {
			events = nil
			d, err := discoverWith(tt.reported, startCheck(tt.tourErr), tt.measure)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("discoverWith error %v; want %v", err, tt.wantErr)
			}
			if strings.Join(events, "; ") != strings.Join(tt.want, "; ") {
				t.Fatalf("events:\n  %s\nwant:\n  %s", strings.Join(events, "; "), strings.Join(tt.want, "; "))
			}
			if (err == nil) != (d.Rate != TickRate{}) {
				t.Errorf("Discovery.Rate %v with error %v; want a rate exactly where there is no error", d.Rate, err)
			}
			if (err == nil || errors.Is(err, ErrCPUsDisagree)) && (!slices.Equal(d.CPUs, check.CPUs) || !slices.Equal(d.Unchecked, check.Unchecked)) {
				t.Errorf("Discovery.CPUs, Unchecked = %v, %v; want the tour's %v, %v", d.CPUs, d.Unchecked, check.CPUs, check.Unchecked)
			}
		})
	}
}

// A loggedCheckRun is a per-CPU check under way that logs the wait for its
// result, and the rate it was asked to convert at, to events.
type loggedCheckRun struct {
	events *[]string
	check  *cpuCheckResult
	err    error
}

func (r loggedCheckRun) result(rate TickRate) (*cpuCheckResult, error) {
	*r.events = append(*r.events, "tour waited for at "+rate.String())
	return r.check, r.err
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDisagreementPPM(t *testing.T) {
	var windows []time.Duration
	d, err := findRate(3_000_000_000, SourceCrystal, fakeMeasure(3_428_571, nil, &windows))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.DisagreementPPM; math.Abs(got-(-998857.143)) > 0.01 {
		t.Errorf("DisagreementPPM = %v; want about -998857.143", got)
	}
	if d.Source != SourceMeasured || d.Window != measureWindow {
		t.Errorf("source %v, window %v; want the full measurement's", d.Source, d.Window)
	}
	d, err = findRate(3_000_000_000, SourceCrystal, fakeMeasure(3_000_300_000, nil, &windows))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.DisagreementPPM; math.Abs(got-100) > 0.001 {
		t.Errorf("DisagreementPPM = %v; want 100", got)
	}
	if d.Source != SourceCrystal || d.Window != crossCheckWindow {
		t.Errorf("source %v, window %v; want the reported rate's, and the check's window", d.Source, d.Window)
	}
	d, err = findRate(0, SourceNone, fakeMeasure(3_000_000_000, nil, &windows))
	if err != nil {
		t.Fatal(err)
	}
	if d.DisagreementPPM != 0 {
		t.Errorf("DisagreementPPM without a check = %v; want 0", d.DisagreementPPM)
	}
}

func TestRateOutOfRange(t *testing.T) {
	_, err := findRate(42, SourceCrystal, nil)
	if !errors.Is(err, ErrRateOutOfRange) {
		t.Fatalf("error %v does not wrap ErrRateOutOfRange", err)
	}
	if want := "counter: a rate of 42 Hz (cpuid-0x15) is outside 1 MHz to 10 GHz"; err.Error() != want {
		t.Fatalf("message %q; want %q, with the rate and its source", err.Error(), want)
	}
}

func TestMeasureRate(t *testing.T) {
	var windows []time.Duration
	if _, err := measureRateWith(nil); err != ErrNoRate {
		t.Errorf("measureRate without a raw clock: %v; want ErrNoRate", err)
	}
	if r, err := measureRateWith(fakeMeasure(24_000_000, nil, &windows)); err != nil || r.Hertz() != 24_000_000 {
		t.Errorf("measureRate = %v, %v; want 24 MHz", r, err)
	}
	if _, err := measureRateWith(fakeMeasure(42, nil, &windows)); err == nil || err.Error() != "counter: a rate of 42 Hz (measured) is outside 1 MHz to 10 GHz" {
		t.Errorf("measureRate of 42 Hz: %v; want the range refusal", err)
	}
	failed := errors.New("measurement failed")
	if _, err := measureRateWith(fakeMeasure(0, failed, &windows)); err != failed {
		t.Errorf("measureRate error %v; want %v", err, failed)
	}
}

func TestRefusalMessages(t *testing.T) {
	for err, want := range map[error]string{
		ErrNotInvariant:               "counter: CPUID does not promise an invariant time-stamp counter",
		ErrNoRate:                     "counter: CPUID reports no rate and there is no raw clock here to measure one against",
		ErrDisabled:                   "counter: RDTSC faults on this thread (prctl PR_TSC_SIGSEGV)",
		ErrMeasure:                    "counter: could not measure the rate",
		ErrCPUsDisagree:               "counter: the CPUs' counters disagree",
		rateError(42, SourceMeasured): "counter: a rate of 42 Hz (measured) is outside 1 MHz to 10 GHz",
	} {
		if err.Error() != want {
			t.Errorf("message %q; want %q", err.Error(), want)
		}
	}
}

// TestDiscoverHere discovers this machine's counter, which must either work
// or refuse with one of the documented errors; on the amd64 and arm64 Linux
// machines CI runs on, it must work.
func TestDiscoverHere(t *testing.T) {
	c, d, err := DiscoverDetails()
	t.Logf("Discover: %v from %v in %v, reported %d Hz; error %v", d.Rate, d.Source, d.Took, d.Reported, err)
	if d.Window != 0 {
		t.Logf("last measurement over %v, spread %.3f ppm; disagreement %.3f ppm", d.Window, d.SpreadPPM, d.DisagreementPPM)
	}
	if err != nil {
		if backend != "nanotime" {
			t.Fatalf("Discover refused on %s: %v", backend, err)
		}
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("Discover on the runtime's clock: %v; want an error wrapping errors.ErrUnsupported", err)
		}
		if c != (Counter{}) || d.Rate != (TickRate{}) {
			t.Fatalf("a refusal returned %+v and %v; want the zero Counter and rate", c, d.Rate)
		}
		return
	}
	if c.Rate() != d.Rate || d.Rate.Hertz() < minRate || d.Rate.Hertz() > maxRate {
		t.Fatalf("Discover = %v, details say %v; want one rate, within 1 MHz to 10 GHz", c.Rate(), d.Rate)
	}
	if d.Took <= 0 || d.Took > 5*time.Second {
		t.Errorf("discovery took %v", d.Took)
	}
	// The Counter holds its rate alone: the spread is the Discovery's.
	if c != New(d.Rate) {
		t.Errorf("Discover gave %+v; want New(%v), %+v", c, d.Rate, New(d.Rate))
	}
	// Two reads back to back, a millisecond apart at the most even on a
	// loaded machine: the rate is not wildly off.
	start := c.Now()
	time.Sleep(20 * time.Millisecond)
	if took := c.Now().Sub(start).Duration(c.Rate()); took < 19*time.Millisecond || took > 5*time.Second {
		t.Errorf("a 20ms sleep measured %v", took)
	}
}
