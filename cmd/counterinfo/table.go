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

// writeTable prints r to out as an aligned table of names and values, in
// sections parted by blank lines, and returns the error of the write. It
// writes once, the whole table, so that a failing out fails the first write.
func writeTable(out io.Writer, r report) error {
	var buf bytes.Buffer
	t := table{tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)}
	tablePlatform(t, r)
	t.row("", "")
	tableDiscovery(t, r)
	t.row("", "")
	tableReads(t, r)
	t.row("", "")
	tableVerdict(t, r)
	t.tw.Flush()
	// The tabwriter pads the last column too: trim each line's padding.
	var trimmed bytes.Buffer
	for line := range strings.Lines(buf.String()) {
		trimmed.WriteString(strings.TrimRight(line, " \n"))
		trimmed.WriteByte('\n')
	}
	_, err := out.Write(trimmed.Bytes())
	return err
}

// tablePlatform adds the platform's rows: CPU, hypervisor, Discover's
// invariance decision, RDTSCP, clocksource and the kernel's rate.
func tablePlatform(t table, r report) {
	t.row("platform", "%s/%s, %d CPUs", r.GOOS, r.GOARCH, r.CPUs)
	t.row("cpu", "%s (%s)", orUnknown(r.CPUBrand), orUnknown(r.CPUVendor))
	if r.Hypervisor != "" {
		t.row("hypervisor", "%s (a virtual machine: the hypervisor owns the counter's offset and rate)", r.Hypervisor)
	} else {
		t.row("hypervisor", "none seen")
	}
	if len(r.CPUFlags) > 0 {
		t.row("invariant", "%s (%s; /proc/cpuinfo: %s)", r.InvariantTSC, r.invariantWhy, flagList(r.CPUFlags, "constant_tsc", "nonstop_tsc"))
	} else {
		t.row("invariant", "%s (%s)", r.InvariantTSC, r.invariantWhy)
	}
	if r.GOARCH == "amd64" || r.GOARCH == "386" {
		if len(r.CPUFlags) > 0 {
			t.row("rdtscp", "%s (CPUID; /proc/cpuinfo: %s)", yesNo(r.RDTSCP), flagList(r.CPUFlags, "rdtscp"))
		} else {
			t.row("rdtscp", "%s (CPUID)", yesNo(r.RDTSCP))
		}
	}
	if r.Clocksource != "" {
		t.row("clocksource", "%s", r.Clocksource)
	}
	if r.KernelHz != 0 {
		t.row("kernel's rate", "%s (%d Hz, from the kernel log)", hzString(r.KernelHz), r.KernelHz)
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
		t.row("discovery", "%.1f ms", r.DiscoverMS)
		t.row("uncertainty", "%s ppm (%s)", formatPPM(r.UncertaintyPPM, false), r.UncertaintyFrom)
		if r.KernelHz != 0 {
			t.row("vs kernel", "%s ppm (the kernel logs its rate to 1 kHz)", formatPPM(r.KernelPPM, true))
		}
	} else {
		t.row("rate", "refused")
		t.row("refusal", "%s", r.Refusal)
		t.row("instead", "%s", r.Instead)
		t.row("discovery", "%.1f ms", r.DiscoverMS)
	}
	if r.DriftNote == "" {
		t.row("drift", "%s ppm against %s over %.0f ms (±%s ppm: what the watch's brackets can vouch for)", formatPPM(r.DriftPPM, true), r.DriftAgainst, r.WindowMS, formatPPM(r.DriftBoundPPM, false))
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
				t.row("read "+k.name, "%.1f ns", v)
			}
		}
		if r.BracketRead != "" {
			t.row("brackets' raw read", "%s, %.1f ns: how discovery, the per-CPU check and the watch read CLOCK_MONOTONIC_RAW between two counter reads", r.BracketRead, r.BracketReadNS)
		}
		tableResolution(t, r)
		const advance = "the least advance from one Begin read to the next different one: about a read's cost where reads are slower than the counter; the watch's bounds allow for it"
		if r.Usable {
			t.row("least advance", "%d ticks (%.1f ns): "+advance, r.StepTicks, r.StepNS)
		} else {
			t.row("least advance", "%d ticks: "+advance, r.StepTicks)
		}
		tableFloor(t, "floor Now→Now", r.FloorNowTicks, r.FloorNowNS, r.Usable)
		tableFloor(t, "floor Begin→End", r.FloorBeginEndTicks, r.FloorBeginEndNS, r.Usable)
	}
	if r.CPUOffsetNote != "" {
		t.row("cpu offsets", "%s", r.CPUOffsetNote)
	} else {
		t.row("cpu offsets", "%s (each CPU's counter against the first's; the measurement explains up to ±%.0f ns)", offsetList(r.CPUOffsetsNS), r.CPUOffsetBoundNS)
	}
	cc := r.CrossCore
	switch {
	case !cc.Checked:
		t.row("cross-core", "%s", cc.Reason)
	case cc.WorstBackTicks == 0:
		t.row("cross-core", "no backward step in %d handoffs between %d ordered CPU pairs (a skew under %.0f ns, the quickest handoff or the least advance, would go unseen)", cc.Handoffs, cc.Pairs, max(cc.MinHandoffNS, r.StepNS))
	default:
		t.row("cross-core", "worst backward step %d ticks (%.0f ns), CPU %d to CPU %d; %d of %d ordered pairs stepped back in %d handoffs", cc.WorstBackTicks, cc.WorstBackNS, cc.WorstFrom, cc.WorstTo, cc.BackwardPairs, cc.Pairs, cc.Handoffs)
	}
}

// tableResolution adds the counter's resolution, in ticks and, where the
// counter is usable, in ns, with the advice it gives for short code.
func tableResolution(t table, r report) {
	if r.ResolutionTicks == 0 {
		t.row("resolution", "none: the counter did not advance in %d back-to-back NowUnordered reads", step.Pairs+1)
		return
	}
	ticks := strconv.FormatFloat(r.ResolutionTicks, 'f', -1, 64)
	if r.Usable {
		ticks += " ticks (" + strconv.FormatFloat(r.ResolutionNS, 'f', -1, 64) + " ns)"
	} else {
		ticks += " ticks"
	}
	t.row("resolution", "%s: the counter's least increment, from %d back-to-back NowUnordered reads; code shorter than it times as whole increments: read a Snapshot's Mean, not a quantile", ticks, step.Pairs+1)
}

// tableFloor adds the row named name of a read floor: its p50, p99 and max
// in ticks, and in ns where the counter is usable and so has a rate.
func tableFloor(t table, name string, ticks floorTicks, ns floorNS, usable bool) {
	const of = "of %d empty spans read back to back"
	if usable {
		t.row(name, "p50 %d ticks (%.1f ns), p99 %d ticks (%.1f ns), max %d ticks (%.1f ns) "+of,
			ticks.P50, ns.P50, ticks.P99, ns.P99, ticks.Max, ns.Max, counter.FloorSpans)
	} else {
		t.row(name, "p50 %d ticks, p99 %d ticks, max %d ticks "+of, ticks.P50, ticks.P99, ticks.Max, counter.FloorSpans)
	}
}

// tableVerdict adds the warnings and the verdict.
func tableVerdict(t table, r report) {
	for _, w := range r.Warnings {
		t.row("warning", "%s", w)
	}
	if r.Usable {
		t.row("verdict", "usable: counter.Discover gives a Counter at %s", r.Rate)
	} else {
		t.row("verdict", "refused: %s", r.Instead)
	}
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
	{"raw_monotonic", "raw clock"},
}

// orUnknown returns s, or "unknown" where s is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
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
