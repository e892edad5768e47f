package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/step"
)

// A table gathers rows of names and values, aligned by a tabwriter.
type table struct {
	tw *tabwriter.Writer
}

// row adds a row named name whose value is format filled with args; an
// empty name and value make the blank line that parts two sections.
func (t table) row(name, format string, args ...any) {
	fmt.Fprintf(t.tw, "%s\t%s\n", name, fmt.Sprintf(format, args...))
}

// writeTable prints r to out: first what an operator needs (the verdict,
// the rate and where it came from, whether the counter can be trusted
// across CPUs, what to do, and any warning), in plain words; then, under a
// heading, the measurements behind them, each row saying its unit and what
// it means; then a picture of the read floor. It writes once, the whole
// report, so that a failing out fails the first write, and returns the
// error of that write.
func writeTable(out io.Writer, r report) error {
	var buf bytes.Buffer
	t := table{tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)}
	tableVerdict(t, r)
	t.tw.Flush()
	buf.WriteString("\nThe measurements behind it:\n\n")
	t = table{tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)}
	tablePlatform(t, r)
	t.row("", "")
	tableDiscovery(t, r)
	t.row("", "")
	tableReads(t, r)
	t.tw.Flush()
	if r.ReadNote == "" && r.floorNow != nil && r.floorNow.Count() != 0 && r.Usable {
		buf.WriteString("\nThe read floor: what timing nothing between two Now reads measures, as a histogram:\n\n")
		if err := r.floorNow.Draw(&buf, r.floorRate); err != nil {
			return err
		}
	}
	// The tabwriter pads the last column too: trim each line's padding.
	var trimmed bytes.Buffer
	for line := range strings.Lines(buf.String()) {
		trimmed.WriteString(strings.TrimRight(line, " \n"))
		trimmed.WriteByte('\n')
	}
	_, err := out.Write(trimmed.Bytes())
	return err
}

// sourceWords says where a rate came from, as counter.RateSource names it,
// in words.
var sourceWords = map[string]string{
	"measured":                   "measured against the kernel's raw clock",
	"cpuid-0x15":                 "as the CPU reports it",
	"cpuid-0x15-nominal-crystal": "from the CPU's ratio and its model's crystal",
	"cpuid-0x40000010":           "as the hypervisor reports it",
	"cntfrq":                     "as the firmware set it",
}

// tableVerdict adds the rows an operator reads first: the verdict, the
// rate, the counter across CPUs, what to do, and the warnings.
func tableVerdict(t table, r report) {
	if !r.Usable {
		t.row("verdict", "do not time with this counter: %s", r.Refusal)
		t.row("what to do", "%s", r.Instead)
		for _, w := range r.Warnings {
			t.row("warning", "%s", w)
		}
		return
	}
	t.row("verdict", "this machine's counter can time code: counter.Discover gives a Counter at %s", r.Rate)
	how := sourceWords[r.Source]
	if how == "" {
		how = "from " + r.Source
	}
	t.row("rate", "%s, %s (source %s), found in %.1f ms, to within %s ppm", r.Rate, how, r.Source, r.DiscoverMS, formatPPM(r.UncertaintyPPM, false))
	t.row("across CPUs", "%s", acrossCPUs(r))
	t.row("what to do", "call counter.Discover once at start-up and time with the Counter it returns; run a counter.Watch beside the service to hear if that changes")
	for _, w := range r.Warnings {
		t.row("warning", "%s", w)
	}
}

// acrossCPUs says in words whether a span may start on one CPU and end on
// another: what handing readings between CPUs and the per-CPU check found.
func acrossCPUs(r report) string {
	cc := r.CrossCore
	switch {
	case cc.Checked && cc.WorstBackTicks != 0:
		return fmt.Sprintf("not trusted: a reading handed to another CPU was behind that CPU's counter by up to %.0f ns; record spans with RecordCPU, which sets apart those that changed CPU", cc.WorstBackNS)
	case cc.Checked && len(r.CPUOffsetsNS) > 1:
		return fmt.Sprintf("trusted: readings handed between CPUs never went backwards in %d handoffs, and each CPU's counter is within ±%.0f ns of the first's", cc.Handoffs, r.CPUOffsetBoundNS)
	case cc.Checked:
		return fmt.Sprintf("trusted: readings handed between CPUs never went backwards in %d handoffs", cc.Handoffs)
	}
	return cc.Reason // "not checked: …"
}

// tablePlatform adds the platform's rows: CPU, hypervisor, Discover's
// invariance decision, RDTSCP, clocksource and the kernel's rate.
func tablePlatform(t table, r report) {
	t.row("platform", "%s/%s, %d CPUs", r.GOOS, r.GOARCH, r.CPUs)
	t.row("cpu", "%s (%s)", orUnknown(r.CPUBrand), orUnknown(r.CPUVendor))
	if r.Hypervisor != "" {
		t.row("hypervisor", "%s: a virtual machine, whose host sets the counter's rate and can move it", r.Hypervisor)
	} else {
		t.row("hypervisor", "none seen")
	}
	steady := map[string]string{
		"yes": "yes: the counter keeps one rate whatever the CPU's power state",
		"no":  "no: the counter's rate may change with the CPU's power state",
	}[r.InvariantTSC]
	if steady == "" {
		steady = r.InvariantTSC + ": not known whether the counter keeps one rate in every power state"
	}
	if len(r.CPUFlags) > 0 {
		t.row("steady rate", "%s (%s; /proc/cpuinfo: %s)", steady, r.invariantWhy, flagList(r.CPUFlags, "constant_tsc", "nonstop_tsc"))
	} else {
		t.row("steady rate", "%s (%s)", steady, r.invariantWhy)
	}
	if r.GOARCH == "amd64" || r.GOARCH == "386" {
		says := "yes: a reading can say which CPU took it (RDTSCP"
		if !r.RDTSCP {
			says = "no: a reading cannot say which CPU took it (no RDTSCP"
		}
		if len(r.CPUFlags) > 0 {
			t.row("cpu in reading", "%s; CPUID; /proc/cpuinfo: %s)", says, flagList(r.CPUFlags, "rdtscp"))
		} else {
			t.row("cpu in reading", "%s; CPUID)", says)
		}
	}
	if r.Clocksource != "" {
		t.row("kernel's clock", "%s: the source the kernel keeps time with", r.Clocksource)
	}
	if r.KernelHz != 0 {
		t.row("kernel's rate", "%s (%d Hz): the counter's rate as the kernel logged it", hzString(r.KernelHz), r.KernelHz)
	}
}

// tableDiscovery adds discovery's rows, the rate or the refusal, and the
// drift against the raw clock.
func tableDiscovery(t table, r report) {
	if r.Usable {
		t.row("rate", "%s (%d Hz)", r.Rate, r.RateHz)
		t.row("source", "%s", r.Source)
		if r.ReportedHz != 0 && r.Source == counter.SourceMeasured.String() {
			t.row("reported", "%s (%d Hz), distrusted: a short measurement disagreed", hzString(r.ReportedHz), r.ReportedHz)
		}
		t.row("discovery", "%.1f ms: how long counter.Discover took", r.DiscoverMS)
		t.row("uncertainty", "%s ppm: %s", formatPPM(r.UncertaintyPPM, false), r.UncertaintyFrom)
		if r.KernelHz != 0 {
			t.row("vs kernel", "%s ppm from the kernel's rate, which it logs to 1 kHz", formatPPM(r.KernelPPM, true))
		}
	} else {
		t.row("rate", "refused")
		t.row("discovery", "%.1f ms: how long counter.Discover took to refuse", r.DiscoverMS)
	}
	if r.DriftNote == "" {
		t.row("drift", "%s ppm against %s over %.0f ms: how far the counter strayed from the kernel's raw clock (this check can tell ±%s ppm)", formatPPM(r.DriftPPM, true), r.DriftAgainst, r.WindowMS, formatPPM(r.DriftBoundPPM, false))
	} else {
		t.row("drift", "%s", r.DriftNote)
	}
}

// tableReads adds the cost of each read, the counter's resolution beside
// the least advance a read sees, its read floor and what handing readings
// between CPUs found.
func tableReads(t table, r report) {
	if r.ReadNote != "" {
		t.row("reads", "%s", r.ReadNote)
	} else {
		for _, k := range readOrder {
			if v, ok := r.ReadNS[k.key]; ok {
				t.row("read "+k.name, "%.1f ns a read (median)", v)
			}
		}
		tableRawClock(t, r)
		tableResolution(t, r)
		tableLeastGap(t, r)
		tableFloor(t, "floor Now→Now", r.FloorNowTicks, r.FloorNowNS, r.Usable)
		tableFloor(t, "floor Begin→End", r.FloorBeginEndTicks, r.FloorBeginEndNS, r.Usable)
	}
	if r.CPUOffsetNote != "" {
		t.row("cpu offsets", "%s", r.CPUOffsetNote)
	} else {
		t.row("cpu offsets", "%s: each CPU's counter against the first's (the measurement cannot tell apart ±%.0f ns)", offsetList(r.CPUOffsetsNS), r.CPUOffsetBoundNS)
	}
	cc := r.CrossCore
	switch {
	case !cc.Checked:
		t.row("cpu handoffs", "%s", cc.Reason)
	case cc.WorstBackTicks == 0:
		t.row("cpu handoffs", "no reading went backwards in %d handoffs between %d ordered pairs of CPUs (a skew under %.0f ns would not show)", cc.Handoffs, cc.Pairs, max(cc.MinHandoffNS, r.StepNS))
	default:
		t.row("cpu handoffs", "a reading went backwards by up to %d ticks (%.0f ns), CPU %d to CPU %d; %d of %d ordered pairs in %d handoffs", cc.WorstBackTicks, cc.WorstBackNS, cc.WorstFrom, cc.WorstTo, cc.BackwardPairs, cc.Pairs, cc.Handoffs)
	}
}

// tableResolution adds the counter's resolution, in ticks and, where the
// counter is usable, in ns, with the advice it gives for short code.
func tableResolution(t table, r report) {
	if r.ResolutionTicks == 0 {
		t.row("resolution", "none: the counter did not advance in %d back-to-back reads", step.Pairs+1)
		return
	}
	ticks := strconv.FormatFloat(r.ResolutionTicks, 'f', -1, 64) + " ticks"
	if r.ResolutionTicks == 1 {
		ticks = "1 tick"
	}
	if r.Usable {
		ticks += " (" + strconv.FormatFloat(r.ResolutionNS, 'f', -1, 64) + " ns)"
	}
	t.row("resolution", "%s: the counter's own increment, the step its readings move in, however long a read takes (from %d back-to-back NowUnordered reads); code shorter than it times as whole increments: average many spans (a Snapshot's Mean)", ticks, step.Pairs+1)
}

// tableLeastGap adds the least gap between two back-to-back Begin
// readings (step_ticks), in ticks and, where the counter is usable, in ns,
// and says what it is here: about a read's cost where it is more than the
// resolution and a tick (a counter scaled to read in finer ticks than it
// counts advances by its resolution rounded up), else one increment. The
// resolution row and this one are two figures, and say so: the counter's
// increment, and what a read lets one see of it.
func tableLeastGap(t table, r report) {
	if r.StepTicks == 0 {
		t.row("least gap", "none: no two back-to-back Begin readings differed")
		return
	}
	gap := strconv.FormatInt(r.StepTicks, 10) + " ticks"
	if r.Usable {
		gap += " (" + strconv.FormatFloat(r.StepNS, 'f', 1, 64) + " ns)"
	}
	is := "one increment here, as the counter steps more slowly than a read"
	if float64(r.StepTicks) > r.ResolutionTicks+1 {
		is = "about one Begin read's cost here, not the resolution: reads are slower than the counter's increment"
	}
	t.row("least gap", "%s: the least two back-to-back Begin readings differ by: %s", gap, is)
}

// tableFloor adds the row named name of a read floor: its p50, p99 and max
// in ticks, and in ns where the counter is usable and so has a rate; where
// the max is an outlier, the row says what made it.
func tableFloor(t table, name string, ticks floorTicks, ns floorNS, usable bool) {
	what := fmt.Sprintf(": what timing nothing measures, from %d empty spans; take the median off short spans", counter.FloorSpans)
	if outlier(ticks) {
		what += "; the max is a span an interrupt or a preemption fell in, not the reads' cost"
	}
	if usable {
		t.row(name, "median %d ticks (%.1f ns), 99%% %d ticks (%.1f ns), max %d ticks (%.1f ns)%s",
			ticks.P50, ns.P50, ticks.P99, ns.P99, ticks.Max, ns.Max, what)
	} else {
		t.row(name, "median %d ticks, 99%% %d ticks, max %d ticks%s", ticks.P50, ticks.P99, ticks.Max, what)
	}
}

// outlier reports whether a floor's max lies more than four times its 99th
// percentile: no jitter of the reads stretches a span that far, and an
// interrupt or a preemption, microseconds against reads of nanoseconds,
// does. A floor of 0 ticks at its 99th percentile, a counter slower than
// its reads, says nothing of what a read costs, and gives no outlier.
func outlier(f floorTicks) bool {
	return f.P99 > 0 && f.Max > 4*f.P99
}

// readOrder is the order and the table's names of the reads in read_ns.
var readOrder = []struct{ key, name string }{
	{"now", "Now"},
	{"now_unordered", "NowUnordered"},
	{"begin", "Begin"},
	{"end", "End"},
	{"now_cpu", "NowCPU"},
	{"monotonic", "Monotonic().Now"},
	{"time_now", "time.Now"},
}

// rawPaths says, for each rawclock.Clock.Kind, how the raw clock was read.
var rawPaths = map[string]string{
	"vdso":        "through the vDSO, with no system call",
	"system call": "by a system call",
	"runtime":     "through the runtime, there being no raw clock here",
}

// tableRawClock adds the row of the raw clock's read, read_ns's
// raw_monotonic: its cost, and the path the package's brackets take to it
// (bracket_read), which is the path that was timed.
func tableRawClock(t table, r report) {
	v, ok := r.ReadNS["raw_monotonic"]
	if !ok {
		return
	}
	path := rawPaths[r.BracketRead]
	if path == "" {
		path = "by " + r.BracketRead
	}
	t.row("read raw clock", "%.1f ns a read (median), %s: %s, which the library measures and checks the counter's rate against", v, path, r.DriftAgainst)
}

// orUnknown returns s, or "unknown" where s is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// flagList lists the named flags, present ones bare and absent ones as
// "no name".
func flagList(flags map[string]bool, names ...string) string {
	var s []string
	for _, f := range names {
		if have, ok := flags[f]; ok {
			if have {
				s = append(s, f)
			} else {
				s = append(s, "no "+f)
			}
		}
	}
	return strings.Join(s, ", ")
}

// hzString prints a rate in hertz as counter.TickRate does.
func hzString(hz uint64) string {
	r, err := counter.NewTickRate(hz)
	if err != nil {
		return "0 Hz"
	}
	return r.String()
}

// offsetList prints per-CPU offsets in CPU order, each as "CPU", the CPU's
// number and its signed offset in nanoseconds.
func offsetList(offsets map[string]float64) string {
	cpus := make([]int, 0, len(offsets))
	for k := range offsets {
		if n, err := strconv.Atoi(k); err == nil {
			cpus = append(cpus, n)
		}
	}
	slices.Sort(cpus)
	parts := make([]string, len(cpus))
	for i, cpu := range cpus {
		parts[i] = fmt.Sprintf("CPU %d %+.0f ns", cpu, offsets[strconv.Itoa(cpu)])
	}
	return strings.Join(parts, ", ")
}
