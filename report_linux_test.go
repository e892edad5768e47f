package counter

import (
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/tickstamp/counter/internal/affinity"
)

// TestDiscoveryReport is the discovery's precision report, not a pass/fail
// test of it. With COUNTER_DISCOVERY_REPORT=1 it measures a reference, the
// raw clock's own rate for the counter over 10 s; discovers 20 times and
// compares each rate with the reference, and times each; times the path of
// a CPUID-reported rate; and measures 100 times more, to check
// [Measurement.SpreadPPM]: about 95% of repeats should land within twice
// their SpreadPPM of the reference. The README quotes it, run as
//
//	COUNTER_DISCOVERY_REPORT=1 go test -run TestDiscoveryReport -v .
//
// with the other cores kept busy by another process or not. It takes about
// 15 s.
func TestDiscoveryReport(t *testing.T) {
	if os.Getenv("COUNTER_DISCOVERY_REPORT") != "1" {
		t.Skip("set COUNTER_DISCOVERY_REPORT=1 for the report")
	}
	if readsFault() {
		t.Skip("RDTSC faults in this process")
	}
	detectFeatures()
	// The reference is pinned: on a loaded machine an unpinned thread
	// moves more often in 10 s than a measurement accepts.
	cpu, err := affinity.Current()
	if err != nil {
		t.Fatal(err)
	}
	unpin, err := affinity.Pin(cpu)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := measureCounter(10 * time.Second)
	if err := unpin(); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	refHz := float64(ref.Hz)
	t.Logf("reference: %d Hz over %v against the raw clock (spread %.4f ppm, %d segments)", ref.Hz, ref.Window, ref.SpreadPPM, ref.Segments)
	off := func(hz uint64) float64 { return (float64(hz) - refHz) / refHz * 1e6 }

	var ppm, took []float64
	for range 20 {
		_, d, err := DiscoverDetails()
		if err != nil {
			t.Errorf("a discovery refused after %v: %v", d.Took, err)
			continue
		}
		took = append(took, float64(d.Took)/1e6)
		ppm = append(ppm, off(d.Rate.Hertz()))
	}
	if len(ppm) == 0 {
		t.Fatal("every discovery refused")
	}
	t.Logf("%d discoveries (source %v), each, ppm: %.3f", len(ppm), SourceMeasured, ppm)
	t.Logf("distance from the reference: median %.3f ppm, worst %.3f ppm", medianAbs(ppm), worstAbs(ppm))
	t.Logf("discovery took: median %.2f ms, worst %.2f ms", medianAbs(took), worstAbs(took))

	// The path of a rate CPUID reports: its check against a 1 ms
	// measurement, with the reference standing in for CPUID's rate.
	var checked []float64
	for range 20 {
		start := time.Now()
		if _, err := settle(ref.Hz, SourceCrystal, measurer()); err != nil {
			t.Errorf("a reported rate's check refused: %v", err)
		}
		checked = append(checked, float64(time.Since(start))/1e6)
	}
	t.Logf("a reported rate's check took: median %.2f ms, worst %.2f ms", medianAbs(checked), worstAbs(checked))

	// SpreadPPM against the scatter of repeats.
	const repeats = 100
	var within, failed int
	var devs, spreads []float64
	for range repeats {
		m, err := measureCounter(measureWindow)
		if err != nil {
			t.Log(err) // a refusal is a finding of the report, not its end
			failed++
			continue
		}
		d := off(m.Hz)
		devs = append(devs, d)
		spreads = append(spreads, m.SpreadPPM)
		if math.Abs(d) <= 2*m.SpreadPPM {
			within++
		}
	}
	var ss float64
	for _, d := range devs {
		ss += d * d
	}
	n := len(devs)
	if n == 0 {
		t.Fatalf("all %d measurements failed", repeats)
	}
	t.Logf("%d measurements of %v (%d failed): within twice their SpreadPPM of the reference: %d%% (want about 95%%); RMS distance %.3f ppm, median SpreadPPM %.3f ppm",
		n, measureWindow, failed, within*100/n, math.Sqrt(ss/float64(n)), medianAbs(spreads))
}

// medianAbs returns the median of the magnitudes of x.
func medianAbs(x []float64) float64 {
	a := sortedAbs(x)
	n := len(a)
	return (a[(n-1)/2] + a[n/2]) / 2
}

// worstAbs returns the largest magnitude in x.
func worstAbs(x []float64) float64 { a := sortedAbs(x); return a[len(a)-1] }

func sortedAbs(x []float64) []float64 {
	a := make([]float64, len(x))
	for i, v := range x {
		a[i] = math.Abs(v)
	}
	slices.Sort(a)
	return a
}

func BenchmarkDiscover(b *testing.B) {
	for b.Loop() {
		if _, err := Discover(); err != nil {
			b.Skip(err)
		}
	}
}
