package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tickstamp/counter"
)

// driftChecks is how many checks the drift window is cut into: the watch
// the -watch flag runs, run for the window at a period of a tenth of it,
// or of half of it where counter.Watch refuses a tenth as too short. Half
// is the longest period that still fits the three checks a rate with an
// uncertainty needs.
const driftChecks = 10

// leastWatchPeriod is counter.Watch's least period: Watch.Run refuses a
// shorter one. The root package is its home; TestLeastWatchPeriod holds
// this copy to it, through checkWatchPeriod, where this system has a watch.
const leastWatchPeriod = 10 * time.Millisecond

// leastWindow is the shortest -window that measures a drift: twice the
// watch's least period. The drift is the fit of three checks at least (the
// fewest that give it an uncertainty), made at the start, one period and
// two periods in, so the longest period that fits three into a window is
// half of it, which must be at least leastWatchPeriod. A shorter window
// would measure nothing: the command refuses it before any work.
const leastWindow = 2 * leastWatchPeriod

// checkWatchPeriod returns counter.Watch's refusal of period, or nil where
// it takes it (or where this system has no watch at all): it asks a Watch to
// run at period with a context already done, which Watch.Run refuses before
// it checks anything. So the watch's least period has one home, the root
// package.
func checkWatchPeriod(period time.Duration) error {
	rate, err := counter.NewTickRate(1_000_000_000)
	if err != nil {
		return err
	}
	w, err := counter.NewWatch(counter.New(rate), counter.WatchOptions{})
	if err != nil {
		return nil // no watch here: -watch says so when it is asked to run
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := w.Run(ctx, period); !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// reportDrift compares c with the raw monotonic clock over window, by
// running the package's own watch over it (counter.Watch: the brackets
// discovery and the watch take, no copy of them here), and fills r's drift
// from the watch's refined rate: the counter's rate against the raw clock,
// less the rate c converts at. The bound is two standard errors of the
// refined rate. What the watch raised meanwhile becomes a warning. disc,
// where not nil, is how discovery found c's rate: the watch then covers a
// measured rate's own error, as a service's watch given it would.
func reportDrift(r *report, c counter.Counter, disc *counter.Discovery, window time.Duration) {
	period := window / driftChecks
	if checkWatchPeriod(period) != nil {
		period = window / 2
	}
	var events []counter.Event
	w, err := counter.NewWatch(c, counter.WatchOptions{Discovery: disc, OnEvent: func(e counter.Event) { events = append(events, e) }})
	if err != nil {
		r.DriftNote = "not measured: " + err.Error()
		return
	}
	// Half a period past the window, so that the check at its end is made;
	// and where a busy machine let the ticks go by, a period more at a
	// time (each Run checks at once) until there are three checks to fit,
	// within ten windows.
	giveUp := time.Now().Add(10 * window)
	for run := window + period/2; ; run = period {
		ctx, cancel := context.WithTimeout(context.Background(), run)
		err := w.Run(ctx, period)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			r.DriftNote = "not measured: " + err.Error()
			return
		}
		if hasUncertainty(w) || len(events) > 0 || time.Now().After(giveUp) {
			break
		}
	}
	for _, e := range events {
		r.Warnings = append(r.Warnings, "over the drift window the watch found "+e.String())
	}
	refined, u := w.Refined()
	var ok bool
	r.DriftPPM, r.DriftBoundPPM, ok = drift(events, refined, u, c.Rate())
	if !ok {
		r.DriftNote = fmt.Sprintf("not measured: the watch made fewer than three checks in %v, too few to fit a rate with its uncertainty", window)
	}
}

// drift returns the drift of a counter converting at inUse and its bound,
// in ppm to a thousandth or to three significant digits, whichever keeps
// more (roundPPM), from what a watch of it found: events, and its refined
// rate with that rate's uncertainty u in ppm. The drift is positive where
// the counter runs fast: its refined rate above inUse. Where the watch
// confirmed a rate other than the one in use, it refits from there: the
// drift is what the last such event measured, against its threshold.
// Otherwise it is the refined rate against inUse, bounded by two standard
// errors, or ok is false where the refined rate has no uncertainty.
func drift(events []counter.Event, refined counter.TickRate, u float64, inUse counter.TickRate) (ppm, bound float64, ok bool) {
	for _, e := range slices.Backward(events) {
		if e.Kind == counter.EventRate {
			return roundPPM(e.Value, 3), roundPPM(e.Threshold, 3), true
		}
	}
	if !fitted(refined, u) {
		return 0, 0, false
	}
	return roundPPM(ppmFrom(refined, inUse), 3), roundPPM(2*u, 3), true
}

// hasUncertainty reports whether w's refined rate has an uncertainty: the
// fit has three checks or more.
func hasUncertainty(w *counter.Watch) bool { return fitted(w.Refined()) }

// fitted reports whether a refined rate and its uncertainty u, in ppm, are
// a fit's: a rate, with a finite uncertainty.
func fitted(rate counter.TickRate, u float64) bool {
	return rate.Hertz() != 0 && !math.IsInf(u, 0) && !math.IsNaN(u)
}

// ppmFrom returns how far rate is from base, in ppm of base.
func ppmFrom(rate, base counter.TickRate) float64 {
	hz, baseHz := float64(rate.Hertz()), float64(base.Hertz())
	return (hz - baseHz) / baseHz * 1e6
}

// watchLive runs the watch on c for d at period, covering a measured
// rate's error where disc, discovery's account of c's rate, is not nil. It
// writes each event to out as it happens (a line of the table's form, or
// with asJSON a JSON object a line, "kind": "event"), and at the end the
// refined rate and the watch's state (with asJSON, the "summary" line).
// Where out is a terminal and asJSON is false, a status line below the
// events says how far the watch has got, redrawn in place every
// statusEvery. It returns whether an event made the counter untrusted, why
// the watch could not run (no raw clock to watch against, say), and the
// first error of a write.
func watchLive(out io.Writer, c counter.Counter, disc *counter.Discovery, d, period time.Duration, asJSON bool) (untrusted bool, notRun, err error) {
	var mu sync.Mutex // orders the writes of the watch's goroutine and the status line's
	live := !asJSON && isTerminal(out)
	note := func(werr error) {
		if err == nil {
			err = werr
		}
	}
	events := 0
	w, nerr := counter.NewWatch(c, counter.WatchOptions{Discovery: disc, OnEvent: func(e counter.Event) {
		mu.Lock()
		defer mu.Unlock()
		if live {
			note(clearStatus(out))
		}
		events++
		note(writeEvent(out, e, asJSON))
	}})
	if nerr != nil {
		return false, nerr, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	statusDone := make(chan struct{})
	if live {
		start := time.Now()
		go func() {
			defer close(statusDone)
			tick := time.NewTicker(statusEvery)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				mu.Lock()
				note(writeStatus(out, w, c.Rate(), time.Since(start), d))
				mu.Unlock()
			}
		}()
	} else {
		close(statusDone)
	}
	rerr := w.Run(ctx, period)
	if errors.Is(rerr, context.DeadlineExceeded) {
		rerr = nil // the end of the time asked for
	}
	cancel()
	<-statusDone
	if live {
		note(clearStatus(out))
	}
	if rerr != nil {
		return false, rerr, err
	}
	note(writeWatchEnd(out, w, c.Rate(), d, events, asJSON))
	return w.State() == counter.Untrusted, nil, err
}

// statusEvery is how often -watch redraws its status line on a terminal;
// tests shorten it.
var statusEvery = time.Second

// isTerminal reports whether out is a terminal (a character device), where
// a line redrawn in place reads as a status and not as a log.
var isTerminal = func(out io.Writer) bool {
	f, ok := out.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// writeStatus redraws the status line: the time watched of the whole, the
// state, and the refined rate so far against the rate in use.
func writeStatus(out io.Writer, w *counter.Watch, inUse counter.TickRate, elapsed, whole time.Duration) error {
	refined, u := w.Refined()
	rate := "no refined rate yet"
	switch {
	case refined.Hertz() == 0:
	case math.IsInf(u, 0) || math.IsNaN(u):
		rate = fmt.Sprintf("refined %d Hz (%s ppm)", refined.Hertz(), formatPPM(ppmFrom(refined, inUse), true))
	default:
		rate = fmt.Sprintf("refined %d Hz ±%s ppm (%s ppm)", refined.Hertz(), formatPPM(u, false), formatPPM(ppmFrom(refined, inUse), true))
	}
	_, err := fmt.Fprintf(out, "\r\x1b[Kwatching %v of %v: %s, %s",
		elapsed.Round(time.Second), whole, w.State(), rate)
	return err
}

// clearStatus erases the status line, so that what follows starts on a
// clean line.
func clearStatus(out io.Writer) error {
	_, err := io.WriteString(out, "\r\x1b[K")
	return err
}

// An eventLine is one event as -watch -json prints it, a line of its own.
type eventLine struct {
	Kind      string  `json:"kind"`     // kindEvent, "event": what the line is
	Event     string  `json:"event"`    // the event's kind: "rate", "jump", "clocksource", ...
	Severity  string  `json:"severity"` // "degraded" or "untrusted"
	At        string  `json:"at"`       // RFC 3339, to the nanosecond
	Value     float64 `json:"value"`
	Threshold float64 `json:"threshold"`
	Unit      string  `json:"unit"` // of value and threshold: "ppm", "ns" or ""
	From      string  `json:"from"` // the clocksources, for "clocksource"
	To        string  `json:"to"`
	Error     string  `json:"error"`
}

// eventUnit returns the unit of an event's Value and Threshold, as each
// kind's doc in package counter states it: "ppm", "ns" or "".
func eventUnit(k counter.EventKind) string {
	switch k {
	case counter.EventRate, counter.EventRateSinceStart:
		return "ppm"
	case counter.EventJump, counter.EventCPUOffsets:
		return "ns"
	}
	return ""
}

// writeEvent writes one event, a line.
func writeEvent(out io.Writer, e counter.Event, asJSON bool) error {
	if !asJSON {
		_, err := fmt.Fprintf(out, "event  %s  %s\n", e.At.Format("15:04:05.000"), eventText(e))
		return err
	}
	l := eventLine{
		Kind: kindEvent, Event: e.Kind.String(), Severity: e.Severity.String(), At: e.At.Format(time.RFC3339Nano),
		Value: e.Value, Threshold: e.Threshold, Unit: eventUnit(e.Kind), From: e.From, To: e.To,
	}
	if e.Err != nil {
		l.Error = e.Err.Error()
	}
	return json.NewEncoder(out).Encode(l)
}

// eventText is e as -watch's lines of text print it: e's String, but with
// a figure in ppm to two significant digits (formatPPM), as the table prints
// ppm, where String gives three decimals whatever the figure's size.
func eventText(e counter.Event) string {
	if eventUnit(e.Kind) != "ppm" {
		return e.String()
	}
	s := fmt.Sprintf("%s (%s): %s ppm, threshold ±%s ppm", e.Kind, e.Severity, formatPPM(e.Value, false), formatPPM(e.Threshold, false))
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// A watchEnd is the watch's summary, the last line -watch -json prints.
type watchEnd struct {
	Kind                  string  `json:"kind"` // kindSummary, "summary": what the line is
	WatchedMS             float64 `json:"watched_ms"`
	Events                int     `json:"events"`                  // the events the watch raised, a line each before this one
	State                 string  `json:"state"`                   // "trusted", "degraded" or "untrusted"
	RefinedRateHz         uint64  `json:"refined_rate_hz"`         // to the hertz; 0 with fewer than two checks
	RefinedUncertaintyPPM float64 `json:"refined_uncertainty_ppm"` // -1 with fewer than three checks
	RefinedVsRatePPM      float64 `json:"refined_vs_rate_ppm"`     // the refined rate against the rate in use
}

// writeWatchEnd writes the refined rate and the state the watch of a
// Counter converting at inUse ended in, after it printed events: the
// summary. Its ppm figures are to four decimals or three significant
// digits in JSON (roundPPM), two significant digits in text (formatPPM).
func writeWatchEnd(out io.Writer, w *counter.Watch, inUse counter.TickRate, d time.Duration, events int, asJSON bool) error {
	refined, u := w.Refined()
	end := watchEnd{
		Kind:      kindSummary,
		WatchedMS: float64(d) / float64(time.Millisecond), Events: events, State: w.State().String(),
		RefinedRateHz: refined.Hertz(), RefinedUncertaintyPPM: -1,
	}
	if refined.Hertz() != 0 && !math.IsInf(u, 0) && !math.IsNaN(u) {
		end.RefinedUncertaintyPPM = roundPPM(u, 4)
	}
	if refined.Hertz() != 0 {
		end.RefinedVsRatePPM = roundPPM(ppmFrom(refined, inUse), 4)
	}
	if asJSON {
		return json.NewEncoder(out).Encode(end)
	}
	var b strings.Builder
	noun := "events"
	if end.Events == 1 {
		noun = "event"
	}
	fmt.Fprintf(&b, "watched                 %v: %s, %d %s\n", d, end.State, end.Events, noun)
	switch {
	case end.RefinedRateHz == 0:
		b.WriteString("refined rate            none: fewer than two checks\n")
	case end.RefinedUncertaintyPPM < 0:
		fmt.Fprintf(&b, "refined rate            %d Hz (%s ppm from the rate in use; no uncertainty from two checks)\n", end.RefinedRateHz, formatPPM(end.RefinedVsRatePPM, true))
	default:
		fmt.Fprintf(&b, "refined rate            %d Hz ±%s ppm (%s ppm from the rate in use)\n", end.RefinedRateHz, formatPPM(end.RefinedUncertaintyPPM, false), formatPPM(end.RefinedVsRatePPM, true))
	}
	_, err := io.WriteString(out, b.String())
	return err
}
