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
	rate, err := MeasureRate()
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
	f, err := openClocksource()
	if err != nil {
		t.Skipf("no clocksource file: %v", err)
	}
	defer f.close()
	var b [64]byte
	for range 3 { // each read starts again at the start
		n, err := f.readAll(b[:])
		if err != nil || n == 0 || b[n-1] != '\n' {
			t.Fatalf("read %q, %v", b[:n], err)
		}
		t.Logf("clocksource %q", strings.TrimSpace(string(b[:n])))
	}
	if err := f.close(); err != nil {
		t.Fatal(err)
	}
}

// TestWatchCheckAllocates nothing: a check on the real clocks and file.
func TestWatchCheckAllocatesNothing(t *testing.T) {
	w := realWatch(t, WatchOptions{})
	w.src.start()
	defer w.src.stop()
	w.det.setStep(w.deps.clocks.step())
	if allocs := testing.AllocsPerRun(100, w.check); allocs != 0 {
		t.Errorf("a check allocates %v times; want 0", allocs)
	}
}

func BenchmarkWatchCheck(b *testing.B) {
	w := realWatch(b, WatchOptions{})
	w.src.start()
	defer w.src.stop()
	w.det.setStep(w.deps.clocks.step())
	b.ReportAllocs()
	for b.Loop() {
		w.check()
	}
}

// TestWatchSoak runs the watch on this machine for COUNTER_WATCH_SOAK (say
// 30s), at a period of a second: it must raise no event. Keep the other
// cores busy meanwhile to see that the thresholds hold under load. It also
// holds the refined rate, unrounded, after 10 s and at the end against an
// independent reference: the tightest of many brackets at the start and at
// the end, the rate between them good to their two half-widths over the
// time between. The two must agree within the reference's bound plus four
// of the fit's standard errors.
//
//	COUNTER_WATCH_SOAK=30s go test -run TestWatchSoak -v .
func TestWatchSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("COUNTER_WATCH_SOAK"))
	if err != nil {
		t.Skip("set COUNTER_WATCH_SOAK=30s to run the watch on this machine for 30 s")
	}
	// The rate a service gets: Discover's, measured on this (perhaps
	// loaded) machine, watched at the default tolerance.
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
	var at10 fitEstimate
	var at10Ref bracket
	took10 := make(chan struct{})
	go func() {
		defer close(took10)
		time.Sleep(min(d, 10*time.Second+50*time.Millisecond))
		at10 = w.estimate()
		at10Ref = tightestOf(30)
	}()
	if err := w.Run(ctx, time.Second); err != context.DeadlineExceeded {
		t.Fatalf("Run returned %v; want context.DeadlineExceeded", err)
	}
	<-took10
	ref1 := tightestOf(30)
	perNs := float64(w.rate.Hertz()) / 1e9
	judge := func(when string, r fitEstimate, end bracket) {
		T := float64(end.raw - ref0.raw)
		refHz := float64(end.mid.Sub(ref0.mid)) / T * 1e9
		refErr := float64(end.width+ref0.width) / 2 / perNs / T * 1e6
		diff := (r.hz - refHz) / refHz * 1e6
		t.Logf("%s: refined %.3f Hz ± %.4f ppm over %d checks (%v); reference %.3f Hz ± %.4f ppm over %.1f s; refined − reference %+.4f ppm; rate in use %v (%+.4f ppm from the reference)",
			when, r.hz, r.uncertaintyPPM, r.points, r.span, refHz, refErr, T/1e9, diff, w.rate, (float64(w.rate.Hertz())-refHz)/refHz*1e6)
		if r.points >= 3 && math.Abs(diff) > refErr+4*r.uncertaintyPPM {
			t.Errorf("%s: the refined rate is %+.4f ppm from the reference; want within %.4f ppm (the reference's bound and four standard errors)",
				when, diff, refErr+4*r.uncertaintyPPM)
		}
	}
	if at10.points > 0 {
		judge("after 10 s", at10, at10Ref)
	}
	end := w.estimate()
	judge("at the end", end, ref1)
	if len(events) != 0 || w.State() != Trusted {
		t.Errorf("%d events, state %v; want none on a healthy machine", len(events), w.State())
	}
	if math.IsInf(end.uncertaintyPPM, 0) {
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
