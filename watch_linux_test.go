package counter

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

// realWatch returns a watch of this machine's counter at a measured rate,
// its clocksource file open, and one check made.
func realWatch(t testing.TB, opts WatchOptions) *Watch {
	if backend == "nanotime" {
		t.Skip("no hardware counter")
	}
	rate, err := Measure()
	if err != nil {
		t.Skip(err)
	}
	w, err := NewWatch(New(rate), opts)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestClocksourceFile(t *testing.T) {
	read, closeFile, err := openClocksource()
	if err != nil {
		t.Skipf("no clocksource file: %v", err)
	}
	defer closeFile()
	var b [64]byte
	for range 3 { // each read starts again at the start
		n, err := read(b[:])
		if err != nil || n == 0 || b[n-1] != '\n' {
			t.Fatalf("read %q, %v", b[:n], err)
		}
		t.Logf("clocksource %q", strings.TrimSpace(string(b[:n])))
	}
	if err := closeFile(); err != nil {
		t.Fatal(err)
	}
}

// TestWatchCheckAllocates nothing: a check on the real clocks and file.
func TestWatchCheckAllocatesNothing(t *testing.T) {
	w := realWatch(t, WatchOptions{})
	w.openSource()
	defer w.closeSource()
	w.step = float64(w.deps.clocks.step()) / w.perNs
	if allocs := testing.AllocsPerRun(100, w.check); allocs != 0 {
		t.Errorf("a check allocates %v times; want 0", allocs)
	}
}

func BenchmarkWatchCheck(b *testing.B) {
	w := realWatch(b, WatchOptions{})
	w.openSource()
	defer w.closeSource()
	w.step = float64(w.deps.clocks.step()) / w.perNs
	b.ReportAllocs()
	for b.Loop() {
		w.check()
	}
}

// TestWatchSoak runs the watch on this machine for COUNTER_WATCH_SOAK (say
// 30s), at its default period: it must raise no event. Keep the other
// cores busy meanwhile to see that the thresholds hold under load. It also
// judges the refined rate after 10 s against an independent reference: the
// tightest of 2000 brackets at the start and at the end, the rate between
// them good to the two half-widths over the whole time.
//
//	COUNTER_WATCH_SOAK=30s go test -run TestWatchSoak -v .
func TestWatchSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("COUNTER_WATCH_SOAK"))
	if err != nil {
		t.Skip("set COUNTER_WATCH_SOAK=30s to run the watch on this machine for 30 s")
	}
	// The rate a service gets: Discover's, measured over 10 ms on this
	// (perhaps loaded) machine, watched at the default tolerance.
	c, err := Discover()
	if err != nil {
		t.Skipf("Discover refused: %v", err)
	}
	var events []Event
	w, err := NewWatch(c, WatchOptions{OnEvent: func(e Event) { events = append(events, e); t.Logf("event %v", e) }})
	if err != nil {
		t.Fatal(err)
	}
	ref0 := tightestOf(30)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var at10 Refined
	var at10Ref bracket
	took10 := make(chan struct{})
	go func() {
		defer close(took10)
		time.Sleep(min(d, 10*time.Second+50*time.Millisecond))
		at10 = w.Refined()
		at10Ref = tightestOf(30)
	}()
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	<-took10
	ref1 := tightestOf(30)
	perNs := float64(w.Rate().Hertz()) / 1e9
	report := func(when string, r Refined, end bracket) {
		T := float64(end.raw - ref0.raw)
		refHz := float64(end.mid.Sub(ref0.mid)) / T * 1e9
		refErr := float64(end.width+ref0.width) / 2 / perNs / T * 1e6
		t.Logf("%s: refined %.3f Hz ± %.4f ppm over %d checks (%v); reference %.3f Hz ± %.4f ppm over %.1f s; refined − reference %+.4f ppm; rate in use %v (%+.4f ppm from the reference)",
			when, r.Hz, r.UncertaintyPPM, r.Checks, r.Span, refHz, refErr, T/1e9, (r.Hz-refHz)/refHz*1e6, w.Rate(), (float64(w.Rate().Hertz())-refHz)/refHz*1e6)
	}
	if at10.Checks > 0 {
		report("after 10 s", at10, at10Ref)
	}
	report("at the end", w.Refined(), ref1)
	t.Logf("period deviations D/T from %+.3f to %+.3f ppm; the brackets' share of N/T at least %.3f ppm, tol %.1f ppm", w.devLo, w.devHi, w.nLo, w.tol*1e6)
	if len(events) != 0 || w.State() != Trusted {
		t.Errorf("%d events, state %v; want none on a healthy machine", len(events), w.State())
	}
	if r := w.Refined(); math.IsInf(r.UncertaintyPPM, 0) {
		t.Errorf("no refined rate after %v", d)
	}
}

// tightestOf returns the tightest of n sets of brackets.
func tightestOf(n int) bracket {
	best, _, _, _ := machineClocks.tightest(maxBrackets)
	for range n - 1 {
		if b, _, _, _ := machineClocks.tightest(maxBrackets); b.width >= 0 && b.width < best.width {
			best = b
		}
	}
	return best
}
