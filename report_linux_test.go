package counter

import (
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestDiscoveryReport is the discovery's precision report, not a pass/fail
// test of it: with COUNTER_DISCOVERY_REPORT=1 it discovers 20 times and
// compares each measured rate with the kernel's own calibration of the TSC
// (dmesg's last "tsc: Refined TSC clocksource calibration" or "tsc:
// Detected ... MHz"), and times the path a CPUID-reported rate takes. The
// README quotes it, run as
//
//	COUNTER_DISCOVERY_REPORT=1 go test -run TestDiscoveryReport -v .
//
// with the other cores kept busy by another process or not.
func TestDiscoveryReport(t *testing.T) {
	if os.Getenv("COUNTER_DISCOVERY_REPORT") != "1" {
		t.Skip("set COUNTER_DISCOVERY_REPORT=1 for the report")
	}
	kernelHz, err := kernelTSCRate()
	if err != nil {
		t.Skipf("no kernel TSC rate to compare with: %v", err)
	}
	var ppm, took []float64
	for range 20 {
		_, d, err := DiscoverDetails()
		if err != nil {
			t.Fatal(err)
		}
		took = append(took, float64(d.Took)/1e6)
		ppm = append(ppm, (float64(d.Rate.Hertz())-kernelHz)/kernelHz*1e6)
	}
	abs := make([]float64, len(ppm))
	for i, p := range ppm {
		abs[i] = math.Abs(p)
	}
	slices.Sort(abs)
	slices.Sort(took)
	t.Logf("kernel's rate %.0f Hz; 20 discoveries (source %v)", kernelHz, SourceMeasured)
	t.Logf("distance from the kernel's rate: median %.3f ppm, worst %.3f ppm", (abs[9]+abs[10])/2, abs[19])
	t.Logf("each, ppm: %.3f", ppm)
	t.Logf("discovery took: median %.2f ms, worst %.2f ms", (took[9]+took[10])/2, took[19])

	// The path of a rate CPUID reports: its check against a 1 ms
	// measurement, with the kernel's rate standing in for CPUID's.
	var checked []float64
	for range 20 {
		start := time.Now()
		if _, err := settle(uint64(kernelHz), SourceCrystal, measurer()); err != nil {
			t.Fatal(err)
		}
		checked = append(checked, float64(time.Since(start))/1e6)
	}
	slices.Sort(checked)
	t.Logf("a reported rate's check took: median %.2f ms, worst %.2f ms", (checked[9]+checked[10])/2, checked[19])
}

// kernelTSCRate returns the kernel's last word on the TSC's rate, from dmesg.
func kernelTSCRate() (float64, error) {
	out, err := exec.Command("dmesg").Output()
	if err != nil {
		return 0, err
	}
	re := regexp.MustCompile(`tsc: (?:Refined TSC clocksource calibration:|Detected) ([0-9.]+) MHz`)
	m := re.FindAllSubmatch(out, -1)
	if m == nil {
		return 0, os.ErrNotExist
	}
	mhz, err := strconv.ParseFloat(string(m[len(m)-1][1]), 64)
	return mhz * 1e6, err
}

func BenchmarkDiscover(b *testing.B) {
	for b.Loop() {
		if _, err := Discover(); err != nil {
			b.Skip(err)
		}
	}
}
