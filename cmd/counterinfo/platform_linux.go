package main

import (
	"os"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// platformOS fills what Linux says about the counter: the current
// clocksource, and on x86 /proc/cpuinfo's TSC flags and the rate the kernel
// logged for the TSC.
func platformOS(r *report) {
	if b, err := os.ReadFile("/sys/devices/system/clocksource/clocksource0/current_clocksource"); err == nil {
		r.Clocksource = strings.TrimSpace(string(b))
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "386" {
		return // the flags and the kernel's rate are the TSC's
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		if flags, ok := parseCPUFlags(string(b)); ok {
			r.CPUFlags = flags
		}
	}
	r.KernelHz = parseKernelRate(kernelLog())
}

// kernelLog returns the kernel's log buffer, as dmesg prints it, or "" where
// the kernel does not let this process read it (dmesg_restrict without
// CAP_SYSLOG). The TSC's lines are from boot, so a buffer that has wrapped
// since has lost them.
func kernelLog() string {
	size, err := unix.Klogctl(unix.SYSLOG_ACTION_SIZE_BUFFER, nil)
	if err != nil || size <= 0 {
		return ""
	}
	buf := make([]byte, size)
	n, err := unix.Klogctl(unix.SYSLOG_ACTION_READ_ALL, buf)
	if err != nil || n <= 0 {
		return ""
	}
	return string(buf[:n])
}
