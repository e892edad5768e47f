package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/tickstamp/counter"
)

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

// advice is what to do about each refusal of discovery, a line each; the
// sentinel's doc, named for go doc, says why and what else works.
var advice = []struct {
	err  error
	name string // the sentinel's name in package counter
	do   string
}{
	{counter.ErrDisabled, "ErrDisabled", "clear the flag with prctl(PR_SET_TSC, PR_TSC_ENABLE) and discover again"},
	{counter.ErrNotInvariant, "ErrNotInvariant", "use counter.Monotonic()"},
	{counter.ErrNoRate, "ErrNoRate", "pass counter.New a rate known from elsewhere, or use counter.Monotonic()"},
	{counter.ErrRateOutOfRange, "ErrRateOutOfRange", "use counter.Monotonic()"},
	{counter.ErrMeasure, "ErrMeasure", "run again on a quieter machine or pinned to one CPU, or use counter.Monotonic()"},
	{counter.ErrCPUsDisagree, "ErrCPUsDisagree", "pin the process to CPUs that agree and discover again, or use counter.Monotonic()"},
}

// instead returns what to do where discovery refused with err, and the
// doc that says more.
func instead(err error) string {
	for _, a := range advice {
		if errors.Is(err, a.err) {
			return a.do + "; see go doc counter." + a.name
		}
	}
	if errors.Is(err, errors.ErrUnsupported) {
		return "use counter.Monotonic(): this build reads no hardware counter; see go doc counter.Discover"
	}
	return "use counter.Monotonic(); see go doc counter.Discover"
}

// warnings returns what in r an operator should know before trusting the
// counter.
func warnings(r report) []string {
	var w []string
	if cost, ok := r.ReadNS["now"]; ok && cost >= trappedReadNS {
		w = append(w, fmt.Sprintf("a read of the counter costs %.0f ns: it looks trapped by the hypervisor or emulated by the kernel; time spans of many microseconds only, or use counter.Monotonic()", cost))
	}
	if len(r.CPUFlags) > 0 && invariantFromFlags(r.CPUFlags) == "no" {
		w = append(w, "/proc/cpuinfo lacks constant_tsc or nonstop_tsc: the kernel does not take the TSC for invariant")
	}
	if want := expectedClocksource(); r.Clocksource != "" && want != "" && r.Clocksource != want {
		w = append(w, fmt.Sprintf("the kernel's clocksource is %s, not %s: it distrusts the counter or prefers the hypervisor's clock, and clock_gettime may cost more", r.Clocksource, want))
	}
	if r.Usable && r.KernelHz != 0 && math.Abs(r.KernelPPM) > kernelWarnPPM {
		w = append(w, fmt.Sprintf("the discovered rate lies %s ppm from the kernel's %d Hz", formatPPM(r.KernelPPM, true), r.KernelHz))
	}
	if r.Usable && r.DriftNote == "" && math.Abs(r.DriftPPM) > r.DriftBoundPPM+driftWarnPPM {
		w = append(w, fmt.Sprintf("the counter drifted %s ppm from %s over %.0f ms: the rate is off, or the counter is not steady", formatPPM(r.DriftPPM, true), r.DriftAgainst, r.WindowMS))
	}
	if cc := r.CrossCore; cc.Checked && cc.WorstBackTicks > 0 {
		w = append(w, fmt.Sprintf("a reading from CPU %d was %d ticks (%.0f ns) ahead of a later one on CPU %d: a span that starts and ends on different CPUs may be short by that much, or negative", cc.WorstFrom, cc.WorstBackTicks, cc.WorstBackNS, cc.WorstTo))
	}
	return w
}
