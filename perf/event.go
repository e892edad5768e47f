package perf

import "strconv"

// An Event is a kind of event a counter counts: a hardware event, counted by
// the processor's performance monitoring unit, or a software event, counted
// by the kernel. The zero Event is none of them: [Open] and [OpenGroup]
// refuse it, so that a field or argument left unset fails at once instead of
// counting cycles unasked.
type Event int

// The hardware events. Virtual machines often offer none of them: opening
// one there returns an [*OpenError] that wraps [errors.ErrUnsupported].
const (
	Cycles             Event = iota + 1 // core clock cycles while the thread runs, at whatever frequency the core runs
	Instructions                        // instructions retired
	CacheReferences                     // accesses to the last-level cache, as the processor defines them
	CacheMisses                         // last-level cache accesses that missed
	BranchInstructions                  // branch instructions retired
	BranchMisses                        // branch instructions mispredicted
)

// The software events, which the kernel counts on every machine, virtual or
// not. A context switch and a migration happen in the kernel, so the
// counters of ContextSwitches and CPUMigrations stay at zero unless
// [Options.Kernel] is set.
const (
	TaskClock       Event = iota + 64 // nanoseconds the counted threads spent on a CPU
	PageFaults                        // page faults, minor and major
	ContextSwitches                   // times the thread was switched off a CPU
	CPUMigrations                     // times the thread moved to another CPU
	MinorFaults                       // page faults served without I/O
	MajorFaults                       // page faults that waited for I/O
)

var eventNames = map[Event]string{
	Cycles:             "cycles",
	Instructions:       "instructions",
	CacheReferences:    "cache-references",
	CacheMisses:        "cache-misses",
	BranchInstructions: "branch-instructions",
	BranchMisses:       "branch-misses",
	TaskClock:          "task-clock",
	PageFaults:         "page-faults",
	ContextSwitches:    "context-switches",
	CPUMigrations:      "cpu-migrations",
	MinorFaults:        "minor-faults",
	MajorFaults:        "major-faults",
}

// String returns the event's name as the perf tool spells it: "cycles",
// "instructions", "task-clock", "page-faults", and so on; "Event(n)" for a
// value that is none of the events above, the zero Event included.
func (e Event) String() string {
	if s, ok := eventNames[e]; ok {
		return s
	}
	return "Event(" + strconv.Itoa(int(e)) + ")"
}

// Hardware reports whether e is counted by the processor's performance
// monitoring unit rather than by the kernel; false for a value that is no
// event, the zero Event included.
func (e Event) Hardware() bool { return e >= Cycles && e <= BranchMisses }

// valid reports whether e is one of the events above.
func (e Event) valid() bool {
	_, ok := eventNames[e]
	return ok
}
