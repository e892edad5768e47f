// Counterinfo tells whether this machine's free-running counter can be
// trusted for timing, and what reading it costs.
//
// It discovers the counter's rate as [counter.Discover] does and reports
// where the rate came from and how good it is; the platform facts that
// decide whether the counter is sound (CPU, hypervisor, the invariant and
// RDTSCP bits, Linux's clocksource and /proc/cpuinfo flags, the kernel's own
// TSC rate); the counter's drift against the raw monotonic clock over a
// window; the cost of each kind of read next to time.Now, and how the
// package's brackets read the raw clock and at what cost (bracket_read,
// bracket_read_ns: rawclock.Kind and Cost); the smallest step
// between back-to-back reads; the read floor, the p50, p99 and max of empty
// Now→Now and Begin→End spans read back to back by [counter.Counter.Floor]
// (the table's floor rows; in -json floor_now_ticks, floor_now_ns,
// floor_begin_end_ticks and floor_begin_end_ns, each an object of p50, p99
// and max); and, on Linux, whether a reading handed from one CPU to another
// is ever behind the other CPU's counter, and each CPU's counter offset from
// the first's, as Discover's per-CPU check found it.
// With -watch it then runs [counter.Watch] live, as a service would.
//
// Usage:
//
//	counterinfo [-json] [-window 300ms] [-crosscore 200ms] [-watch 0 [-period 1s]]
//
// The flags are:
//
//	-json
//		print one JSON object instead of the table
//	-window duration
//		how long to compare the counter with the raw monotonic clock
//		(default 300ms)
//	-crosscore duration
//		time to spend handing readings between CPUs, shared by every
//		CPU pair; 0 skips the check (default 200ms)
//	-watch duration
//		after the report, watch the counter live for this long,
//		printing each event as it happens (a JSON object a line with
//		-json) and at the end the refined rate; 0 does not watch
//	-period duration
//		the period of -watch's checks, at least the watch's least period (default 1s)
//
// The exit status is 0 when the counter is usable, 1 when discovery refused
// it, 2 on a usage error, 3 when the report could not be written (a full
// disk, a closed pipe), with the reason on standard error, and 4 when -watch
// saw an event that made the counter untrusted; a status of 0, 1 or 4 means
// the whole report was written. -h and -help print the usage on
// standard output and exit 0. Warnings (a trapped read, a drift, a backward step
// between CPUs) are printed but do not change the exit status. A default run
// takes a discovery, -window and -crosscore, and the reads' timing.
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
