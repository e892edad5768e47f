package floor_test

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tickstamp/counter/internal/floor"
)

// The unrolled reads, each under the name of its instruction sequence.
var unrolled = []struct {
	name string
	f    func() uint64
}{
	{"Unrolled", floor.Unrolled},
	{"UnrolledOrdered", floor.UnrolledOrdered},
	{"Called", floor.Called},
	{"CalledOrdered", floor.CalledOrdered},
}

// withRDTSCP adds the RDTSCP floors to unrolled where the CPU has RDTSCP.
func withRDTSCP(t *testing.T) []struct {
	name string
	f    func() uint64
} {
	all := unrolled
	if hasRDTSCP(t) {
		all = append(all[:len(all):len(all)], []struct {
			name string
			f    func() uint64
		}{{"UnrolledRDTSCP", floor.UnrolledRDTSCP}, {"CalledRDTSCP", floor.CalledRDTSCP}}...)
	}
	return all
}

// hasRDTSCP reports whether /proc/cpuinfo lists rdtscp, skipping the test
// where there is no /proc/cpuinfo to ask on amd64.
func hasRDTSCP(t *testing.T) bool {
	if runtime.GOARCH != "amd64" || !floor.Available {
		return false
	}
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("cannot tell whether the CPU has RDTSCP: %v", err)
	}
	for line := range strings.Lines(string(info)) {
		if name, flags, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			return slices.Contains(strings.Fields(flags), "rdtscp")
		}
	}
	return false
}

func TestUnrolledCountsUp(t *testing.T) {
	for _, u := range withRDTSCP(t) {
		t.Run(u.name, func(t *testing.T) {
			if !floor.Available {
				if got := u.f(); got != 0 {
					t.Fatalf("%s() = %v where unavailable; want 0", u.name, got)
				}
				t.Skipf("no unrolled read on %s/%s with this build's tags", runtime.GOOS, runtime.GOARCH)
			}
			prev := u.f()
			for i := range 10000 {
				got := u.f()
				if got < prev {
					t.Fatalf("call %d: %s() = %v after %v; want no step back", i, u.name, got, prev)
				}
				prev = got
			}
			if prev == 0 {
				t.Fatalf("%s() = 0; want a reading of a running counter", u.name)
			}
		})
	}
}

// TestUnrolledReadsOneCounter interleaves the unrolled and the called reads,
// which read the same counter, so none may be behind the one before it.
func TestUnrolledReadsOneCounter(t *testing.T) {
	if !floor.Available {
		t.Skipf("no unrolled read on %s/%s with this build's tags", runtime.GOOS, runtime.GOARCH)
	}
	prev := floor.Unrolled()
	for i := range 10000 {
		ordered := floor.UnrolledOrdered()
		bare := floor.Unrolled()
		calledOrdered := floor.CalledOrdered()
		called := floor.Called()
		if ordered < prev || bare < ordered || calledOrdered < bare || called < calledOrdered {
			t.Fatalf("round %d: %v, then ordered %v, bare %v, called ordered %v, called %v; want no step back",
				i, prev, ordered, bare, calledOrdered, called)
		}
		prev = called
	}
}

// TestAvailable checks that the unrolled reads exist exactly on amd64 and
// arm64, unless the purego build tag asks for none, and name their
// instructions there.
func TestAvailable(t *testing.T) {
	want := map[string][2]string{
		"amd64": {"RDTSC", "LFENCE; RDTSC"},
		"arm64": {"MRS CNTVCT_EL0", "ISB; MRS CNTVCT_EL0"},
	}[runtime.GOARCH]
	if !floor.Available {
		want = [2]string{}
	}
	if got := [2]string{floor.Instruction, floor.OrderedInstruction}; got != want {
		t.Fatalf("Instruction, OrderedInstruction = %q with Available %v on %s; want %q", got, floor.Available, runtime.GOARCH, want)
	}
}
