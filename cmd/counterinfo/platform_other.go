//go:build !linux

package main

// platformOS fills nothing: only Linux has /proc/cpuinfo's flags, a
// clocksource file and a kernel log of the TSC's rate to read.
func platformOS(r *report) {}
