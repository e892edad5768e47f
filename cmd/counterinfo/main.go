// Counterinfo tells whether this machine's free-running counter can be
// trusted for timing, and what reading it costs.
//
// It discovers the counter's rate as [counter.Discover] does and reports
// where the rate came from and how good it is; the platform facts that
// decide whether the counter is sound (CPU, hypervisor, the invariant and
// RDTSCP bits, Linux's clocksource and /proc/cpuinfo flags, the kernel's own
// TSC rate); the counter's drift against the raw monotonic clock over a
// window; the cost of each kind of read next to time.Now; the smallest step
// between back-to-back reads; and, on Linux, whether a reading handed from
// one CPU to another is ever behind the other CPU's counter.
//
// Usage:
//
//	counterinfo [-json] [-window 300ms] [-crosscore 200ms]
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
//
// The exit status is 0 when the counter is usable, 1 when discovery refused
// it, 2 on a usage error, and 3 when the report could not be written (a
// full disk, a closed pipe), with the reason on standard error; a status of
// 0 or 1 means the whole report was written. -h and -help print the usage on
// standard output and exit 0. Warnings (a trapped read, a drift, a backward step
// between CPUs) are printed but do not change the exit status. A default run
// takes about half a second.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
