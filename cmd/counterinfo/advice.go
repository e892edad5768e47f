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

// instead returns what to read where discovery refused with err, as the
// refusal's documentation says.
func instead(err error) string {
	switch {
	case errors.Is(err, counter.ErrDisabled):
		return "clear the flag (prctl PR_SET_TSC, PR_TSC_ENABLE) and discover again; or read CLOCK_MONOTONIC_RAW by a raw system call (golang.org/x/sys/unix.RawSyscall of SYS_CLOCK_GETTIME): time.Now and counter.Monotonic() read the same faulting counter where the vDSO reads the TSC"
	case errors.Is(err, counter.ErrNotInvariant):
		return "use counter.Monotonic(); or, where you know the host's counter is invariant and the guest stays on it, counter.New with the rate of counter.Measure"
	case errors.Is(err, counter.ErrNoRate):
		return "counter.New with a rate known from elsewhere (a config, or a discovery on the same machine under Linux), or use counter.Monotonic()"
	case errors.Is(err, counter.ErrRateOutOfRange):
		return "use counter.Monotonic(): the rate or the counter is broken"
	case errors.Is(err, counter.ErrMeasure):
		return "run again on a quieter machine, or pinned to one CPU (taskset -c 0); or use counter.Monotonic()"
	case errors.Is(err, errors.ErrUnsupported):
		return "use counter.Monotonic(): this build reads no hardware counter (another architecture, or the purego tag)"
	}
	return "use counter.Monotonic()"
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
