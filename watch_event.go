package counter

// The watch's verdicts: its state, and the events that change it.

import (
	"strconv"
	"time"
)

// A WatchState says how far a [Watch] still trusts the counter. It only
// ever worsens: a Watch does not forgive, since spans taken across a fault
// stay wrong. After adopting a new rate, start a new Watch; after switching
// to [Monotonic], stop watching: that is the kernel's clock, not the counter.
type WatchState int32

// The states of a [Watch], best first.
const (
	// Trusted: no check has failed.
	Trusted WatchState = iota
	// Degraded: the counter still counts forwards, but its rate differs
	// from the rate in use, or the kernel changed a clocksource that is
	// not the counter. Spans are off by the [Event]'s parts per million.
	Degraded
	// Untrusted: the counter jumped against the raw clock, the kernel
	// stopped using it, its rate moved further than an invariant
	// counter's can ([EventRate] says how far), or CPUs disagree. Spans
	// across the fault are wrong by any amount.
	Untrusted
)

var stateNames = [...]string{Trusted: "trusted", Degraded: "degraded", Untrusted: "untrusted"}

// String returns "trusted", "degraded" or "untrusted".
func (s WatchState) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "state(" + strconv.Itoa(int(s)) + ")"
}

// An EventKind says which check of a [Watch] failed.
type EventKind int

// The kinds of [Event].
const (
	// EventRate: the counter's rate over a period, against the raw clock,
	// differs from the rate in use by more than the period's threshold.
	// It is raised once the next period confirms that the rate stayed
	// where it went (else the period was a jump): at the end of the second
	// whole period after the change, so within two periods and what was
	// left of the one it came in. Raised again after a period back within
	// the threshold, or for a rate that moved once more by more than it.
	// Degraded; Untrusted past 1000 ppm. Value and Threshold are in ppm.
	EventRate EventKind = iota + 1
	// EventRateSinceStart: the rate since the watch started (since the
	// last EventRate) differs from the rate in use by more than its
	// threshold, which narrows as the watch runs: the rate in use is
	// wrong by more than [WatchOptions.RateTolerancePPM]. Raised once
	// since the start, and once more after each confirmed change of rate.
	// Degraded. Value and Threshold are in ppm.
	EventRateSinceStart
	// EventJump: the counter's offset against the raw clock stepped, as
	// after a snapshot restore, a migration, or a suspend that reset the
	// counter or let it run on while the raw clock (which stops during
	// suspend) did not. Untrusted. Value and Threshold are in ns.
	EventJump
	// EventClocksource: Linux's current clocksource changed. Untrusted
	// where it left the counter ("tsc" on amd64, "arch_sys_counter" on
	// arm64: the kernel's watchdog withdrew its trust in this counter);
	// Degraded for any other change, since the raw clock the watch
	// checks against changed its source. From and To name them.
	EventClocksource
	// EventCPUOffsets: the per-CPU check, run every
	// [WatchOptions.CPUPeriod], refused. Untrusted. Value is the largest
	// offset and Threshold its bound, in ns; Err is the check's refusal,
	// which wraps [ErrCPUsDisagree].
	EventCPUOffsets
)

var kindNames = [...]string{
	EventRate:           "rate",
	EventRateSinceStart: "rate-since-start",
	EventJump:           "jump",
	EventClocksource:    "clocksource",
	EventCPUOffsets:     "cpu-offsets",
}

// String returns the kind's name: "rate", "jump", "clocksource", and so on.
func (k EventKind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "event(" + strconv.Itoa(int(k)) + ")"
}

// An Event is a failed check of a [Watch]: what happened, when, how much,
// and the threshold it crossed.
type Event struct {
	Kind     EventKind
	Severity WatchState // Degraded or Untrusted
	At       time.Time  // when the check that found it began

	// Value is how much, and Threshold what it crossed: in parts per
	// million for the rates, nanoseconds for jumps and offsets, 0 for
	// clocksources. A rate or jump's Value is signed: positive where the
	// counter ran fast or stepped forwards.
	Value, Threshold float64

	From, To string // the clocksources, for EventClocksource
	Err      error  // for EventCPUOffsets, and a clocksource file that could no longer be read
}

// unit returns the unit of Value and Threshold: "ppm", "ns" or "".
func (e Event) unit() string {
	switch e.Kind {
	case EventRate, EventRateSinceStart:
		return "ppm"
	case EventJump, EventCPUOffsets:
		return "ns"
	}
	return ""
}

// String describes the event on one line, with the unit of Value and
// Threshold: ppm for the rates, ns for jumps and offsets.
func (e Event) String() string {
	s := e.Kind.String() + " (" + e.Severity.String() + ")"
	switch e.Kind {
	case EventClocksource:
		s += ": " + strconv.Quote(e.From) + " → " + strconv.Quote(e.To)
	default:
		s += ": " + strconv.FormatFloat(e.Value, 'f', 3, 64) + " " + e.unit() +
			", threshold ±" + strconv.FormatFloat(e.Threshold, 'f', 3, 64) + " " + e.unit()
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}
