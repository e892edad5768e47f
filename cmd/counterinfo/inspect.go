package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/rawclock"
)

// inspect does every check and returns the report: the platform's facts,
// discovery, and then whatever of the counter's reads, drift and cross-core
// behaviour discovery's outcome lets it measure.
func inspect(opts options) (report, counter.Counter, *counter.Discovery) {
	r := newReport()
	platformFacts(&r)
	c, disc, err := reportDiscovery(&r, opts.discover)
	r.WindowMS = float64(opts.window) / float64(time.Millisecond)
	r.DriftAgainst = rawClockName()
	if errors.Is(err, counter.ErrDisabled) {
		// The counter's instruction would kill the process, and so may
		// time.Now, whose vDSO reads it too: read nothing.
		why := "skipped: the counter's instruction faults in this process"
		r.DriftNote, r.ReadNote, r.CrossCore.Reason = why, why, why
	} else {
		reportReads(&r, c, disc, opts, err)
	}
	r.Warnings = append(r.Warnings, warnings(r)...)
	return r, c, disc
}

// reportDiscovery runs discover and fills r's discovery fields, invariance
// included, from its result. It returns the counter discovery gave (the
// zero Counter where it refused), how it found the rate (nil where it
// refused), for the watches to cover a measured rate's error, and
// discovery's error.
func reportDiscovery(r *report, discover discoverFunc) (counter.Counter, *counter.Discovery, error) {
	c, d, err := discover()
	r.InvariantTSC, r.invariantWhy = invariantDecision(r.GOARCH, err)
	r.DiscoverMS = round(float64(d.Took)/float64(time.Millisecond), 3)
	r.Source = d.Source.String()
	r.ReportedHz = d.Reported
	reportCPUOffsets(r, d, err)
	if err != nil {
		r.Refusal = err.Error()
		r.Instead = instead(err)
		r.UncertaintyFrom = "none: discovery refused"
		return c, nil, err
	}
	r.Usable = true
	r.RateHz = c.Rate().Hertz()
	r.Rate = c.Rate().String()
	r.UncertaintyPPM, r.UncertaintyFrom = uncertainty(d)
	r.UncertaintyPPM = roundPPM(r.UncertaintyPPM, 3)
	if r.KernelHz != 0 {
		r.KernelPPM = roundPPM((float64(r.RateHz)-float64(r.KernelHz))/float64(r.KernelHz)*1e6, 3)
	}
	return c, &d, nil
}

// reportCPUOffsets fills r's per-CPU offsets from the check Discover made,
// or says why there are none.
func reportCPUOffsets(r *report, d counter.Discovery, derr error) {
	switch {
	case len(d.CPUs) < 2 && len(d.Unchecked) > 0:
		r.CPUOffsetNote = fmt.Sprintf("not checked: the thread could not be pinned to CPUs %v", d.Unchecked)
		return
	case len(d.CPUs) < 2 && derr != nil:
		r.CPUOffsetNote = "not checked: discovery refused before it checked the CPUs"
		return
	case len(d.CPUs) < 2:
		r.CPUOffsetNote = "not checked: one CPU in the affinity mask, or no call to pin a thread (not Linux)"
		return
	}
	var bound time.Duration // the widest of the CPUs placed against the first
	for i, o := range d.CPUs {
		r.CPUOffsetsNS[strconv.Itoa(o.CPU)] = float64(o.Offset)
		if i > 0 {
			bound = max(bound, o.Bound)
		}
	}
	r.CPUOffsetBoundNS = float64(bound)
}

// reportReads measures what reading c costs, its resolution and the least
// advance a read sees (its smallest step), its read floor (counter.Floor's
// empty spans), its drift against the raw clock and, with -crosscore,
// readings handed between CPUs, where discovery's error derr allows: a
// refused counter still reads (at the zero rate, with the instructions this
// CPU has), but has no rate to convert a drift or a floor at and is not
// checked across CPUs.
func reportReads(r *report, c counter.Counter, disc *counter.Discovery, opts options, derr error) {
	if derr != nil {
		// New makes End and NowCPU use the instructions this CPU has, as
		// a usable counter's would.
		c = counter.New(counter.TickRate{})
	}
	// Opened for a thread where RDTSC does not fault: inspect reads nothing
	// where the counter's instruction faults (ErrDisabled).
	raw := rawclock.Open(false)
	r.ReadNS = readCosts(c, raw)
	// One measurement of the raw clock's read, timed as the counter's
	// reads are: bracket_read_ns cannot disagree with read_ns.
	r.BracketRead, r.BracketReadNS = raw.Kind(), r.ReadNS["raw_monotonic"]
	step := smallestStep(c)
	r.StepTicks = int64(step)
	r.StepNS = round(ns(step, c.Rate()), 1)
	res := resolution(c)
	r.ResolutionTicks = round(res, 2)
	r.ResolutionNS = round(nsOf(res, c.Rate()), 2)
	var floor counter.Snapshot
	r.FloorBeginEndTicks, r.FloorBeginEndNS = readFloor(c, counter.BeginEnd, &floor)
	r.FloorNowTicks, r.FloorNowNS = readFloor(c, counter.NowNow, &floor)
	r.floorNow, r.floorRate = &floor, c.Rate()
	if derr != nil {
		r.DriftNote = "not measured: discovery refused, so there is no rate to convert ticks at"
	} else {
		reportDrift(r, c, disc, opts.window)
	}
	switch {
	case derr != nil:
		r.CrossCore.Reason = "not checked: discovery refused the counter"
	case opts.crossCore == 0:
		r.CrossCore.Reason = "not checked: -crosscore 0"
	default:
		r.CrossCore = checkCrossCore(c, opts.crossCore)
	}
}

// invariantDecision returns whether counter.Discover took the counter for
// invariant on goarch, given the error it returned ("yes", "no" or
// "unknown"), and how it decided. It reads the decision off the error, not
// off CPUID: Discover refuses with ErrNotInvariant where the counter is not
// invariant, and it checks invariance before anything else that can refuse,
// except the counter faulting (ErrDisabled) and a build that reads no
// hardware counter (errors.ErrUnsupported).
func invariantDecision(goarch string, err error) (verdict, why string) {
	switch {
	case errors.Is(err, counter.ErrNotInvariant):
		return "no", "counter.Discover refused it: " + err.Error()
	case errors.Is(err, counter.ErrDisabled):
		return "unknown", "counter.Discover did not decide: the counter's instruction faults in this process"
	case errors.Is(err, errors.ErrUnsupported):
		return "unknown", "counter.Discover did not decide: this build reads no hardware counter"
	}
	switch goarch {
	case "amd64":
		return "yes", "counter.Discover's decision: CPUID leaf 0x80000007 promises an invariant TSC"
	case "arm64":
		return "yes", "counter.Discover's decision: Arm's generic timer is invariant by the architecture"
	}
	return "yes", "counter.Discover's decision"
}

// uncertainty returns how good a discovered rate is, in ppm, and what that
// number is: how far a repeat of the measurement typically lands (its
// estimated standard deviation, Discovery.SpreadPPM) where the rate was
// measured, the short check's disagreement where the hardware reported it.
func uncertainty(d counter.Discovery) (float64, string) {
	switch {
	case d.Source == counter.SourceMeasured && math.IsInf(d.SpreadPPM, 0):
		// JSON has no infinity: a report holding one could not be written.
		return 0, "unknown: the measurement's brackets filled too few of its blocks to estimate a spread"
	case d.Source == counter.SourceMeasured:
		return d.SpreadPPM, fmt.Sprintf("typical distance of a repeated %.1f ms measurement", float64(d.Window)/1e6)
	case d.Window != 0:
		return math.Abs(d.DisagreementPPM), fmt.Sprintf("disagreement of the reported rate with a %.1f ms measurement", float64(d.Window)/1e6)
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
	return nsOf(float64(d), rate)
}

// nsOf converts ticks, which may be a fraction, to nanoseconds at rate; 0
// at the zero rate.
func nsOf(ticks float64, rate counter.TickRate) float64 {
	hz := rate.Hertz()
	if hz == 0 {
		return 0
	}
	return ticks * 1e9 / float64(hz)
}
