package counter

// Hooks for the external tests (package counter_test) of this directory.

// NowSequence names the instructions of Counter.Now on this CPU, so that the
// read benchmarks pick the floor of the sequence Now runs.
var NowSequence = nowSequence

// NowFenced reads as Now does where the CPU has no RDTSCP (LFENCE; RDTSC on
// amd64; Now's own read elsewhere), so that the handoff test checks that
// path on a CPU that has RDTSCP too.
func NowFenced() Tickstamp { return Tickstamp(stampFenced(false)) }
