package main

import (
	"bytes"
	"encoding/json"
	"go/parser"
	"go/token"
	"io"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/crosscpu"
)

// TestFlagDefaults checks each flag's default against the one the package
// doc states, and the defaults the doc states none for.
func TestFlagDefaults(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	fs := newFlagSet(new(options))
	for name, want := range map[string]string{"window": "300ms", "crosscore": "200ms", "period": "1s"} {
		if got := fs.Lookup(name).DefValue; got != want {
			t.Errorf("-%s defaults to %s; want %s", name, got, want)
		}
		// The flag's entry in the doc: from its line to the next flag's.
		entry := regexp.MustCompile(`(?s)\n\t-` + name + ` duration\n(.*?)(\n\t-|\n\n|$)`).FindStringSubmatch(doc)
		if entry == nil || !strings.Contains(entry[1], "(default "+want+")") {
			t.Errorf("the package doc does not give -%s's default as %s: %q", name, want, entry)
		}
	}
	// The least values the doc gives are the ones the flags are held to.
	for _, want := range []string{"at least " + leastWindow.String() + " (default 300ms)", "least period\n\t\t(" + leastWatchPeriod.String() + ")"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the package doc does not say %q", want)
		}
	}
	for name, want := range map[string]string{"json": "false", "watch": "0s"} {
		if got := fs.Lookup(name).DefValue; got != want {
			t.Errorf("-%s defaults to %s; want %s", name, got, want)
		}
	}
}

// TestEmptyReport checks a report with nothing found: every object and list
// empty rather than null, and no CPU named for a worst step there is not.
func TestEmptyReport(t *testing.T) {
	var js bytes.Buffer
	if err := writeReport(&js, newReport(), formatJSON); err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(js.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"cpu_flags": "{}", "read_ns": "{}", "cpu_offsets_ns": "{}", "warnings": "[]"} {
		if got := string(m[name]); got != want {
			t.Errorf("%s %s; want %s", name, got, want)
		}
	}
	var cc map[string]any
	if err := json.Unmarshal(m["cross_core"], &cc); err != nil {
		t.Fatal(err)
	}
	if cc["worst_from"] != -1.0 || cc["worst_to"] != -1.0 || len(cc["cpus"].([]any)) != 0 {
		t.Errorf("cross_core %v; want worst_from and worst_to -1 and cpus []", cc)
	}
}

// TestKernelPPM checks kernel_ppm: the discovered rate against the
// kernel's, positive where the discovered one is higher, and 0 where the
// kernel's is missing or discovery refused.
func TestKernelPPM(t *testing.T) {
	for _, tc := range []struct {
		kernelHz uint64
		discover discoverFunc
		want     float64
	}{
		{2_000_000_000, fixedRate, 150_000},
		{2_500_000_000, fixedRate, -80_000},
		{0, fixedRate, 0},
		{2_000_000_000, refusing(counter.ErrNoRate), 0},
	} {
		r := newReport()
		r.KernelHz = tc.kernelHz
		reportDiscovery(&r, tc.discover)
		if r.KernelPPM != tc.want {
			t.Errorf("kernel %d Hz, discovered %d Hz: kernel_ppm %v; want %v", tc.kernelHz, r.RateHz, r.KernelPPM, tc.want)
		}
	}
}

// TestUncertainty checks uncertainty_ppm: a measured rate's spread, a
// reported rate's disagreement with its check as a distance, and 0 with
// the reason where the reported rate was not checked.
func TestUncertainty(t *testing.T) {
	for _, tc := range []struct {
		d    counter.Discovery
		want float64
		from string
	}{
		{counter.Discovery{Source: counter.SourceMeasured, Window: 50 * time.Millisecond, SpreadPPM: 3.5}, 3.5, "typical distance"},
		{counter.Discovery{Source: counter.SourceCrystal, Window: 10 * time.Millisecond, DisagreementPPM: -7.25}, 7.25, "disagreement"},
		{counter.Discovery{Source: counter.SourceCrystal, Window: 10 * time.Millisecond, DisagreementPPM: 2}, 2, "disagreement"},
		{counter.Discovery{Source: counter.SourceCrystal, DisagreementPPM: 2}, 0, "unchecked"},
	} {
		got, from := uncertainty(tc.d)
		if got != tc.want || !strings.Contains(from, tc.from) {
			t.Errorf("%+v: %v (%s); want %v (%s...)", tc.d, got, from, tc.want, tc.from)
		}
	}
}

// TestDrift checks the drift's sign and bound: positive where the counter
// runs fast (its refined rate above the rate in use), bounded by two
// standard errors; the last rate event's value and threshold where the
// watch raised one; and none where the fit has no uncertainty.
func TestDrift(t *testing.T) {
	hz := func(n uint64) counter.TickRate {
		r, err := counter.NewTickRate(n)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	inUse := hz(1_000_000_000)
	for _, tc := range []struct {
		name     string
		events   []counter.Event
		refined  counter.TickRate
		u        float64
		ppm, bnd float64
		ok       bool
	}{
		{"fast", nil, hz(1_000_100_000), 2.5, 100, 5, true},
		{"slow", nil, hz(999_950_000), 1, -50, 2, true},
		{"rate event", []counter.Event{
			{Kind: counter.EventRate, Value: 300, Threshold: 9},
			{Kind: counter.EventJump, Value: 5000, Threshold: 100},
			{Kind: counter.EventRate, Value: -120.5, Threshold: 8.5},
			{Kind: counter.EventRateSinceStart, Value: 40, Threshold: 4},
		}, hz(1_000_100_000), 2.5, -120.5, 8.5, true},
		{"two checks", nil, hz(1_000_100_000), math.Inf(1), 0, 0, false},
		{"no fit", nil, counter.TickRate{}, 0, 0, 0, false},
	} {
		ppm, bnd, ok := drift(tc.events, tc.refined, tc.u, inUse)
		if ppm != tc.ppm || bnd != tc.bnd || ok != tc.ok {
			t.Errorf("%s: drift %v ppm, bound %v, ok %v; want %v, %v, %v", tc.name, ppm, bnd, ok, tc.ppm, tc.bnd, tc.ok)
		}
	}
}

// TestAddPair checks cross_core's tally of pairs: every pair counted, those
// with a backward step apart, and the worst step with the CPUs it was
// between.
func TestAddPair(t *testing.T) {
	r := newCrossCoreReport()
	for _, p := range []struct {
		res      crosscpu.Result
		from, to int
	}{
		{crosscpu.Result{Handoffs: 10, Closest: 3, Quickest: 3}, 0, 1},
		{crosscpu.Result{Handoffs: 10, Backward: 2, Closest: -5}, 1, 0},
		{crosscpu.Result{Handoffs: 10, Backward: 1, Closest: -9}, 0, 2},
		{crosscpu.Result{Handoffs: 10, Backward: 1, Closest: -4}, 2, 0},
	} {
		addPair(&r, p.res, p.from, p.to)
	}
	if r.Pairs != 4 || r.BackwardPairs != 3 || r.WorstBackTicks != 9 || r.WorstFrom != 0 || r.WorstTo != 2 {
		t.Errorf("%+v; want 4 pairs, 3 backward, the worst 9 ticks from CPU 0 to 2", r)
	}
}

// TestCPUOffsetBound checks that cpu_offset_bound_ns is the widest bound of
// the CPUs checked, wherever it lies among them.
func TestCPUOffsetBound(t *testing.T) {
	r := newReport()
	reportCPUOffsets(&r, counter.Discovery{CPUs: []counter.CPUOffset{
		{CPU: 0},
		{CPU: 1, Offset: 10, Bound: 900},
		{CPU: 2, Offset: -30, Bound: 1500},
		{CPU: 3, Offset: 20, Bound: 1200},
	}}, nil)
	if r.CPUOffsetBoundNS != 1500 || len(r.CPUOffsetsNS) != 4 || r.CPUOffsetsNS["2"] != -30 || r.CPUOffsetNote != "" {
		t.Errorf("offsets %v, bound %v, note %q; want 4 offsets, CPU 2 at -30, bound 1500, no note", r.CPUOffsetsNS, r.CPUOffsetBoundNS, r.CPUOffsetNote)
	}
}

// TestFloorOf checks that a floor's p50, p99 and max are the median, the
// 99th percentile and the exact maximum of its spans, and its ns those
// ticks at the rate, to a tenth, or 0 at the zero rate.
func TestFloorOf(t *testing.T) {
	h := counter.NewHistogram()
	for d := range counter.Tickdelta(100) {
		h.Record(d + 1) // spans of 1 to 100 ticks, each counted exactly
	}
	h.Record(250) // and one outlier, the maximum
	var s counter.Snapshot
	h.Interval(&s)
	rate, err := counter.NewTickRate(3_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	ticks, ns := floorOf(&s, rate)
	if want := (floorTicks{P50: 51, P99: 100, Max: 250}); ticks != want {
		t.Errorf("floor %+v ticks; want %+v", ticks, want)
	}
	if want := (floorNS{P50: 17, P99: 33.3, Max: 83.3}); ns != want {
		t.Errorf("floor %+v ns at 3 GHz; want %+v", ns, want)
	}
	if _, ns := floorOf(&s, counter.TickRate{}); ns != (floorNS{}) {
		t.Errorf("floor %+v ns at the zero rate; want all 0", ns)
	}
}

// TestWatchEndFewChecks checks the end of a watch that made no checks: no
// refined rate (0), an uncertainty of -1, and the table says why.
func TestWatchEndFewChecks(t *testing.T) {
	rate, _ := counter.NewTickRate(1_000_000_000)
	w, err := counter.NewWatch(counter.New(rate), counter.WatchOptions{})
	if err != nil {
		t.Skipf("no watch here: %v", err)
	}
	var js bytes.Buffer
	if err := writeWatchEnd(&js, w, rate, time.Second, 0, true); err != nil {
		t.Fatal(err)
	}
	var end map[string]any
	if err := json.Unmarshal(js.Bytes(), &end); err != nil {
		t.Fatal(err)
	}
	if end["kind"] != kindSummary || end["events"] != 0.0 || end["refined_rate_hz"] != 0.0 || end["refined_uncertainty_ppm"] != -1.0 || end["refined_vs_rate_ppm"] != 0.0 || end["state"] != "trusted" || end["watched_ms"] != 1000.0 {
		t.Errorf("%v; want kind summary, 0 events, refined_rate_hz 0, refined_uncertainty_ppm -1, refined_vs_rate_ppm 0, trusted, 1000 ms", end)
	}
	var table strings.Builder
	if err := writeWatchEnd(&table, w, rate, time.Second, 0, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "none: fewer than two checks") {
		t.Errorf("table %q; want it to say there is no refined rate", table.String())
	}
}

// failAfter is a writer whose writes succeed n times and then fail.
type failAfter struct {
	n   int
	err error
}

func (w *failAfter) Write(p []byte) (int, error) {
	if w.n <= 0 {
		return 0, w.err
	}
	w.n--
	return len(p), nil
}

// TestWatchUnwritten checks that -watch output that could not be written,
// after a report that was, ends in exitWrite with the reason on stderr.
func TestWatchUnwritten(t *testing.T) {
	t.Parallel() // mostly waits for the watch's period
	rate, _ := counter.NewTickRate(1_000_000_000)
	if _, err := counter.NewWatch(counter.New(rate), counter.WatchOptions{}); err != nil {
		t.Skipf("no watch here: %v", err)
	}
	out := &failAfter{n: 1, err: io.ErrClosedPipe} // the JSON report is one write
	var errOut strings.Builder
	status := runWith(fixedRate, []string{"-json", "-window", "20ms", "-crosscore", "0", "-watch", "30ms", "-period", "10ms"}, out, &errOut)
	if status != exitWrite || !strings.Contains(errOut.String(), "-watch: the watch's output could not be written: "+io.ErrClosedPipe.Error()) {
		t.Errorf("status %d, stderr %q; want %d and why", status, errOut.String(), exitWrite)
	}
}

// TestWatchNotRunKeepsStatus checks that where -watch cannot run on a
// counter discovery gave (here one with no rate), the status stays the
// report's, 0, and stderr says why: it saw no event. -json's JSON Lines are
// then the report's line alone.
func TestWatchNotRunKeepsStatus(t *testing.T) {
	t.Parallel()
	noRate := func() (counter.Counter, counter.Discovery, error) { return counter.Counter{}, counter.Discovery{}, nil }
	status, out, errOut := runCmd(t, noRate, "-json", "-window", "20ms", "-crosscore", "0", "-watch", "30ms", "-period", "10ms")
	if status != exitUsable || !strings.Contains(errOut, "counterinfo: -watch: not run: ") {
		t.Errorf("status %d, stderr %q; want %d and why -watch did not run", status, errOut, exitUsable)
	}
	if objs := jsonLines(t, out); len(objs) != 1 || objs[0]["kind"] != kindReport {
		t.Errorf("%d lines, the first %v; want the report's line alone", len(objs), objs)
	}
}

// TestResolutionReport checks that the resolution is printed beside the
// least gap, as given, each saying what it is: in -json resolution_ticks and
// resolution_ns beside step_ticks and step_ns, and in the table in ticks,
// with the ns where the counter is usable; the resolution as the counter's
// own increment, with the advice for short code, and the least gap as a
// read's cost where it is more than the resolution and a tick, else as one
// increment.
func TestResolutionReport(t *testing.T) {
	r := newReport()
	r.Usable, r.RateHz, r.Rate = true, 2_400_000_000, "2.4 GHz"
	r.StepTicks, r.StepNS = 56, 23.3
	r.ResolutionTicks, r.ResolutionNS = 41.67, 17.36
	m := reportJSON(t, r)
	if m["resolution_ticks"] != 41.67 || m["resolution_ns"] != 17.36 || m["step_ticks"] != 56.0 || m["step_ns"] != 23.3 {
		t.Errorf("resolution %v ticks, %v ns; step %v ticks, %v ns; want 41.67, 17.36, 56, 23.3", m["resolution_ticks"], m["resolution_ns"], m["step_ticks"], m["step_ns"])
	}
	const (
		increment = `the counter's own increment, the step its readings move in, however long a read takes \(from 16385 back-to-back NowUnordered reads\); code shorter than it times as whole increments: average many spans \(a Snapshot's Mean\)$`
		gap       = `the least two back-to-back Begin readings differ by: `
		readCost  = gap + `about one Begin read's cost here, not the resolution: reads are slower than the counter's increment$`
		oneStep   = gap + `one increment here, as the counter steps more slowly than a read$`
	)
	for _, tc := range []struct {
		name   string
		usable bool
		res    float64
		step   int64
		want   []string // rows, as regular expressions
		not    []string // what no row may say
	}{
		{"usable", true, 41.67, 56, []string{
			`(?m)^resolution +41\.67 ticks \(17\.36 ns\): ` + increment,
			`(?m)^least gap +56 ticks \(23\.3 ns\): ` + readCost,
			`(?m)^resolution .*\n^least gap `,
		}, nil},
		{"refused", false, 2, 56, []string{
			`(?m)^resolution +2 ticks: ` + increment,
			`(?m)^least gap +56 ticks: ` + readCost,
		}, nil},
		{"one tick", false, 1, 56, []string{`(?m)^resolution +1 tick: `}, nil},
		// A counter scaled to read in finer ticks than it counts, read
		// faster than it advances: the least gap is its increment rounded
		// up, one increment.
		{"slow counter", true, 41.67, 42, []string{
			`(?m)^least gap +42 ticks \(23\.3 ns\): ` + oneStep,
		}, []string{"read's cost"}},
		{"never advanced", true, 0, 0, []string{
			`(?m)^resolution +none: the counter did not advance in 16385 back-to-back reads$`,
			`(?m)^least gap +none: no two back-to-back Begin readings differed$`,
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.Usable, r.ResolutionTicks, r.StepTicks = tc.usable, tc.res, tc.step
			var table bytes.Buffer
			if err := writeTable(&table, r); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				if !regexp.MustCompile(want).MatchString(table.String()) {
					t.Errorf("the table has no row matching %s:\n%s", want, table.String())
				}
			}
			for _, not := range tc.not {
				if strings.Contains(table.String(), not) {
					t.Errorf("the table says %q:\n%s", not, table.String())
				}
			}
		})
	}
}

// TestReportLine checks the report as -json -watch's first line: one line,
// ending in a newline, that decodes to what the document does, with kind
// "report"; a newline within a string does not break it.
func TestReportLine(t *testing.T) {
	r := newReport()
	r.Warnings = []string{"two\nlines"}
	var line, doc bytes.Buffer
	if err := writeReport(&line, r, formatJSONLines); err != nil {
		t.Fatal(err)
	}
	if err := writeReport(&doc, r, formatJSON); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(line.String(), "\n"); n != 1 || !strings.HasSuffix(line.String(), "\n") {
		t.Errorf("the report line has %d newlines; want one, at its end:\n%s", n, line.String())
	}
	var fromLine, fromDoc map[string]any
	if err := json.Unmarshal(line.Bytes(), &fromLine); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc.Bytes(), &fromDoc); err != nil {
		t.Fatal(err)
	}
	if fromLine["kind"] != kindReport || !reflect.DeepEqual(fromLine, fromDoc) {
		t.Errorf("the line %v; want the document's fields %v, kind %q", fromLine, fromDoc, kindReport)
	}
}

// reportJSON writes r as -json does and decodes it back.
func reportJSON(t *testing.T, r report) map[string]any {
	t.Helper()
	var js bytes.Buffer
	if err := writeReport(&js, r, formatJSON); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(js.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRawClockRow checks that the raw clock's cost is one row, read raw
// clock, whatever path the brackets take: its figure printed once, with
// the path that was timed and the clock it reads.
func TestRawClockRow(t *testing.T) {
	for _, tc := range []struct {
		kind, path string
	}{
		{"vdso", "through the vDSO, with no system call"},
		{"system call", "by a system call"},
		{"runtime", "through the runtime, there being no raw clock here"},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			r := newReport()
			r.DriftAgainst = "CLOCK_MONOTONIC_RAW"
			r.ReadNS = map[string]float64{"now": 14.8, "time_now": 38.8, "raw_monotonic": 123.4}
			r.BracketRead, r.BracketReadNS = tc.kind, 123.4
			var table bytes.Buffer
			if err := writeTable(&table, r); err != nil {
				t.Fatal(err)
			}
			out := table.String()
			want := regexp.MustCompile(`(?m)^read raw clock +` + regexp.QuoteMeta("123.4 ns a read (median), "+tc.path+": CLOCK_MONOTONIC_RAW, which the library measures and checks the counter's rate against") + `$`)
			if !want.MatchString(out) {
				t.Errorf("the table has no row matching %s:\n%s", want, out)
			}
			if n := strings.Count(out, "123.4"); n != 1 {
				t.Errorf("the raw clock's cost is printed %d times; want once:\n%s", n, out)
			}
		})
	}
}

// TestOutlier checks which floors' max the table calls an interrupt or a
// preemption: one more than four times the 99th percentile, and none where
// the 99th percentile is 0 ticks.
func TestOutlier(t *testing.T) {
	for _, tc := range []struct {
		f    floorTicks
		want bool
	}{
		{floorTicks{P50: 38, P99: 42, Max: 7188}, true},
		{floorTicks{P50: 38, P99: 42, Max: 169}, true},
		{floorTicks{P50: 38, P99: 42, Max: 168}, false},
		{floorTicks{P50: 38, P99: 42, Max: 42}, false},
		{floorTicks{P50: 0, P99: 0, Max: 42}, false}, // a counter slower than its reads
		{floorTicks{}, false},
	} {
		if got := outlier(tc.f); got != tc.want {
			t.Errorf("outlier(%+v) = %v; want %v", tc.f, got, tc.want)
		}
	}
}
