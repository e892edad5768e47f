// Counterinfo tells whether this machine's free-running counter can be
// trusted for timing, and what reading it costs.
//
// It discovers the counter's rate as [counter.Discover] does and reports
// where the rate came from and how good it is (in -json, reported_hz is the
// rate the hardware itself reported, 0 where it reports none, as most
// virtual machines' CPUs do, and discovery measured the rate instead); the platform facts that
// decide whether the counter is sound (CPU, hypervisor, the invariant and
// RDTSCP bits, Linux's clocksource and /proc/cpuinfo flags, the kernel's own
// TSC rate); the counter's drift against the raw monotonic clock over a
// window; the cost of each kind of read next to time.Now, and of the raw
// clock read as the package's brackets read it, with the path they take
// (bracket_read: the vDSO or a system call); the counter's resolution, its
// own increment (resolution_ticks, resolution_ns), beside the least gap
// between two back-to-back reads (step_ticks, step_ns), which is about a
// read's cost where reads are slower than the counter; the read floor, the
// p50, p99 and max of empty Now→Now and Begin→End spans read back to back
// by [counter.Counter.Floor] (the table's floor rows, which say where a max
// far above the p99 is an interrupt or a preemption; in -json
// floor_now_ticks, floor_now_ns, floor_begin_end_ticks and
// floor_begin_end_ns, each an object of p50, p99 and max); and, on Linux,
// whether a reading handed from one CPU to another is ever behind the other
// CPU's counter, and each CPU's counter offset from the first's, as
// Discover's per-CPU check found it. With -watch it then runs
// [counter.Watch] live, as a service would.
//
// Usage:
//
//	counterinfo [-json] [-window d] [-crosscore d] [-watch d [-period d]]
//
// The flags are:
//
//	-json
//		print JSON instead of the table: one document, the report;
//		with -watch, JSON Lines (below)
//	-window duration
//		how long to compare the counter with the raw monotonic clock,
//		at least 20ms (default 300ms)
//	-crosscore duration
//		time to spend handing readings between CPUs, shared by every
//		CPU pair; 0 skips the check (default 200ms)
//	-watch duration
//		after the report, watch the counter live for this long,
//		printing each event as it happens and at the end the refined
//		rate; at least -period; 0 does not watch
//	-period duration
//		the period of -watch's checks, from the watch's least period
//		(10ms) to -watch's time; only with -watch (default 1s)
//
// The output is a table whose first lines are for an operator: the verdict,
// the rate and where it came from, whether the counter can be trusted
// across CPUs, what to do, and any warning, in plain words. The
// measurements behind them follow under a heading, each row with its unit
// and what it means, and then a text histogram of the read floor. With
// -watch, a line of text follows for each event, and the refined rate at
// the end; where standard output is not a terminal, a line on standard
// error says that the watch runs and for how long. With -json it is one JSON document, the report. With -json
// and -watch it is JSON Lines: one compact JSON object a line, each with a
// "kind" that says what it is: the report first ("report", with the
// document's fields), then an event a line as the watch raises them
// ("event"), and the watch's summary last ("summary": the refined rate and
// its uncertainty, the state, the events printed). Where discovery refuses
// the counter or the watch cannot run, the report is the only line.
//
// The exit status is 0 when the counter is usable, 1 when discovery refused
// it, 2 on a usage error, 3 when the report could not be written (a full
// disk, a closed pipe), with the reason on standard error, and 4 when -watch
// saw an event that made the counter untrusted; a status of 0, 1 or 4 means
// the whole report was written. A usage error is found before any
// measurement: a flag that cannot be parsed, a -window too short to measure
// the drift, a negative time, a -period without -watch, or a -period the
// watch refuses or longer than -watch. -h and -help print the usage on
// standard output and exit 0. Warnings (a trapped read, a drift, a backward
// step between CPUs) are printed but do not change the exit status. A
// default run takes a discovery, -window and -crosscore, and the reads'
// timing.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	// A write to a closed pipe on standard output would raise SIGPIPE, and
	// the runtime would end the process with it before the write returned:
	// ignored, the write fails with EPIPE, and run exits with exitWrite and
	// says why, as it does for any other failed write.
	signal.Ignore(syscall.SIGPIPE)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
