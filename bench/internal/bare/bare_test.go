package bare_test

import (
	"runtime"
	"testing"

	"github.com/tickstamp/counter/bench/internal/bare"
)

// The unrolled reads, each under the name of its instruction sequence.
var unrolled = []struct {
	name string
	f    func() uint64
}{
	{"Unrolled", bare.Unrolled},
	{"UnrolledOrdered", bare.UnrolledOrdered},
	{"Called", bare.Called},
	{"CalledOrdered", bare.CalledOrdered},
}

// withRDTSCP adds the RDTSCP reads to unrolled where the CPU has RDTSCP.
func withRDTSCP() []struct {
	name string
	f    func() uint64
} {
	all := unrolled
	if bare.HasRDTSCP() {
		all = append(all[:len(all):len(all)], []struct {
			name string
			f    func() uint64
		}{{"UnrolledRDTSCP", bare.UnrolledRDTSCP}, {"CalledRDTSCP", bare.CalledRDTSCP}}...)
	}
	return all
}

func TestUnrolledCountsUp(t *testing.T) {
	for _, u := range withRDTSCP() {
		t.Run(u.name, func(t *testing.T) {
			if !bare.Available {
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
	if !bare.Available {
		t.Skipf("no unrolled read on %s/%s with this build's tags", runtime.GOOS, runtime.GOARCH)
	}
	prev := bare.Unrolled()
	for i := range 10000 {
		ordered := bare.UnrolledOrdered()
		unordered := bare.Unrolled()
		calledOrdered := bare.CalledOrdered()
		called := bare.Called()
		if ordered < prev || unordered < ordered || calledOrdered < unordered || called < calledOrdered {
			t.Fatalf("round %d: %v, then ordered %v, unordered %v, called ordered %v, called %v; want no step back",
				i, prev, ordered, unordered, calledOrdered, called)
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
	if !bare.Available {
		want = [2]string{}
	}
	if got := [2]string{bare.Instruction, bare.OrderedInstruction}; got != want {
		t.Fatalf("Instruction, OrderedInstruction = %q with Available %v on %s; want %q", got, bare.Available, runtime.GOARCH, want)
	}
}
