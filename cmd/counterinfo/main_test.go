package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/rawclock"
)

// quick are the flags that keep a test's run short.
var quick = []string{"-window", "20ms", "-crosscore", "20ms"}

// runCmd runs the command in-process with discover and returns its exit
// status and what it printed.
func runCmd(t *testing.T, discover discoverFunc, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = runWith(discover, args, &out, &errOut)
	return status, out.String(), errOut.String()
}

// runJSON runs the command with -json and the quick flags and decodes its
// output.
func runJSON(t *testing.T, discover discoverFunc) (int, map[string]any) {
	t.Helper()
	status, out, errOut := runCmd(t, discover, append([]string{"-json"}, quick...)...)
	if errOut != "" {
		t.Errorf("stderr: %q; want nothing", errOut)
	}
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("output is not a JSON object: %v\n%s", err, out)
	}
	if dec.More() {
		t.Errorf("output holds more than one JSON value:\n%s", out)
	}
	if m["kind"] != kindReport {
		t.Errorf("kind %v; want %q", m["kind"], kindReport)
	}
	return status, m
}

// The JSON kinds a field may have.
const (
	isString = "string"
	isNumber = "number"
	isBool   = "bool"
	isObject = "object"
	isArray  = "array"
)

func kindOf(v any) string {
	switch v.(type) {
	case string:
		return isString
	case float64:
		return isNumber
	case bool:
		return isBool
	case map[string]any:
		return isObject
	case []any:
		return isArray
	}
	return fmt.Sprintf("%T", v)
}

// The documented fields and their kinds, the same whether the counter is
// usable or refused.
var (
	topFields = map[string]string{
		"kind": isString,
		"goos": isString, "goarch": isString, "cpus": isNumber,
		"cpu_brand": isString, "cpu_vendor": isString, "hypervisor": isString,
		"invariant_tsc": isString, "rdtscp": isBool, "cpu_flags": isObject,
		"clocksource": isString, "kernel_hz": isNumber,
		"usable": isBool, "rate_hz": isNumber, "rate": isString, "source": isString,
		"reported_hz": isNumber, "refusal": isString, "instead": isString,
		"discover_ms": isNumber, "uncertainty_ppm": isNumber, "uncertainty_from": isString,
		"kernel_ppm": isNumber,
		"window_ms":  isNumber, "drift_ppm": isNumber, "drift_bound_ppm": isNumber,
		"drift_against": isString, "drift_note": isString,
		"read_ns": isObject, "read_note": isString, "step_ticks": isNumber, "step_ns": isNumber,
		"resolution_ticks": isNumber, "resolution_ns": isNumber,
		"cross_core": isObject, "warnings": isArray,
		"cpu_offsets_ns": isObject, "cpu_offset_bound_ns": isNumber, "cpu_offset_note": isString,
		"floor_now_ticks": isObject, "floor_now_ns": isObject,
		"floor_begin_end_ticks": isObject, "floor_begin_end_ns": isObject,
		"bracket_read": isString, "bracket_read_ns": isNumber,
	}
	// floorFields are the fields of each floor_* object.
	floorFields = map[string]string{"p50": isNumber, "p99": isNumber, "max": isNumber}
	// floorPairs are the floor_* objects, in ticks and in ns, of each pair.
	floorPairs = []struct{ ticks, ns string }{
		{"floor_now_ticks", "floor_now_ns"},
		{"floor_begin_end_ticks", "floor_begin_end_ns"},
	}
	crossCoreFields = map[string]string{
		"checked": isBool, "reason": isString, "cpus": isArray, "pairs": isNumber,
		"handoffs": isNumber, "worst_back_ticks": isNumber, "worst_back_ns": isNumber,
		"worst_from": isNumber, "worst_to": isNumber, "backward_pairs": isNumber,
		"min_handoff_ticks": isNumber, "min_handoff_ns": isNumber,
	}
	readKeys = []string{"now", "now_unordered", "begin", "end", "now_cpu", "time_now", "monotonic", "raw_monotonic"}
)

// checkShape checks that m has exactly the fields of want, each of its kind.
func checkShape(t *testing.T, where string, m map[string]any, want map[string]string) {
	t.Helper()
	for name, kind := range want {
		v, ok := m[name]
		if !ok {
			t.Errorf("%s: no field %q", where, name)
			continue
		}
		if got := kindOf(v); got != kind {
			t.Errorf("%s: %q is a %s (%v); want a %s", where, name, got, v, kind)
		}
	}
	for name := range m {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: undocumented field %q", where, name)
		}
	}
}

// checkReport checks the properties every report has, and returns its
// cross_core object.
func checkReport(t *testing.T, status int, m map[string]any) map[string]any {
	t.Helper()
	checkShape(t, "report", m, topFields)
	cc, _ := m["cross_core"].(map[string]any)
	checkShape(t, "cross_core", cc, crossCoreFields)
	for _, p := range floorPairs {
		for _, name := range []string{p.ticks, p.ns} {
			f, _ := m[name].(map[string]any)
			checkShape(t, name, f, floorFields)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	usable := m["usable"].(bool)
	refusal := m["refusal"].(string)
	rate := m["rate_hz"].(float64)
	if usable != (refusal == "") {
		t.Errorf("usable %v with refusal %q; want usable exactly when the refusal is empty", usable, refusal)
	}
	if usable {
		if status != exitUsable {
			t.Errorf("exit status %d; want %d for a usable counter", status, exitUsable)
		}
		if rate < 1e6 || rate > 1e10 {
			t.Errorf("rate_hz %v; want 1e6 to 1e10", rate)
		}
		if m["rate"] == "" || m["instead"] != "" {
			t.Errorf("rate %q, instead %q; want a rate and no advice", m["rate"], m["instead"])
		}
	} else {
		if status != exitRefused {
			t.Errorf("exit status %d; want %d for a refused counter", status, exitRefused)
		}
		if rate != 0 || m["rate"] != "" {
			t.Errorf("rate_hz %v, rate %q; want 0 and \"\" when refused", rate, m["rate"])
		}
		if m["instead"] == "" {
			t.Error("instead is empty; want what to read instead of a refused counter")
		}
		if cc["checked"] == true {
			t.Error("cross_core checked a refused counter")
		}
	}
	if m["discover_ms"].(float64) < 0 {
		t.Errorf("discover_ms %v; want ≥ 0", m["discover_ms"])
	}
	if m["window_ms"].(float64) != 20 {
		t.Errorf("window_ms %v; want 20, as -window 20ms asked", m["window_ms"])
	}
	switch s := m["invariant_tsc"]; s {
	case "yes", "no", "unknown":
	default:
		t.Errorf("invariant_tsc %q; want yes, no or unknown", s)
	}
	if cc["checked"] == true {
		if cc["reason"] != "" {
			t.Errorf("cross_core checked, with reason %q; want none", cc["reason"])
		}
		if n := len(cc["cpus"].([]any)); cc["pairs"].(float64) != float64(n*(n-1)) {
			t.Errorf("cross_core: %v ordered pairs of %d CPUs; want %d", cc["pairs"], n, n*(n-1))
		}
		if cc["worst_back_ticks"].(float64) < 0 || cc["handoffs"].(float64) < cc["pairs"].(float64) {
			t.Errorf("cross_core: worst_back_ticks %v, handoffs %v for %v pairs", cc["worst_back_ticks"], cc["handoffs"], cc["pairs"])
		}
	} else if cc["reason"] == "" {
		t.Error("cross_core not checked, with no reason")
	}
	// worst_from and worst_to name CPUs exactly where there was a backward
	// step, and are -1 otherwise.
	if back := cc["worst_back_ticks"].(float64) > 0; back != (cc["worst_from"].(float64) >= 0) || back != (cc["worst_to"].(float64) >= 0) ||
		!back && (cc["worst_from"] != -1.0 || cc["worst_to"] != -1.0) {
		t.Errorf("cross_core: worst %v ticks from CPU %v to %v; want CPUs exactly where a step went back, else -1", cc["worst_back_ticks"], cc["worst_from"], cc["worst_to"])
	}
	return cc
}

// checkReads checks that every read was measured and costs something.
func checkReads(t *testing.T, m map[string]any) {
	t.Helper()
	reads := m["read_ns"].(map[string]any)
	for _, k := range readKeys {
		v, ok := reads[k].(float64)
		if !ok || v <= 0 {
			t.Errorf("read_ns[%q] = %v; want a number > 0", k, reads[k])
		}
	}
	if len(reads) != len(readKeys) {
		t.Errorf("read_ns has %d reads (%v); want %d", len(reads), reads, len(readKeys))
	}
	if m["read_note"] != "" {
		t.Errorf("read_note %q; want none where reads were measured", m["read_note"])
	}
	if m["step_ticks"].(float64) <= 0 {
		t.Errorf("step_ticks %v; want > 0", m["step_ticks"])
	}
	// step_ns is step_ticks at the rate, to a tenth; 0 when refused.
	wantStep := 0.0
	if m["usable"] == true {
		wantStep = m["step_ticks"].(float64) * 1e9 / m["rate_hz"].(float64)
	}
	if got := m["step_ns"].(float64); math.Abs(got-wantStep) > 0.05+1e-9*wantStep {
		t.Errorf("step_ns %v; want %v ticks at %v Hz, %.3f ns to a tenth", got, m["step_ticks"], m["rate_hz"], wantStep)
	}
	// The resolution divides every difference of readings, Begin's too,
	// so it is at most the least advance; a counter scaled to read in
	// finer ticks than it counts advances by the resolution rounded down
	// or up, so at most a tick more. In ns, the ticks at the rate, to a
	// hundredth.
	res := m["resolution_ticks"].(float64)
	if res <= 0 || res > m["step_ticks"].(float64)+1 {
		t.Errorf("resolution_ticks %v; want above 0 and at most step_ticks %v + 1", res, m["step_ticks"])
	}
	// resolution_ticks is rounded to a hundredth too: the ns may be off by
	// that hundredth of a tick at the rate, and half a hundredth of a ns.
	wantRes, within := 0.0, 0.0
	if rate := m["rate_hz"].(float64); m["usable"] == true {
		wantRes, within = res*1e9/rate, 0.005+0.005*1e9/rate+1e-9
	}
	if got := m["resolution_ns"].(float64); math.Abs(got-wantRes) > within {
		t.Errorf("resolution_ns %v; want %v ticks at %v Hz, %.4f ns to a hundredth (0 when refused)", got, res, m["rate_hz"], wantRes)
	}
	if k := m["bracket_read"]; k != rawclock.Open(false).Kind() || m["bracket_read_ns"].(float64) <= 0 {
		t.Errorf("bracket_read %v at %v ns; want %q at more than 0 ns", k, m["bracket_read_ns"], rawclock.Open(false).Kind())
	}
	// The raw clock is timed once, by the brackets' path.
	if m["bracket_read_ns"] != reads["raw_monotonic"] {
		t.Errorf("bracket_read_ns %v, read_ns[raw_monotonic] %v; want the one figure in both", m["bracket_read_ns"], reads["raw_monotonic"])
	}
	checkFloor(t, m)
}

// checkFloor checks that each read floor was measured: whole ticks with
// p50 <= p99 <= max and max > 0 (some of counter.FloorSpans empty spans
// cross a step), and the same in ns at rate_hz, to a tenth, where the
// counter is usable, or all 0 ns where it was refused.
func checkFloor(t *testing.T, m map[string]any) {
	t.Helper()
	rate := m["rate_hz"].(float64)
	for _, p := range floorPairs {
		ticks, ns := m[p.ticks].(map[string]any), m[p.ns].(map[string]any)
		p50, p99, most := ticks["p50"].(float64), ticks["p99"].(float64), ticks["max"].(float64)
		if !(0 <= p50 && p50 <= p99 && p99 <= most && most > 0) {
			t.Errorf("%s %v; want 0 <= p50 <= p99 <= max, max > 0", p.ticks, ticks)
		}
		for _, q := range []string{"p50", "p99", "max"} {
			n := ticks[q].(float64)
			if n != math.Trunc(n) {
				t.Errorf("%s.%s %v; want a whole number of ticks", p.ticks, q, n)
			}
			want := 0.0
			if m["usable"] == true {
				want = n * 1e9 / rate
			}
			if got := ns[q].(float64); math.Abs(got-want) > 0.05+1e-9*want {
				t.Errorf("%s.%s %v; want %v ticks at %v Hz, %.3f ns to a tenth", p.ns, q, got, n, rate, want)
			}
		}
	}
}

// TestJSON runs the real discovery and checks the report's shape and
// properties. Where COUNTER_EXPECT_BACKEND names a hardware counter, as CI
// sets it, the counter must be usable; elsewhere (purego, other
// architectures) a refusal is a correct answer too.
func TestJSON(t *testing.T) {
	status, m := runJSON(t, counter.DiscoverDetails)
	checkReport(t, status, m)
	checkReads(t, m)
	switch os.Getenv("COUNTER_EXPECT_BACKEND") {
	case "rdtsc", "cntvct":
		if m["usable"] != true {
			t.Fatalf("refused: %v; want a usable counter on this backend", m["refusal"])
		}
	}
	if m["usable"] == true {
		if m["drift_note"] != "" {
			t.Errorf("drift_note %q; want the drift measured", m["drift_note"])
		}
		drift, bound := m["drift_ppm"].(float64), m["drift_bound_ppm"].(float64)
		if bound <= 0 || math.Abs(drift) > bound+1000 {
			t.Errorf("drift %v ppm, bound %v ppm; want a bound > 0 and the drift within 1000 ppm of it", drift, bound)
		}
		if m["source"] == "none" || m["source"] == "" {
			t.Errorf("source %q; want where the rate came from", m["source"])
		}
		if m["invariant_tsc"] != "yes" {
			t.Errorf("invariant_tsc %q for a counter Discover accepted; want yes", m["invariant_tsc"])
		}
	}
	t.Logf("rate %v Hz from %v; drift %v ppm; reads %v; resolution %v ticks, least advance %v ticks; floor Now→Now %v ticks, Begin→End %v ticks; cross-core %v",
		m["rate_hz"], m["source"], m["drift_ppm"], m["read_ns"], m["resolution_ticks"], m["step_ticks"], m["floor_now_ticks"], m["floor_begin_end_ticks"], m["cross_core"])
}

// fixedRate is a discovery that finds 2.3 GHz, whatever the machine.
func fixedRate() (counter.Counter, counter.Discovery, error) {
	rate, err := counter.NewTickRate(2_300_000_000)
	if err != nil {
		panic(err)
	}
	return counter.New(rate), counter.Discovery{Rate: rate, Source: counter.SourceCrystal, Reported: rate.Hertz(), Took: time.Millisecond}, nil
}

// TestUnknownSpread checks that a measurement too sparse to estimate its
// spread (SpreadPPM +Inf, as on a slow machine) is reported as an unknown
// uncertainty, and the JSON report is still written.
func TestUnknownSpread(t *testing.T) {
	sparse := func() (counter.Counter, counter.Discovery, error) {
		c, d, err := fixedRate()
		d.Source, d.Window, d.SpreadPPM = counter.SourceMeasured, 10*time.Millisecond, math.Inf(1)
		return c, d, err
	}
	status, m := runJSON(t, sparse)
	if status != exitUsable || m["uncertainty_ppm"] != 0.0 || !strings.HasPrefix(m["uncertainty_from"].(string), "unknown") {
		t.Errorf("status %d, uncertainty_ppm %v, uncertainty_from %q; want %d, 0, unknown", status, m["uncertainty_ppm"], m["uncertainty_from"], exitUsable)
	}
}

// refusing returns a discovery that refuses with err.
func refusing(err error) discoverFunc {
	return func() (counter.Counter, counter.Discovery, error) {
		return counter.Counter{}, counter.Discovery{Took: time.Millisecond}, err
	}
}

func TestInjectedRate(t *testing.T) {
	status, m := runJSON(t, fixedRate)
	checkReport(t, status, m)
	checkReads(t, m)
	if status != exitUsable || m["rate_hz"] != 2.3e9 || m["rate"] != "2.3 GHz" || m["source"] != "cpuid-0x15" {
		t.Errorf("status %d, rate_hz %v, rate %q, source %q; want 0, 2.3e9, 2.3 GHz, cpuid-0x15",
			status, m["rate_hz"], m["rate"], m["source"])
	}
	if m["uncertainty_from"] == "" {
		t.Error("uncertainty_from is empty; want why there is no uncertainty")
	}
}

func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"not-invariant", counter.ErrNotInvariant},
		{"no-rate", counter.ErrNoRate},
		{"out-of-range", fmt.Errorf("counter: a rate of 42 Hz (measured) is outside 1 MHz to 10 GHz: %w", counter.ErrRateOutOfRange)},
		{"measure", fmt.Errorf("%w: the thread moved between CPUs", counter.ErrMeasure)},
		{"unsupported", fmt.Errorf("counter: no counter here: %w", errors.ErrUnsupported)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, m := runJSON(t, refusing(tc.err))
			checkReport(t, status, m)
			checkReads(t, m)
			if status != exitRefused || m["refusal"] != tc.err.Error() {
				t.Errorf("status %d, refusal %q; want %d, %q", status, m["refusal"], exitRefused, tc.err.Error())
			}
			if m["drift_note"] == "" {
				t.Error("drift_note is empty; want why a refused counter has no drift")
			}
		})
	}
}

// TestDisabled checks that where the counter's instruction faults, nothing
// reads it: read_ns is empty and says why.
func TestDisabled(t *testing.T) {
	status, m := runJSON(t, refusing(counter.ErrDisabled))
	cc := checkReport(t, status, m)
	if status != exitRefused || m["refusal"] != counter.ErrDisabled.Error() {
		t.Errorf("status %d, refusal %q; want %d, %q", status, m["refusal"], exitRefused, counter.ErrDisabled.Error())
	}
	if reads := m["read_ns"].(map[string]any); len(reads) != 0 {
		t.Errorf("read_ns %v; want no reads of a faulting counter", reads)
	}
	if m["read_note"] == "" || m["drift_note"] == "" || cc["reason"] == "" {
		t.Errorf("read_note %q, drift_note %q, cross_core reason %q; want each to say why it was skipped",
			m["read_note"], m["drift_note"], cc["reason"])
	}
	for _, p := range floorPairs {
		for _, name := range []string{p.ticks, p.ns} {
			if f := m[name].(map[string]any); f["p50"] != 0.0 || f["p99"] != 0.0 || f["max"] != 0.0 {
				t.Errorf("%s %v; want all 0 for a faulting counter", name, f)
			}
		}
	}
	if !strings.HasSuffix(m["instead"].(string), "go doc counter.ErrDisabled") {
		t.Errorf("instead %q; want it to point to go doc counter.ErrDisabled", m["instead"])
	}
}

func TestHumanOutput(t *testing.T) {
	status, out, errOut := runCmd(t, fixedRate, quick...)
	if status != exitUsable || errOut != "" {
		t.Fatalf("status %d, stderr %q; want 0 and nothing", status, errOut)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^rate +2\.3 GHz \(2300000000 Hz\)$`),
		regexp.MustCompile(`(?m)^source +cpuid-0x15$`),
		regexp.MustCompile(`(?m)^platform +\w+/\w+, \d+ CPUs$`),
		regexp.MustCompile(`(?m)^read Now +[0-9.]+ ns a read \(median\)$`),
		regexp.MustCompile(`(?m)^read time\.Now +[0-9.]+ ns a read \(median\)$`),
		regexp.MustCompile(`(?m)^read raw clock +[0-9.]+ ns a read \(median\), (through the vDSO|by a system call|through the runtime)`),
		regexp.MustCompile(`(?m)^drift +[-+][0-9.]+ ppm against `),
		regexp.MustCompile(`(?m)^resolution +[0-9.]+ ticks? \([0-9.]+ ns\): the counter's own increment, .*a Snapshot's Mean`),
		regexp.MustCompile(`(?m)^least gap +\d+ ticks \([0-9.]+ ns\): the least two back-to-back Begin readings differ by: `),
		regexp.MustCompile(`(?m)^uncertainty +[0-9.]+ ppm: `),
		regexp.MustCompile(`(?m)^floor Now→Now +median \d+ ticks \([0-9.]+ ns\), 99% \d+ ticks \([0-9.]+ ns\), max \d+ ticks \([0-9.]+ ns\)` + floorWhat + `$`),
		regexp.MustCompile(`(?m)^floor Begin→End +median \d+ ticks \([0-9.]+ ns\), 99% \d+ ticks \([0-9.]+ ns\), max \d+ ticks \([0-9.]+ ns\)` + floorWhat + `$`),
		regexp.MustCompile(`(?m)^cpu handoffs +\S`),
		regexp.MustCompile(`(?m)\Averdict +this machine's counter can time code: counter\.Discover gives a Counter at 2\.3 GHz\n`),
		regexp.MustCompile(`(?m)^The measurements behind it:$`),
		regexp.MustCompile(`(?m)^The read floor: .*\n\n[0-9]+ spans\nmean .*\n +\S+ – \S+ +[0-9]+ `),
	} {
		if !want.MatchString(out) {
			t.Errorf("output has no line matching %v:\n%s", want, out)
		}
	}
	if strings.Contains(out, " \n") {
		t.Errorf("output has trailing spaces:\n%q", out)
	}

	status, out, _ = runCmd(t, refusing(counter.ErrNotInvariant), quick...)
	if status != exitRefused {
		t.Errorf("refused: status %d; want %d", status, exitRefused)
	}
	for _, want := range []string{"rate", "refused", counter.ErrNotInvariant.Error(), "counter.Monotonic()"} {
		if !strings.Contains(out, want) {
			t.Errorf("refused output lacks %q:\n%s", want, out)
		}
	}
	// A refused counter has no rate: its floor is in ticks only.
	for _, name := range []string{"Now→Now", "Begin→End"} {
		want := regexp.MustCompile(`(?m)^floor ` + name + ` +median \d+ ticks, 99% \d+ ticks, max \d+ ticks` + floorWhat + `$`)
		if !want.MatchString(out) {
			t.Errorf("refused output has no line matching %v:\n%s", want, out)
		}
	}
}

// floorWhat is what the table says a floor row means, and where its max is
// an outlier, what made it.
const floorWhat = `: what timing nothing measures, from 10000 empty spans; take the median off short spans(; the max is a span an interrupt or a preemption fell in, not the reads' cost)?`

// TestFloorReport checks that a report's read floors are printed as given,
// in -json and in the table, with the ns only where the counter is usable,
// the row whose max is an outlier saying what made it and the other not,
// and that no floor row is printed where reads were skipped.
func TestFloorReport(t *testing.T) {
	r := newReport()
	r.FloorNowTicks = floorTicks{P50: 42, P99: 63, Max: 2100}
	r.FloorNowNS = floorNS{P50: 20, P99: 30.1, Max: 1001.9}
	r.FloorBeginEndTicks = floorTicks{P50: 43, P99: 84, Max: 105}
	r.FloorBeginEndNS = floorNS{P50: 20.5, P99: 40.1, Max: 50.1}
	m := reportJSON(t, r)
	for name, want := range map[string]string{
		"floor_now_ticks":       `{"max":2100,"p50":42,"p99":63}`,
		"floor_now_ns":          `{"max":1001.9,"p50":20,"p99":30.1}`,
		"floor_begin_end_ticks": `{"max":105,"p50":43,"p99":84}`,
		"floor_begin_end_ns":    `{"max":50.1,"p50":20.5,"p99":40.1}`,
	} {
		if got, _ := json.Marshal(m[name]); string(got) != want {
			t.Errorf("%s %s; want %s", name, got, want)
		}
	}

	const (
		spans   = ": what timing nothing measures, from 10000 empty spans; take the median off short spans"
		outlier = "; the max is a span an interrupt or a preemption fell in, not the reads' cost"
	)
	for _, tc := range []struct {
		name   string
		usable bool
		note   string
		want   [][2]string // each floor row's name and value
	}{
		{"usable", true, "", [][2]string{
			{"floor Now→Now", "median 42 ticks (20.0 ns), 99% 63 ticks (30.1 ns), max 2100 ticks (1001.9 ns)" + spans + outlier},
			{"floor Begin→End", "median 43 ticks (20.5 ns), 99% 84 ticks (40.1 ns), max 105 ticks (50.1 ns)" + spans},
		}},
		{"refused", false, "", [][2]string{
			{"floor Now→Now", "median 42 ticks, 99% 63 ticks, max 2100 ticks" + spans + outlier},
			{"floor Begin→End", "median 43 ticks, 99% 84 ticks, max 105 ticks" + spans},
		}},
		{"skipped", false, "skipped", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.Usable, r.ReadNote = tc.usable, tc.note
			var table bytes.Buffer
			if err := writeTable(&table, r); err != nil {
				t.Fatal(err)
			}
			out := table.String()
			if n := strings.Count(out, "\nfloor "); n != len(tc.want) {
				t.Errorf("%d floor rows; want %d:\n%s", n, len(tc.want), out)
			}
			for _, row := range tc.want {
				want := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(row[0]) + ` +` + regexp.QuoteMeta(row[1]) + `$`)
				if !want.MatchString(out) {
					t.Errorf("table has no row %q %q:\n%s", row[0], row[1], out)
				}
			}
		})
	}
}

// mustNotRun is a discovery that fails the test where it is called: the
// command must refuse its flags before any work.
func mustNotRun(t *testing.T) discoverFunc {
	return func() (counter.Counter, counter.Discovery, error) {
		t.Error("discovery ran: the flags must be refused before any work")
		return counter.Counter{}, counter.Discovery{}, errors.New("discovery must not run")
	}
}

// TestFlags checks the exit status the help promises for each flag's bad
// values, and -h's: 2 before any work (discovery is never called), with a
// message on stderr that names the flag and the least (or most) value it
// takes, and nothing on stdout; 0 for -h, with the usage on stdout.
func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		want   []string // what stderr must say, each; for -h, stdout
	}{
		{[]string{"-h"}, exitUsable, []string{"Usage: counterinfo", "Exit status"}},
		{[]string{"-help"}, exitUsable, []string{"Usage: counterinfo", "Exit status"}},
		{[]string{"--help"}, exitUsable, []string{"Usage: counterinfo", "Exit status"}},

		{[]string{"-nosuchflag"}, exitUsage, []string{"-nosuchflag", "Usage:"}},
		{[]string{"extra"}, exitUsage, []string{`unexpected argument "extra"`, "Usage:"}},
		{[]string{"-json", "extra"}, exitUsage, []string{`unexpected argument "extra"`}},
		{[]string{"-json=maybe"}, exitUsage, []string{"-json"}},

		{[]string{"-window", "soon"}, exitUsage, []string{"-window"}},
		{[]string{"-window", "0"}, exitUsage, []string{"-window 0s:", "at least 20ms"}},
		{[]string{"-window=-1s"}, exitUsage, []string{"-window -1s:", "at least 20ms"}},
		{[]string{"-window", "10ms"}, exitUsage, []string{"-window 10ms: too short to measure the drift", "at least 20ms"}},
		{[]string{"-window", "19.999ms"}, exitUsage, []string{"-window 19.999ms:", "at least 20ms"}},

		{[]string{"-crosscore", "soon"}, exitUsage, []string{"-crosscore"}},
		{[]string{"-crosscore=-1ms"}, exitUsage, []string{"-crosscore -1ms:", "at least 0"}},

		{[]string{"-watch", "soon"}, exitUsage, []string{"-watch"}},
		{[]string{"-watch=-1s"}, exitUsage, []string{"-watch -1s:", "at least 0"}},
		{[]string{"-watch", "5ms", "-period", "10ms"}, exitUsage, []string{"-watch 5ms:", "at least 10ms"}},
		{[]string{"-watch", "500ms"}, exitUsage, []string{"-watch 500ms: shorter than -period's default of 1s", "-watch 1s", "-period of 10ms to 500ms"}},

		{[]string{"-period", "soon"}, exitUsage, []string{"-period"}},
		{[]string{"-period", "2s"}, exitUsage, []string{"-period 2s without -watch", "-watch 2s"}},
		{[]string{"-period", "1s"}, exitUsage, []string{"-period 1s without -watch"}},
		{[]string{"-watch", "0", "-period", "1s"}, exitUsage, []string{"-period 1s without -watch"}},
		{[]string{"-watch", "1s", "-period", "1ms"}, exitUsage, []string{"-period 1ms:", "at least 10ms"}},
		{[]string{"-watch", "1s", "-period", "0"}, exitUsage, []string{"-period 0s:", "at least 10ms"}},
		{[]string{"-watch", "1s", "-period=-1s"}, exitUsage, []string{"-period -1s:", "at least 10ms"}},
		{[]string{"-watch", "1s", "-period", "2s"}, exitUsage, []string{"-period 2s: longer than -watch 1s", "-period 1s", "-watch 2s"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			status, out, errOut := runCmd(t, mustNotRun(t), tc.args...)
			if status != tc.status {
				t.Errorf("exit status %d; want %d", status, tc.status)
			}
			said, silent, where := errOut, out, "stderr"
			if tc.status == exitUsable {
				said, silent, where = out, errOut, "stdout"
			}
			for _, want := range tc.want {
				if !strings.Contains(said, want) {
					t.Errorf("%s %q; want it to say %q", where, said, want)
				}
			}
			if silent != "" {
				t.Errorf("the other stream %q; want nothing", silent)
			}
			// The flag is named on the first line, before any usage.
			if first, _, _ := strings.Cut(errOut, "\n"); tc.status == exitUsage && !strings.Contains(first, tc.want[0]) {
				t.Errorf("stderr's first line %q; want it to say %q", first, tc.want[0])
			}
		})
	}
}

// TestCheckOptions checks the combinations of flags that can be honoured:
// each least value the messages name is taken.
func TestCheckOptions(t *testing.T) {
	def := options{window: 300 * time.Millisecond, crossCore: 200 * time.Millisecond, period: time.Second}
	with := func(f func(*options)) options { o := def; f(&o); return o }
	for _, tc := range []struct {
		name      string
		o         options
		periodSet bool
	}{
		{"the defaults", def, false},
		{"the least window", with(func(o *options) { o.window = leastWindow }), false},
		{"no cross-core check", with(func(o *options) { o.crossCore = 0 }), false},
		{"a watch of the default period", with(func(o *options) { o.watch = time.Second }), false},
		{"a watch of the least period", with(func(o *options) { o.watch, o.period = leastWatchPeriod, leastWatchPeriod }), true},
		{"a watch of two periods", with(func(o *options) { o.watch, o.period = 3*time.Second, 1500*time.Millisecond }), true},
		{"the default period given", with(func(o *options) { o.watch = 2 * time.Second }), true},
	} {
		if msg := checkOptions(tc.o, tc.periodSet); msg != "" {
			t.Errorf("%s: %q; want it taken", tc.name, msg)
		}
	}
}

// TestLeastWatchPeriod checks the copy of counter.Watch's least period the
// flags are checked against, and so leastWindow, against the watch's own
// refusal.
func TestLeastWatchPeriod(t *testing.T) {
	rate, _ := counter.NewTickRate(1_000_000_000)
	if _, err := counter.NewWatch(counter.New(rate), counter.WatchOptions{}); err != nil {
		t.Skipf("no watch here: %v", err)
	}
	if err := checkWatchPeriod(leastWatchPeriod); err != nil {
		t.Errorf("the watch refuses leastWatchPeriod %v: %v", leastWatchPeriod, err)
	}
	if err := checkWatchPeriod(leastWatchPeriod - 1); err == nil {
		t.Errorf("the watch takes %v, under leastWatchPeriod", leastWatchPeriod-1)
	}
	if leastWindow/2 != leastWatchPeriod {
		t.Errorf("leastWindow %v; want twice the least period %v, the longest period that fits the drift's three checks", leastWindow, leastWatchPeriod)
	}
}

// TestUsageWrapped checks the usage's paragraphs are filled: no line is
// wider than the widest, 75 columns, and none could take the next line's
// first word, as a stray line break would leave it.
func TestUsageWrapped(t *testing.T) {
	const width = 75
	paras := strings.Split(usageText, "\n\n")
	for _, p := range paras[1:] {
		lines := strings.Split(strings.TrimSuffix(p, "\n"), "\n")
		for i, l := range lines {
			if len(l) > width {
				t.Errorf("line %q is %d columns; want at most %d", l, len(l), width)
			}
			if i+1 < len(lines) && lines[i+1] != "" {
				if next := strings.Fields(lines[i+1])[0]; len(l)+1+len(next) <= width {
					t.Errorf("line %q could take the next line's %q: a stray line break", l, next)
				}
			}
		}
	}
	for _, want := range []string{"one JSON document", "JSON Lines", `"kind"`, `"report"`, `"event"`, `"summary"`} {
		if !strings.Contains(usageText, want) {
			t.Errorf("the usage does not say %s: which format each mode gives", want)
		}
	}
}

// TestHelp checks that -h and -help explain every flag on stdout and exit 0.
func TestHelp(t *testing.T) {
	var names []string
	newFlagSet(new(options)).VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	for _, arg := range []string{"-h", "-help", "--help"} {
		t.Run(arg, func(t *testing.T) {
			status, out, errOut := runCmd(t, refusing(errors.New("discovery must not run")), arg)
			if status != 0 || errOut != "" {
				t.Errorf("status %d, stderr %q; want 0 and nothing", status, errOut)
			}
			for _, name := range names {
				if !strings.Contains(out, "  -"+name) {
					t.Errorf("help does not explain -%s:\n%s", name, out)
				}
			}
			if !strings.Contains(out, "Exit status") {
				t.Errorf("help does not give the exit statuses:\n%s", out)
			}
		})
	}
}

// TestInvariantDecision checks that invariant_tsc is Discover's decision, as
// its error tells it, whatever /proc/cpuinfo or cpuid/v2 say.
func TestInvariantDecision(t *testing.T) {
	for _, tc := range []struct {
		name   string
		goarch string
		err    error
		want   string
	}{
		{"amd64 accepted", "amd64", nil, "yes"},
		{"arm64 accepted", "arm64", nil, "yes"},
		{"other accepted", "riscv64", nil, "yes"},
		{"not invariant", "amd64", counter.ErrNotInvariant, "no"},
		{"not invariant, wrapped", "amd64", fmt.Errorf("counter: in a test: %w", counter.ErrNotInvariant), "no"},
		{"refused after the check", "amd64", counter.ErrNoRate, "yes"},
		{"measurement refused", "arm64", counter.ErrMeasure, "yes"},
		{"out of range", "amd64", fmt.Errorf("counter: a rate of 42 Hz (measured) is outside 1 MHz to 10 GHz: %w", counter.ErrRateOutOfRange), "yes"},
		{"disabled", "amd64", counter.ErrDisabled, "unknown"},
		{"unsupported", "386", fmt.Errorf("counter: none: %w", errors.ErrUnsupported), "unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := invariantDecision(tc.goarch, tc.err)
			if got != tc.want || !strings.Contains(why, "Discover") {
				t.Errorf("got %q (%s); want %q, and a reason that names Discover", got, why, tc.want)
			}
		})
	}

	// The report and the table carry the injected discovery's decision
	// (reportDiscovery alone, to keep the test short: the full run's shape
	// is checked by TestJSON and TestRefusals).
	for _, tc := range []struct {
		discover discoverFunc
		want     string
	}{
		{fixedRate, "yes"},
		{refusing(counter.ErrNotInvariant), "no"},
		{refusing(counter.ErrMeasure), "yes"},
		{refusing(counter.ErrDisabled), "unknown"},
	} {
		r := newReport()
		reportDiscovery(&r, tc.discover)
		var js, table bytes.Buffer
		if err := writeReport(&js, r, formatJSON); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(js.Bytes(), &m); err != nil || m["invariant_tsc"] != tc.want {
			t.Errorf("invariant_tsc %q (%v); want %q", m["invariant_tsc"], err, tc.want)
		}
		if err := writeTable(&table, r); err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^steady rate +` + tc.want + `: .*\(counter\.Discover`).MatchString(table.String()) {
			t.Errorf("table has no invariant row saying %s after Discover:\n%s", tc.want, table.String())
		}
	}
}

func TestParseCPUFlags(t *testing.T) {
	for _, tc := range []struct {
		name, cpuinfo string
		want          map[string]bool
		invariant     string
	}{
		{"invariant", "processor\t: 0\nflags\t\t: fpu tsc rdtscp constant_tsc nonstop_tsc\nprocessor\t: 1\nflags\t\t: fpu\n",
			map[string]bool{"constant_tsc": true, "nonstop_tsc": true, "rdtscp": true}, "yes"},
		{"constant only", "flags : tsc constant_tsc\n",
			map[string]bool{"constant_tsc": true, "nonstop_tsc": false, "rdtscp": false}, "no"},
		{"no tsc flags", "flags\t: fpu vme\n",
			map[string]bool{"constant_tsc": false, "nonstop_tsc": false, "rdtscp": false}, "no"},
		{"not a prefix", "flags\t: constant_tsc_x nonstop_tsc\n",
			map[string]bool{"constant_tsc": false, "nonstop_tsc": true, "rdtscp": false}, "no"},
		{"arm64", "processor\t: 0\nFeatures\t: fp asimd evtstrm\n", nil, ""},
		{"empty", "", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := parseCPUFlags(tc.cpuinfo)
			if ok != (tc.want != nil) {
				t.Fatalf("found flags %v; want %v", ok, tc.want != nil)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v; want %v", got, tc.want)
			}
			if ok {
				if inv := invariantFromFlags(got); inv != tc.invariant {
					t.Errorf("invariant: got %v; want %v", inv, tc.invariant)
				}
			}
		})
	}
}

func TestParseKernelRate(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		want      uint64
	}{
		{"detected", "<6>[    0.000070] tsc: Detected 2445.434 MHz processor\n", 2_445_434_000},
		{"refined wins", "tsc: Detected 2300.000 MHz processor\ntsc: Refined TSC clocksource calibration: 2299.968 MHz\n", 2_299_968_000},
		{"refined before a later detected", "tsc: Refined TSC clocksource calibration: 2299.968 MHz\ntsc: Detected 2300.000 MHz processor\n", 2_299_968_000},
		{"last detected", "tsc: Detected 1000.000 MHz processor\ntsc: Detected 3000.5 MHz processor\n", 3_000_500_000},
		{"whole MHz", "tsc: Detected 2400 MHz TSC\n", 2_400_000_000},
		{"none", "clocksource: Switched to clocksource tsc\n", 0},
		{"empty", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := parseKernelRate(tc.log); got != tc.want {
				t.Errorf("got %v; want %v", got, tc.want)
			}
		})
	}
}
