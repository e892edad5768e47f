package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tickstamp/counter"
)

// A report is everything counterinfo finds, as -json prints it. Its field
// names are stable: a number stays a number, a string a string, and an
// object an object (empty where there is nothing to put in it), whether the
// counter is usable or not. Where a value could not be found, a string says
// why.
type report struct {
	// Platform.
	GOOS         string          `json:"goos"`
	GOARCH       string          `json:"goarch"`
	CPUs         int             `json:"cpus"`          // logical CPUs this process may run on
	CPUBrand     string          `json:"cpu_brand"`     // "" where the CPU does not say
	CPUVendor    string          `json:"cpu_vendor"`    // "AMD", "Intel", "Apple", ...; "" where unknown
	Hypervisor   string          `json:"hypervisor"`    // "KVM", "MSVM", ...; "" where none is seen
	InvariantTSC string          `json:"invariant_tsc"` // "yes", "no" or "unknown"
	RDTSCP       bool            `json:"rdtscp"`        // the CPU has RDTSCP (amd64)
	CPUFlags     map[string]bool `json:"cpu_flags"`     // /proc/cpuinfo's constant_tsc, nonstop_tsc, rdtscp; {} where not read
	Clocksource  string          `json:"clocksource"`   // Linux's current clocksource; "" elsewhere
	KernelHz     uint64          `json:"kernel_hz"`     // the kernel's TSC rate from its log; 0 where not found

	// Discovery.
	Usable          bool    `json:"usable"`           // discovery found a rate
	RateHz          uint64  `json:"rate_hz"`          // 0 when refused
	Rate            string  `json:"rate"`             // "2.3 GHz"; "" when refused
	Source          string  `json:"source"`           // counter.Source's name: "measured", "cpuid-0x15", ...
	ReportedHz      uint64  `json:"reported_hz"`      // the rate the hardware reported; 0 for none
	Refusal         string  `json:"refusal"`          // discovery's error; "" when usable
	Instead         string  `json:"instead"`          // what to read instead; "" when usable
	DiscoverMS      float64 `json:"discover_ms"`      // how long discovery took
	UncertaintyPPM  float64 `json:"uncertainty_ppm"`  // see UncertaintyFrom
	UncertaintyFrom string  `json:"uncertainty_from"` // what UncertaintyPPM is, or why there is none
	KernelPPM       float64 `json:"kernel_ppm"`       // RateHz against KernelHz; 0 where either is missing

	// Agreement with the raw monotonic clock.
	WindowMS      float64 `json:"window_ms"`
	DriftPPM      float64 `json:"drift_ppm"`       // positive where the counter runs fast
	DriftBoundPPM float64 `json:"drift_bound_ppm"` // how far the brackets and the step alone may move DriftPPM
	DriftAgainst  string  `json:"drift_against"`   // the clock compared with
	DriftNote     string  `json:"drift_note"`      // why there is no drift; "" where measured

	// Reads.
	ReadNS    map[string]float64 `json:"read_ns"`    // median ns a read: now, begin, end, now_cpu, time_now, monotonic, raw_monotonic
	ReadNote  string             `json:"read_note"`  // why reads were skipped; "" where measured
	StepTicks int64              `json:"step_ticks"` // smallest non-zero step between back-to-back Now reads
	StepNS    float64            `json:"step_ns"`    // StepTicks at the rate; 0 when refused

	CrossCore crossCoreReport `json:"cross_core"`

	Warnings []string `json:"warnings"` // [] where there is nothing to warn of
}

// A crossCoreReport is what handing readings between CPUs found.
type crossCoreReport struct {
	Checked         bool    `json:"checked"`
	Reason          string  `json:"reason"`            // why not checked; "" where checked
	CPUs            []int   `json:"cpus"`              // the CPUs checked
	Pairs           int     `json:"pairs"`             // ordered CPU pairs checked
	Handoffs        int     `json:"handoffs"`          // readings handed over, all pairs
	WorstBackTicks  int64   `json:"worst_back_ticks"`  // the largest backward step; 0 for none
	WorstBackNS     float64 `json:"worst_back_ns"`     // the same at the rate
	WorstFrom       int     `json:"worst_from"`        // the CPU the reading came from; -1 for none
	WorstTo         int     `json:"worst_to"`          // the CPU it was behind on; -1 for none
	BackwardPairs   int     `json:"backward_pairs"`    // ordered pairs with any backward step
	MinHandoffTicks int64   `json:"min_handoff_ticks"` // the quickest handoff: a skew under it goes unseen
	MinHandoffNS    float64 `json:"min_handoff_ns"`    // the same at the rate
}

// trappedReadNS is the cost of a read above which it looks trapped: a read
// of the counter is tens of nanoseconds; an exit to the hypervisor or a
// kernel's emulation of the instruction is hundreds or thousands.
const trappedReadNS = 200

// kernelWarnPPM is how far the discovered rate may lie from the kernel's
// before counterinfo says so: the kernel logs its rate to 1 kHz, and its
// boot-time calibration may be off by some hundreds of ppm.
const kernelWarnPPM = 1000

// driftWarnPPM is how far, beyond the brackets' bound, the counter may drift
// from the raw clock before counterinfo says so.
const driftWarnPPM = 10

// inspect does every check and returns the report.
func inspect(opts options) report {
	r := report{
		GOOS:     runtime.GOOS,
		GOARCH:   runtime.GOARCH,
		CPUFlags: map[string]bool{},
		ReadNS:   map[string]float64{},
		Warnings: []string{},
	}
	r.CrossCore.WorstFrom, r.CrossCore.WorstTo = -1, -1
	r.CrossCore.CPUs = []int{}
	platformFacts(&r)

	c, d, err := opts.discover()
	r.DiscoverMS = round(float64(d.Took)/float64(time.Millisecond), 3)
	r.Source = d.Source.String()
	r.ReportedHz = d.Reported
	if err != nil {
		r.Refusal = err.Error()
		r.Instead = instead(err)
		r.UncertaintyFrom = "none: discovery refused"
	} else {
		r.Usable = true
		r.RateHz = c.Rate().Hertz()
		r.Rate = c.Rate().String()
		r.UncertaintyPPM, r.UncertaintyFrom = uncertainty(d)
		r.UncertaintyPPM = round(r.UncertaintyPPM, 3)
		if r.KernelHz != 0 {
			r.KernelPPM = round((float64(r.RateHz)-float64(r.KernelHz))/float64(r.KernelHz)*1e6, 3)
		}
	}

	r.WindowMS = float64(opts.window) / float64(time.Millisecond)
	r.DriftAgainst = rawClockName()
	if errors.Is(err, counter.ErrDisabled) {
		// The counter's instruction would kill the process, and so may
		// time.Now, whose vDSO reads it too: read nothing.
		why := "skipped: the counter's instruction faults in this process"
		r.DriftNote, r.ReadNote, r.CrossCore.Reason = why, why, why
		r.Warnings = append(r.Warnings, warnings(r)...)
		return r
	}
	if err != nil {
		// The refused counter still reads; New makes its End and NowCPU
		// use the instructions this CPU has, as a usable one would.
		c = counter.New(counter.TickRate{})
	}
	r.ReadNS = readCosts(c)
	step := smallestStep(c)
	r.StepTicks = int64(step)
	r.StepNS = round(ns(step, c.Rate()), 1)
	if err != nil {
		r.DriftNote = "not measured: discovery refused, so there is no rate to convert ticks at"
	} else {
		dr := measureDrift(c, opts.window, step)
		r.DriftPPM, r.DriftBoundPPM = round(dr.ppm, 3), round(dr.boundPPM, 3)
	}

	switch {
	case err != nil:
		r.CrossCore.Reason = "not checked: discovery refused the counter"
	case opts.crossCore == 0:
		r.CrossCore.Reason = "not checked: -crosscore 0"
	default:
		r.CrossCore = checkCrossCore(c, opts.crossCore)
	}
	r.Warnings = append(r.Warnings, warnings(r)...)
	return r
}

// instead returns what to read where discovery refused with err, as the
// refusal's documentation says.
func instead(err error) string {
	switch {
	case errors.Is(err, counter.ErrDisabled):
		return "read counter.RawMonotonicClock, a system call: time.Now and counter.MonotonicClock read the same faulting counter where the kernel's clocksource is the TSC"
	case errors.Is(err, counter.ErrNotInvariant):
		return "read counter.MonotonicClock; or, where you know the host's counter is invariant and the guest stays on it, counter.New with the rate of counter.Measure"
	case errors.Is(err, counter.ErrNoRate):
		return "counter.New with a rate known from elsewhere (a config, or a discovery on the same machine under Linux), or read counter.MonotonicClock"
	case errors.Is(err, counter.ErrRateOutOfRange):
		return "read counter.MonotonicClock: the rate or the counter is broken"
	case errors.Is(err, counter.ErrMeasure):
		return "run again on a quieter machine, or pinned to one CPU (taskset -c 0); or read counter.MonotonicClock"
	case errors.Is(err, errors.ErrUnsupported):
		return "read counter.MonotonicClock: this build reads no hardware counter (another architecture, or the purego tag)"
	}
	return "read counter.MonotonicClock"
}

// uncertainty returns how good a discovered rate is, in ppm, and what that
// number is: the measurement's standard error where the rate was measured,
// the short check's disagreement where the hardware reported it.
func uncertainty(d counter.Discovery) (float64, string) {
	switch {
	case d.Measured != nil:
		return d.Measured.SpreadPPM, fmt.Sprintf("standard error of a %.1f ms measurement", float64(d.Measured.Window)/1e6)
	case d.Check != nil:
		return math.Abs(d.DisagreementPPM()), fmt.Sprintf("disagreement of the reported rate with a %.1f ms measurement", float64(d.Check.Window)/1e6)
	}
	return 0, "unchecked: no raw clock to check the reported rate against"
}

// round rounds x to the given number of decimals, for a report that
// claims no more precision than it has.
func round(x float64, decimals int) float64 {
	p := math.Pow10(decimals)
	return math.Round(x*p) / p
}

// ns converts a span of ticks to nanoseconds at rate, as a float; 0 at the
// zero rate.
func ns(d counter.Tickdelta, rate counter.TickRate) float64 {
	hz := rate.Hertz()
	if hz == 0 {
		return 0
	}
	return float64(d) * 1e9 / float64(hz)
}

// warnings returns what in r an operator should know before trusting the
// counter.
func warnings(r report) []string {
	var w []string
	if cost, ok := r.ReadNS["now"]; ok && cost >= trappedReadNS {
		w = append(w, fmt.Sprintf("a read of the counter costs %.0f ns: it looks trapped by the hypervisor or emulated by the kernel; time spans of many microseconds only, or read counter.MonotonicClock", cost))
	}
	if r.InvariantTSC == "no" {
		w = append(w, "/proc/cpuinfo lacks constant_tsc or nonstop_tsc: the kernel does not take the TSC for invariant")
	}
	if want := expectedClocksource(); r.Clocksource != "" && want != "" && r.Clocksource != want {
		w = append(w, fmt.Sprintf("the kernel's clocksource is %s, not %s: it distrusts the counter or prefers the hypervisor's clock, and clock_gettime may cost more", r.Clocksource, want))
	}
	if r.Usable && r.KernelHz != 0 && math.Abs(r.KernelPPM) > kernelWarnPPM {
		w = append(w, fmt.Sprintf("the discovered rate lies %+.0f ppm from the kernel's %d Hz", r.KernelPPM, r.KernelHz))
	}
	if r.Usable && r.DriftNote == "" && math.Abs(r.DriftPPM) > r.DriftBoundPPM+driftWarnPPM {
		w = append(w, fmt.Sprintf("the counter drifted %+.1f ppm from %s over %.0f ms: the rate is off, or the counter is not steady", r.DriftPPM, r.DriftAgainst, r.WindowMS))
	}
	if cc := r.CrossCore; cc.Checked && cc.WorstBackTicks > 0 {
		w = append(w, fmt.Sprintf("a reading from CPU %d was %d ticks (%.0f ns) ahead of a later one on CPU %d: a span that starts and ends on different CPUs may be short by that much, or negative", cc.WorstFrom, cc.WorstBackTicks, cc.WorstBackNS, cc.WorstTo))
	}
	return w
}

// writeTable prints r as an aligned table of names and values, in
// sections parted by blank lines.
func writeTable(out io.Writer, r report) {
	var buf bytes.Buffer
	defer func() {
		for line := range strings.Lines(buf.String()) {
			fmt.Fprintln(out, strings.TrimRight(line, " \n"))
		}
	}()
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	row := func(name, format string, args ...any) {
		fmt.Fprintf(tw, "%s\t%s\n", name, fmt.Sprintf(format, args...))
	}
	orUnknown := func(s string) string {
		if s == "" {
			return "unknown"
		}
		return s
	}

	row("platform", "%s/%s, %d CPUs", r.GOOS, r.GOARCH, r.CPUs)
	row("cpu", "%s (%s)", orUnknown(r.CPUBrand), orUnknown(r.CPUVendor))
	if r.Hypervisor != "" {
		row("hypervisor", "%s (a virtual machine: the hypervisor owns the counter's offset and rate)", r.Hypervisor)
	} else {
		row("hypervisor", "none seen")
	}
	if len(r.CPUFlags) > 0 {
		row("invariant", "%s (/proc/cpuinfo: %s)", r.InvariantTSC, flagList(r.CPUFlags, "constant_tsc", "nonstop_tsc"))
	} else if r.GOARCH == "arm64" {
		row("invariant", "%s (no flag to read: Arm's generic timer ticks at a fixed rate by design)", r.InvariantTSC)
	} else {
		row("invariant", "%s (no /proc/cpuinfo flags to read here)", r.InvariantTSC)
	}
	if r.GOARCH == "amd64" || r.GOARCH == "386" {
		if len(r.CPUFlags) > 0 {
			row("rdtscp", "%s (CPUID; /proc/cpuinfo: %s)", yesNo(r.RDTSCP), flagList(r.CPUFlags, "rdtscp"))
		} else {
			row("rdtscp", "%s (CPUID)", yesNo(r.RDTSCP))
		}
	}
	if r.Clocksource != "" {
		row("clocksource", "%s", r.Clocksource)
	}
	if r.KernelHz != 0 {
		row("kernel's rate", "%s (%d Hz, from the kernel log)", hzString(r.KernelHz), r.KernelHz)
	}
	row("", "")

	if r.Usable {
		row("rate", "%s (%d Hz)", r.Rate, r.RateHz)
		row("source", "%s", r.Source)
		if r.ReportedHz != 0 && r.Source == counter.SourceMeasured.String() {
			row("reported", "%s (%d Hz), distrusted: a short measurement disagreed", hzString(r.ReportedHz), r.ReportedHz)
		}
		row("discovery", "%.1f ms", r.DiscoverMS)
		row("uncertainty", "%.3f ppm (%s)", r.UncertaintyPPM, r.UncertaintyFrom)
		if r.KernelHz != 0 {
			row("vs kernel", "%+.3f ppm (the kernel logs its rate to 1 kHz)", r.KernelPPM)
		}
	} else {
		row("rate", "refused")
		row("refusal", "%s", r.Refusal)
		row("instead", "%s", r.Instead)
		row("discovery", "%.1f ms", r.DiscoverMS)
	}
	if r.DriftNote == "" {
		row("drift", "%+.3f ppm against %s over %.0f ms (±%.3f ppm from the brackets and the step)", r.DriftPPM, r.DriftAgainst, r.WindowMS, r.DriftBoundPPM)
	} else {
		row("drift", "%s", r.DriftNote)
	}
	row("", "")

	if r.ReadNote != "" {
		row("reads", "%s", r.ReadNote)
	} else {
		for _, k := range readOrder {
			if v, ok := r.ReadNS[k.key]; ok {
				row("read "+k.name, "%.1f ns", v)
			}
		}
		if r.Usable {
			row("step", "%d ticks (%.1f ns): the smallest step between back-to-back Now reads", r.StepTicks, r.StepNS)
		} else {
			row("step", "%d ticks: the smallest step between back-to-back Now reads", r.StepTicks)
		}
	}
	cc := r.CrossCore
	switch {
	case !cc.Checked:
		row("cross-core", "%s", cc.Reason)
	case cc.WorstBackTicks == 0:
		row("cross-core", "no backward step in %d handoffs between %d ordered CPU pairs (a skew under %.0f ns, the quickest handoff or the step, would go unseen)", cc.Handoffs, cc.Pairs, max(cc.MinHandoffNS, r.StepNS))
	default:
		row("cross-core", "worst backward step %d ticks (%.0f ns), CPU %d to CPU %d; %d of %d ordered pairs stepped back in %d handoffs", cc.WorstBackTicks, cc.WorstBackNS, cc.WorstFrom, cc.WorstTo, cc.BackwardPairs, cc.Pairs, cc.Handoffs)
	}
	row("", "")
	for _, w := range r.Warnings {
		row("warning", "%s", w)
	}
	if r.Usable {
		row("verdict", "usable: counter.Discover gives a Counter at %s", r.Rate)
	} else {
		row("verdict", "refused: %s", r.Instead)
	}
	tw.Flush()
}

// readOrder is the order and the table's names of the reads in read_ns.
var readOrder = []struct{ key, name string }{
	{"now", "Now"},
	{"begin", "Begin"},
	{"end", "End"},
	{"now_cpu", "NowCPU"},
	{"monotonic", "MonotonicClock"},
	{"time_now", "time.Now"},
	{"raw_monotonic", "RawMonotonicClock"},
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
