package main

import (
	"runtime"

	"github.com/tickstamp/counter"
)

// A report is everything counterinfo finds, as -json prints it: the one
// JSON document without -watch, and the first line, "kind": "report", of
// -watch's JSON Lines. Its field names are stable: a number stays a number,
// a string a string, and an object an object (empty where there is nothing
// to put in it), whether the counter is usable or not. Where a value could
// not be found, a string says why.
type report struct {
	Kind string `json:"kind"` // kindReport, "report": what the object is, as each line of -json -watch says

	// Platform.
	GOOS         string          `json:"goos"`
	GOARCH       string          `json:"goarch"`
	CPUs         int             `json:"cpus"`          // logical CPUs this process may run on
	CPUBrand     string          `json:"cpu_brand"`     // "" where the CPU does not say
	CPUVendor    string          `json:"cpu_vendor"`    // "AMD", "Intel", "Apple", ...; "" where unknown
	Hypervisor   string          `json:"hypervisor"`    // "KVM", "MSVM", ...; "" where none is seen
	InvariantTSC string          `json:"invariant_tsc"` // Discover's decision: "yes", "no" (it refused with ErrNotInvariant) or "unknown" (it did not decide)
	RDTSCP       bool            `json:"rdtscp"`        // the CPU has RDTSCP (amd64)
	CPUFlags     map[string]bool `json:"cpu_flags"`     // /proc/cpuinfo's constant_tsc, nonstop_tsc, rdtscp; {} where not read
	Clocksource  string          `json:"clocksource"`   // Linux's current clocksource; "" elsewhere
	KernelHz     uint64          `json:"kernel_hz"`     // the kernel's TSC rate from its log; 0 where not found

	// Discovery.
	Usable          bool    `json:"usable"`           // discovery found a rate
	RateHz          uint64  `json:"rate_hz"`          // 0 when refused
	Rate            string  `json:"rate"`             // "2.3 GHz"; "" when refused
	Source          string  `json:"source"`           // counter.RateSource's name: "measured", "cpuid-0x15", ...
	ReportedHz      uint64  `json:"reported_hz"`      // the rate the hardware itself reported (CPUID leaf 0x15 or 0x40000010, CNTFRQ_EL0); 0 where it reports none, as most virtual machines' CPUs do, and discovery measured the rate instead
	Refusal         string  `json:"refusal"`          // discovery's error; "" when usable
	Instead         string  `json:"instead"`          // what to do instead, and the doc to read; "" when usable
	DiscoverMS      float64 `json:"discover_ms"`      // how long discovery took
	UncertaintyPPM  float64 `json:"uncertainty_ppm"`  // see UncertaintyFrom
	UncertaintyFrom string  `json:"uncertainty_from"` // what UncertaintyPPM is, or why there is none
	KernelPPM       float64 `json:"kernel_ppm"`       // RateHz against KernelHz; 0 where either is missing

	// Agreement with the raw monotonic clock.
	WindowMS      float64 `json:"window_ms"`
	DriftPPM      float64 `json:"drift_ppm"`       // positive where the counter runs fast
	DriftBoundPPM float64 `json:"drift_bound_ppm"` // two standard errors of the fit of counter.Watch's checks; the threshold of its rate event, where it raised one
	DriftAgainst  string  `json:"drift_against"`   // the clock compared with
	DriftNote     string  `json:"drift_note"`      // why there is no drift; "" where measured

	// Reads.
	ReadNS   map[string]float64 `json:"read_ns"`   // median ns a read: now, now_unordered, begin, end, now_cpu, time_now, monotonic, and raw_monotonic, the raw clock read by bracket_read's path
	ReadNote string             `json:"read_note"` // why reads were skipped; "" where measured
	// The least advance from one Begin read to the next different one
	// (step.Smallest; the table's least gap), as the watch's and the
	// per-CPU check's bounds take it: the counter's resolution where reads are faster than it, and
	// about one read's cost where they are slower. Not the resolution:
	// resolution_ticks is.
	StepTicks int64 `json:"step_ticks"`
	// How the package's brackets (discovery, the per-CPU check, the
	// watch) read the raw clock: "vdso", "system call" or "runtime"
	// (rawclock.Clock.Kind), and the median ns of one such read, the same
	// figure as read_ns's raw_monotonic. Empty and 0 where reads were
	// skipped.
	BracketRead   string  `json:"bracket_read"`
	BracketReadNS float64 `json:"bracket_read_ns"`
	StepNS        float64 `json:"step_ns"` // StepTicks at the rate; 0 when refused

	// The counter's resolution, its least increment, from back-to-back
	// NowUnordered reads (step.Resolution): in ticks, to a hundredth (a
	// counter scaled to read in finer ticks than it counts advances a
	// fraction of a tick on average), and at the rate in ns, to a
	// hundredth; 0 where reads were skipped or the counter did not
	// advance, and resolution_ns is 0 when refused. Code shorter than it
	// times as whole increments: read a Snapshot's Mean.
	ResolutionTicks float64 `json:"resolution_ticks"`
	ResolutionNS    float64 `json:"resolution_ns"`

	// The read floor: the distribution of the counter.FloorSpans empty spans of
	// each pair of reads, read back to back by counter.Floor, as p50, p99
	// and max. All 0 where reads were skipped (read_note says why); the ns
	// objects are all 0 when refused.
	FloorNowTicks      floorTicks `json:"floor_now_ticks"`       // empty spans opened and closed by Now (counter.NowNow)
	FloorNowNS         floorNS    `json:"floor_now_ns"`          // the same at the rate, in ns to a tenth
	FloorBeginEndTicks floorTicks `json:"floor_begin_end_ticks"` // empty spans opened by Begin and closed by End (counter.BeginEnd)
	FloorBeginEndNS    floorNS    `json:"floor_begin_end_ns"`    // the same at the rate, in ns to a tenth

	CrossCore crossCoreReport `json:"cross_core"`

	// The per-CPU check Discover made (Linux, several CPUs): each CPU's
	// counter against the first CPU's, at one instant of the raw clock.
	CPUOffsetsNS     map[string]float64 `json:"cpu_offsets_ns"`      // CPU number → offset in ns; {} where not checked
	CPUOffsetBoundNS float64            `json:"cpu_offset_bound_ns"` // the largest offset the measurement can explain; 0 where not checked
	CPUOffsetNote    string             `json:"cpu_offset_note"`     // why there are no offsets; "" where checked

	Warnings []string `json:"warnings"` // [] where there is nothing to warn of

	invariantWhy string // how Discover decided InvariantTSC, for the table
	// floorNow is the Now→Now floor's distribution, which the table draws,
	// at floorRate; nil where reads were skipped.
	floorNow  *counter.Snapshot
	floorRate counter.TickRate
}

// newReport returns a report of this platform with nothing found yet: every
// object and list empty rather than null, and no CPU named in cross_core.
func newReport() report {
	return report{
		Kind:         kindReport,
		GOOS:         runtime.GOOS,
		GOARCH:       runtime.GOARCH,
		CPUFlags:     map[string]bool{},
		CPUOffsetsNS: map[string]float64{},
		ReadNS:       map[string]float64{},
		Warnings:     []string{},
		CrossCore:    newCrossCoreReport(),
	}
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

// newCrossCoreReport returns a cross_core object that checked nothing: an
// empty list of CPUs and -1 for the CPUs of a worst step there is not.
func newCrossCoreReport() crossCoreReport {
	return crossCoreReport{CPUs: []int{}, WorstFrom: -1, WorstTo: -1}
}

// A floorTicks is a read floor's distribution in ticks: its median, its 99th
// percentile, each within counter.QuantileError, and its exact maximum, so
// that P50 <= P99 <= Max.
type floorTicks struct {
	P50 int64 `json:"p50"`
	P99 int64 `json:"p99"`
	Max int64 `json:"max"`
}

// A floorNS is a floorTicks converted to ns at the rate.
type floorNS struct {
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}
