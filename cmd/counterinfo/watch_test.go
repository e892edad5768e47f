package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tickstamp/counter"
)

// offBy returns a discovery that finds this machine's rate and then hands
// out a Counter converting at that rate times 1+ppm/10⁶: a counter whose
// rate changed by ppm after discovery, as a migration to another host does.
func offBy(ppm float64) discoverFunc {
	return func() (counter.Counter, counter.Discovery, error) {
		c, d, err := counter.DiscoverDetails()
		if err != nil {
			return c, d, err
		}
		rate, err := counter.NewTickRate(uint64(float64(c.Rate().Hertz()) * (1 + ppm/1e6)))
		if err != nil {
			panic(err)
		}
		d.Rate = rate
		return counter.New(rate), d, nil
	}
}

// jsonLines reads out as JSON Lines, line by line: every line must decode
// on its own, with encoding/json, into one JSON object.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %d is not a JSON object on its own: %v\n%s", n, err, sc.Text())
		}
		objs = append(objs, m)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if out != "" && !strings.HasSuffix(out, "\n") {
		t.Errorf("the last line has no newline: %q", out[strings.LastIndexByte(out, '\n')+1:])
	}
	return objs
}

// checkKinds checks the kinds of -json -watch's lines: the report first,
// the summary last, and events between.
func checkKinds(t *testing.T, objs []map[string]any) {
	t.Helper()
	for i, m := range objs {
		want := kindEvent
		switch i {
		case 0:
			want = kindReport
		case len(objs) - 1:
			want = kindSummary
		}
		if m["kind"] != want {
			t.Errorf("line %d of %d is of kind %v; want %q: %v", i+1, len(objs), m["kind"], want, m)
		}
	}
}

// TestWatchLive runs -watch on this machine's own discovery: the report,
// then no event that makes the counter untrusted, then the refined rate,
// close to the discovered one, and exit status 0.
func TestWatchLive(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the watch for 400 ms")
	}
	t.Parallel() // mostly waits for the watch's period
	status, out, errOut := runCmd(t, counter.DiscoverDetails, append([]string{"-json", "-watch", "400ms", "-period", "50ms"}, quick...)...)
	objs := jsonLines(t, out)
	if len(objs) > 0 && objs[0]["usable"] == false {
		t.Skipf("discovery refused here: %v", objs[0]["refusal"])
	}
	if len(objs) < 2 {
		t.Fatalf("got %d JSON objects; want the report and the watch's end at least:\n%s\n%s", len(objs), out, errOut)
	}
	checkKinds(t, objs)
	checkShape(t, "the report line", objs[0], topFields)
	// Into a pipe (here a buffer), the watch says on stderr that it runs.
	if want := "counterinfo: watching the counter for 400ms, a check every 50ms"; !strings.Contains(errOut, want) {
		t.Errorf("stderr %q; want it to say %q", errOut, want)
	}
	if objs[0]["usable"] != true {
		t.Fatalf("the first object is not the report: %v", objs[0])
	}
	end := objs[len(objs)-1]
	if n := end["events"]; n != float64(len(objs)-2) {
		t.Errorf("the summary counts %v events; %d were printed", n, len(objs)-2)
	}
	for _, e := range objs[1 : len(objs)-1] {
		t.Logf("event: %v", e)
		if e["severity"] == "untrusted" {
			t.Errorf("an event made this machine's counter untrusted: %v", e)
		}
	}
	t.Logf("end: %v", end)
	hz, _ := end["refined_rate_hz"].(float64)
	rate := objs[0]["rate_hz"].(float64)
	if status != exitUsable || end["state"] == "untrusted" || hz < rate*(1-1e-4) || hz > rate*(1+1e-4) {
		t.Errorf("status %d, state %v, refined %v Hz against %v Hz discovered; want 0, not untrusted, within 100 ppm", status, end["state"], hz, rate)
	}
	if _, ok := end["refined_uncertainty_ppm"].(float64); !ok {
		t.Errorf("no refined_uncertainty_ppm in %v", end)
	}
}

// TestWatchSeesAWrongRate hands -watch a counter whose rate is 2% off the
// machine's: the watch must print a rate event as it happens, in both
// outputs, end untrusted and exit with status 4.
func TestWatchSeesAWrongRate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the watch for 200 ms twice")
	}
	t.Parallel() // mostly waits for the watch's period
	args := append([]string{"-watch", "200ms", "-period", "40ms"}, quick...)
	status, out, _ := runCmd(t, offBy(20_000), append([]string{"-json"}, args...)...)
	objs := jsonLines(t, out)
	if len(objs) > 0 && objs[0]["usable"] == false {
		t.Skipf("discovery refused here: %v", objs[0]["refusal"])
	}
	if len(objs) < 2 {
		t.Fatalf("got %d JSON objects; want the report, events and the watch's end:\n%s", len(objs), out)
	}
	checkKinds(t, objs)
	sawRate := false
	for _, e := range objs[1 : len(objs)-1] {
		if e["event"] == "rate" && e["severity"] == "untrusted" && e["unit"] == "ppm" {
			sawRate = true
		}
	}
	end := objs[len(objs)-1]
	if !sawRate || status != exitWatch || end["state"] != "untrusted" {
		t.Errorf("status %d, state %v, a rate event: %v; want %d, untrusted, true\n%s", status, end["state"], sawRate, exitWatch, out)
	}

	status, out, _ = runCmd(t, offBy(20_000), args...)
	if status == exitRefused {
		t.Skipf("the second discovery refused here:\n%s", out)
	}
	if status != exitWatch || !strings.Contains(out, "\nevent ") || !strings.Contains(out, "rate (untrusted)") || !strings.Contains(out, "refined rate ") {
		t.Errorf("status %d; want %d, an event line and the refined rate in:\n%s", status, exitWatch, out)
	}
}

// TestWatchNotRunWhenRefused checks that -watch says it did not run where
// discovery refused, and the status stays the refusal's; -json's JSON
// Lines are then the report's line alone.
func TestWatchNotRunWhenRefused(t *testing.T) {
	status, out, errOut := runCmd(t, refusing(counter.ErrNotInvariant), append([]string{"-json", "-watch", "1s"}, quick...)...)
	if status != exitRefused || !strings.Contains(errOut, "-watch: not run") {
		t.Errorf("status %d, stderr %q; want %d and why -watch did not run", status, errOut, exitRefused)
	}
	if objs := jsonLines(t, out); len(objs) != 1 || objs[0]["kind"] != kindReport || objs[0]["usable"] != false {
		t.Errorf("%d lines, the first %v; want the refused report's line alone", len(objs), objs)
	}
}

// TestCPUOffsetsReported checks both outputs of a per-CPU check, and the
// note where there was none.
func TestCPUOffsetsReported(t *testing.T) {
	withCheck := func() (counter.Counter, counter.Discovery, error) {
		c, d, err := fixedRate()
		d.CPUs = []counter.CPUOffset{
			{CPU: 0, Offset: 0, Bound: 900 * time.Nanosecond},
			{CPU: 3, Offset: -24 * time.Nanosecond, Bound: 1200 * time.Nanosecond},
		}
		return c, d, err
	}
	_, m := runJSON(t, withCheck)
	offsets, _ := m["cpu_offsets_ns"].(map[string]any)
	if len(offsets) != 2 || offsets["0"] != 0.0 || offsets["3"] != -24.0 || m["cpu_offset_bound_ns"] != 1200.0 || m["cpu_offset_note"] != "" {
		t.Errorf("cpu_offsets_ns %v, bound %v, note %q; want {0: 0, 3: -24}, 1200 and no note", offsets, m["cpu_offset_bound_ns"], m["cpu_offset_note"])
	}
	_, out, _ := runCmd(t, withCheck, quick...)
	if !strings.Contains(out, "CPU 0 +0 ns, CPU 3 -24 ns") || !strings.Contains(out, "±1200 ns") {
		t.Errorf("the table does not show the offsets:\n%s", out)
	}

	_, m = runJSON(t, fixedRate)
	if offsets, _ := m["cpu_offsets_ns"].(map[string]any); len(offsets) != 0 || m["cpu_offset_note"] == "" {
		t.Errorf("without a check: cpu_offsets_ns %v, note %q; want {} and why", offsets, m["cpu_offset_note"])
	}
}

// TestWatchLiveErrors separates a watch that could not run from output
// that could not be written: the first keeps the report's status, the
// second is status 3.
func TestWatchLiveErrors(t *testing.T) {
	var buf strings.Builder
	if _, notRun, err := watchLive(&buf, counter.Counter{}, nil, 50*time.Millisecond, 10*time.Millisecond, true); notRun == nil || err != nil {
		t.Errorf("a Counter without a rate: not run %v, write error %v; want a reason not to run and no write error", notRun, err)
	}
	rate, _ := counter.NewTickRate(1_000_000_000)
	c := counter.New(rate) // watchable wherever there is a raw clock
	_, notRun, err := watchLive(errWriter{errors.New("disk full")}, c, nil, 30*time.Millisecond, 10*time.Millisecond, false)
	if notRun != nil {
		t.Skipf("no watch here: %v", notRun)
	}
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("writing to a full disk: %v; want its error", err)
	}
}

// TestWatchLiveStatus checks -watch's status line: redrawn in place on a
// terminal, with the time, the checks, the state and the refined rate, and
// erased before the end's lines; absent where out is not a terminal, and
// from -json.
func TestWatchLiveStatus(t *testing.T) {
	c, err := counter.Discover()
	if err != nil {
		t.Skipf("discovery refuses here: %v", err)
	}
	defer func(every time.Duration, term func(io.Writer) bool) { statusEvery, isTerminal = every, term }(statusEvery, isTerminal)
	statusEvery = 20 * time.Millisecond
	for _, tc := range []struct {
		name       string
		terminal   bool
		json       bool
		wantStatus bool
	}{
		{"terminal", true, false, true},
		{"terminal, -json", true, true, false},
		{"pipe", false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isTerminal = func(io.Writer) bool { return tc.terminal }
			var buf strings.Builder
			if _, notRun, err := watchLive(&buf, c, nil, 150*time.Millisecond, 20*time.Millisecond, tc.json); notRun != nil || err != nil {
				t.Fatalf("watchLive: %v, %v", notRun, err)
			}
			out := buf.String()
			hasStatus := strings.Contains(out, "\r\x1b[Kwatching ")
			if hasStatus != tc.wantStatus || (!tc.wantStatus && strings.Contains(out, "\x1b")) {
				t.Fatalf("status line shown: %v; want %v:\n%q", hasStatus, tc.wantStatus, out)
			}
			if !tc.wantStatus {
				return
			}
			last := out[strings.LastIndex(out, "\r\x1b[Kwatching "):]
			if !strings.Contains(last, " of 150ms: trusted, refined ") || !strings.Contains(last, " Hz ±") {
				t.Errorf("the last status line %q lacks the time, the state or the refined rate", last)
			}
			end := strings.Index(last, "\r\x1b[Kwatched ")
			if end < 0 {
				t.Fatalf("the status line is not erased before the end's lines:\n%q", last)
			}
			if strings.Contains(last[end+4:], "\r") {
				t.Errorf("a status line after the end:\n%q", last[end:])
			}
		})
	}
}

// TestCheckWatchPeriod checks that -period is held against counter.Watch's
// own least period, which Watch.Run states in its refusal, and that a
// period the watch takes passes.
func TestCheckWatchPeriod(t *testing.T) {
	for _, p := range []time.Duration{-time.Second, 0, time.Millisecond, 9 * time.Millisecond} {
		if err := checkWatchPeriod(p); err == nil || !strings.Contains(err.Error(), "the period must be at least 10ms") {
			t.Errorf("checkWatchPeriod(%v) = %v; want the watch's refusal", p, err)
		}
	}
	for _, p := range []time.Duration{10 * time.Millisecond, time.Second, time.Hour} {
		if err := checkWatchPeriod(p); err != nil {
			t.Errorf("checkWatchPeriod(%v) = %v; want nil", p, err)
		}
	}
	status, _, errOut := runCmd(t, fixedRate, "-watch", "1s", "-period", "5ms")
	if status != exitUsage || !strings.Contains(errOut, "counterinfo: -period 5ms: counter: a watch cannot check every 5ms") {
		t.Errorf("status %d, stderr %q; want %d and the watch's refusal", status, errOut, exitUsage)
	}
}

// TestEventUnit checks that the unit -watch -json gives each kind of
// event is the one counter.Event's String prints with its value.
func TestEventUnit(t *testing.T) {
	for k := counter.EventRate; k <= counter.EventCPUOffsets; k++ {
		s := counter.Event{Kind: k, Severity: counter.Degraded}.String()
		u := eventUnit(k)
		if u == "" && (strings.HasSuffix(s, " ns") || strings.HasSuffix(s, " ppm")) || u != "" && !strings.HasSuffix(s, " "+u) {
			t.Errorf("%v: unit %q, and String says %q", k, u, s)
		}
	}
	if eventUnit(counter.EventKind(0)) != "" {
		t.Error("an unknown kind has a unit")
	}
}

// TestReportDriftShortWindow checks the drift's period: a tenth of the
// window where the watch takes it, half of it where a tenth is too short
// (still three checks), and a note where even half is refused.
func TestReportDriftShortWindow(t *testing.T) {
	rate, _ := counter.NewTickRate(1_000_000_000)
	if _, err := counter.NewWatch(counter.New(rate), counter.WatchOptions{}); err != nil {
		t.Skipf("no watch here: %v", err)
	}
	c, err := counter.Discover()
	if err != nil {
		t.Skipf("discovery refused: %v", err)
	}
	var r report
	reportDrift(&r, c, nil, leastWindow)
	if r.DriftNote != "" || r.DriftBoundPPM <= 0 {
		t.Errorf("the least window, %v: note %q, bound %v ppm; want the drift measured at half the window", leastWindow, r.DriftNote, r.DriftBoundPPM)
	}
	// A shorter window, which -window refuses, measures nothing.
	r = report{}
	reportDrift(&r, c, nil, 15*time.Millisecond)
	if !strings.Contains(r.DriftNote, "not measured: counter: a watch cannot check every 7.5ms") {
		t.Errorf("a 15ms window: note %q; want the watch's refusal", r.DriftNote)
	}
}
