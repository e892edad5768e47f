package counter

import (
	"slices"
	"testing"
	"time"

	"github.com/tickstamp/counter/internal/affinity"
)

// TestCPUCheckOnThisMachine runs the per-CPU check on this machine's CPUs,
// whose counters agree: it must not refuse, and must check every CPU.
func TestCPUCheckOnThisMachine(t *testing.T) {
	if backend == "nanotime" {
		t.Skip("no hardware counter: the check would compare the runtime's clock with itself")
	}
	allowed, err := affinity.Allowed()
	if err != nil {
		t.Skipf("cannot read the affinity mask: %v", err)
	}
	if len(allowed) < 2 {
		t.Skip("one CPU: nothing to check")
	}
	c := New(gigahertz())
	hz, err := MeasureRate()
	if err == nil {
		c = New(hz)
	}
	var took []time.Duration
	for range 20 {
		check, err := machineCPUs.check(c.Rate())
		if err != nil {
			t.Fatal(err)
		}
		if len(check.CPUs) != len(allowed) {
			t.Fatalf("checked %v; unchecked %v", check.CPUs, check.Unchecked)
		}
		took = append(took, check.Took)
		if t.Failed() {
			return
		}
	}
	slices.Sort(took)
	check, _ := machineCPUs.check(c.Rate())
	l := check.largest()
	t.Logf("%d CPUs, %d brackets each: took median %v, worst %v; largest offset CPU %d %v (bound %v)",
		len(check.CPUs), check.Brackets, took[len(took)/2], took[len(took)-1], l.CPU, l.Offset, l.Bound)
}

func BenchmarkCPUCheck(b *testing.B) {
	hz, err := MeasureRate()
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		check, err := machineCPUs.check(hz)
		if err != nil {
			b.Fatal(err)
		}
		if check == nil {
			b.Skip("one CPU")
		}
	}
}
