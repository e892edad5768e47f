package main

import (
	"regexp"
	"runtime"
	"strings"

	"github.com/klauspost/cpuid/v2"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/affinity"
	"github.com/tickstamp/counter/internal/rawclock"
)

// cpuinfoFlags are the flags of /proc/cpuinfo that say whether the TSC is
// sound: constant_tsc (it ticks at one rate whatever the core's clock),
// nonstop_tsc (it ticks on while the core sleeps) and rdtscp.
var cpuinfoFlags = []string{"constant_tsc", "nonstop_tsc", "rdtscp"}

// platformFacts fills r's descriptive platform fields: the CPUs this process
// may run on, the CPU's names and features as cpuid/v2 sees them, and what
// the operating system says (platformOS, per system). Whether the counter is
// invariant is not among them: that is Discover's decision, which
// reportDiscovery reads off Discover's result.
func platformFacts(r *report) {
	r.CPUs = runtime.NumCPU()
	if cpus, err := affinity.Allowed(); err == nil && len(cpus) > 0 {
		r.CPUs = len(cpus)
	}
	r.CPUBrand = strings.TrimSpace(cpuid.CPU.BrandName)
	if cpuid.CPU.VendorID != cpuid.VendorUnknown {
		r.CPUVendor = cpuid.CPU.VendorID.String()
	} else {
		r.CPUVendor = strings.TrimSpace(cpuid.CPU.VendorString)
	}
	if cpuid.CPU.HypervisorVendorID != cpuid.VendorUnknown {
		r.Hypervisor = cpuid.CPU.HypervisorVendorID.String()
	} else if cpuid.CPU.Supports(cpuid.HYPERVISOR) {
		r.Hypervisor = strings.TrimSpace(cpuid.CPU.HypervisorVendorString)
		if r.Hypervisor == "" {
			r.Hypervisor = "unnamed"
		}
	}
	r.RDTSCP = cpuid.CPU.Has(cpuid.RDTSCP)
	platformOS(r)
}

// parseCPUFlags returns which of cpuinfoFlags the first "flags" line of a
// /proc/cpuinfo lists, and false where there is no such line (as on arm64,
// whose cpuinfo has "Features").
func parseCPUFlags(cpuinfo string) (map[string]bool, bool) {
	for line := range strings.Lines(cpuinfo) {
		name, value, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(name) != "flags" {
			continue
		}
		have := map[string]bool{}
		for _, f := range cpuinfoFlags {
			have[f] = false
		}
		for f := range strings.FieldsSeq(value) {
			if _, ok := have[f]; ok {
				have[f] = true
			}
		}
		return have, true
	}
	return nil, false
}

// invariantFromFlags says "yes" where the flags have both constant_tsc and
// nonstop_tsc, the two halves of an invariant TSC, and "no" otherwise: what
// the kernel takes the TSC for, which the report sets beside Discover's own
// decision and warns of where it is "no".
func invariantFromFlags(flags map[string]bool) string {
	if flags["constant_tsc"] && flags["nonstop_tsc"] {
		return "yes"
	}
	return "no"
}

// kernelRateRE matches the kernel's report of the TSC's rate: the boot-time
// "tsc: Detected 2445.434 MHz processor" and the later, better "tsc: Refined
// TSC clocksource calibration: 2445.434 MHz".
var kernelRateRE = regexp.MustCompile(`tsc: (Detected|Refined TSC clocksource calibration:) ([0-9]+(?:\.[0-9]+)?) MHz`)

// parseKernelRate returns the TSC's rate in hertz from a kernel log: the
// last refined calibration, else the last detected rate, else 0.
func parseKernelRate(log string) uint64 {
	var detected, refined string
	for _, m := range kernelRateRE.FindAllStringSubmatch(log, -1) {
		if m[1] == "Detected" {
			detected = m[2]
		} else {
			refined = m[2]
		}
	}
	s := refined
	if s == "" {
		s = detected
	}
	if s == "" {
		return 0
	}
	rate, err := counter.ParseTickRate(s + " MHz")
	if err != nil {
		return 0
	}
	return rate.Hertz()
}

// rawClockName names the clock that rawclock.Syscall reads here.
func rawClockName() string {
	if !rawclock.Have {
		return "the runtime's monotonic clock"
	}
	switch runtime.GOOS {
	case "linux":
		return "CLOCK_MONOTONIC_RAW"
	case "darwin":
		return "CLOCK_UPTIME_RAW"
	}
	return "the raw monotonic clock"
}

// expectedClocksource is the Linux clocksource that reads the counter this
// package reads, "" where there is none to expect.
func expectedClocksource() string {
	switch runtime.GOARCH {
	case "amd64", "386":
		return "tsc"
	case "arm64":
		return "arch_sys_counter"
	}
	return ""
}
