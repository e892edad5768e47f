package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tickstamp/counter"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

// TestTableFirstLinesGolden holds the lines an operator reads first, up to
// the heading of the measurements, for a usable counter, one whose readings
// went backwards between CPUs, one not checked across CPUs, and a refused
// one, against golden files in testdata; -update rewrites them.
func TestTableFirstLinesGolden(t *testing.T) {
	usable := func() report {
		r := newReport()
		r.Usable, r.Rate, r.RateHz, r.Source = true, "2.599998131 GHz", 2_599_998_131, counter.SourceMeasured.String()
		r.DiscoverMS, r.UncertaintyPPM = 10.1, 0.011
		r.CrossCore.Checked, r.CrossCore.Handoffs, r.CrossCore.Pairs = true, 1_642_593, 2
		r.CPUOffsetsNS, r.CPUOffsetBoundNS = map[string]float64{"0": 0, "1": 0}, 60
		return r
	}
	for _, tc := range []struct {
		name string
		r    func() report
	}{
		{"usable", usable},
		{"backward", func() report {
			r := usable()
			r.CrossCore.WorstBackTicks, r.CrossCore.WorstBackNS = 900, 346
			r.Warnings = []string{"a reading handed from CPU 0 to CPU 1 was behind by 346 ns"}
			return r
		}},
		{"unchecked", func() report {
			r := usable()
			r.Source = "cpuid-0x15"
			r.CrossCore = newCrossCoreReport()
			r.CrossCore.Reason = "not checked: -crosscore 0"
			r.CPUOffsetsNS = map[string]float64{}
			return r
		}},
		{"refused", func() report {
			r := newReport()
			r.Refusal = counter.ErrNotInvariant.Error()
			r.Instead = "time with counter.Monotonic(), the runtime's monotonic clock, which needs no invariant counter (see counter.ErrNotInvariant)"
			return r
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := writeTable(&buf, tc.r()); err != nil {
				t.Fatal(err)
			}
			first, _, ok := strings.Cut(buf.String(), "\nThe measurements behind it:\n")
			if !ok {
				t.Fatalf("the table has no heading of its measurements:\n%s", buf.String())
			}
			golden := filepath.Join("testdata", "table-"+tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(first), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -run TestTableFirstLinesGolden -update writes it)", err)
			}
			if first != string(want) {
				t.Errorf("the table begins:\n%s\nwant (%s):\n%s", first, golden, want)
			}
		})
	}
}
