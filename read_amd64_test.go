//go:build !purego

package counter

import (
	"bytes"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
)

// nowCPUTagged reports whether NowCPU reads the CPU from TSC_AUX.
func nowCPUTagged() bool {
	detectFeatures()
	return atomic.LoadUint32(&cpuInAux) == 1
}

// TestFeaturesMatchCPUInfo checks what detectFeatures found against the
// flags Linux lists in /proc/cpuinfo.
func TestFeaturesMatchCPUInfo(t *testing.T) {
	detectFeatures()
	got := atomic.LoadUint32(&hasRDTSCP) == 1
	t.Logf("RDTSCP: %v", got)
	if runtime.GOOS != "linux" {
		t.Skipf("no /proc/cpuinfo on %s", runtime.GOOS)
	}
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("cannot read /proc/cpuinfo: %v", err)
	}
	want := cpuinfoHasFlag(info, "rdtscp")
	if got != want {
		t.Fatalf("hasRDTSCP = %v; want %v (/proc/cpuinfo flags)", got, want)
	}
	if gotAux, want := atomic.LoadUint32(&cpuInAux) == 1, want && tscAuxIsCPU; gotAux != want {
		t.Fatalf("cpuInAux = %v; want %v", gotAux, want)
	}
}

// TestCPUIDVendor checks the CPUID stub on leaf 0, whose EBX, EDX, ECX spell
// the vendor, against /proc/cpuinfo's vendor_id.
func TestCPUIDVendor(t *testing.T) {
	maxLeaf, ebx, ecx, edx := cpuid(0, 0)
	var vendor []byte
	for _, r := range []uint32{ebx, edx, ecx} {
		vendor = append(vendor, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	t.Logf("CPUID 0: max leaf %#x, vendor %q", maxLeaf, vendor)
	if maxLeaf == 0 {
		t.Fatalf("CPUID 0 reports max leaf 0; want at least 1 on every amd64 CPU")
	}
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("cannot read /proc/cpuinfo: %v", err)
	}
	if !bytes.Contains(info, append([]byte("vendor_id\t: "), vendor...)) {
		t.Fatalf("vendor %q from CPUID is not /proc/cpuinfo's vendor_id", vendor)
	}
}

// cpuinfoHasFlag reports whether the first "flags" line of /proc/cpuinfo
// lists flag.
func cpuinfoHasFlag(info []byte, flag string) bool {
	for line := range bytes.Lines(info) {
		name, list, ok := bytes.Cut(line, []byte(":"))
		if !ok || string(bytes.TrimSpace(name)) != "flags" {
			continue
		}
		for _, f := range bytes.Fields(list) {
			if string(f) == flag {
				return true
			}
		}
		return false
	}
	return false
}
