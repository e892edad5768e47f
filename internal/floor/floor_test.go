package floor_test

import (
	"runtime"
	"testing"

	"github.com/tickstamp/counter/internal/floor"
)

func TestUnrolledCountsUp(t *testing.T) {
	if !floor.Available {
		if got := floor.Unrolled(); got != 0 {
			t.Fatalf("Unrolled() = %v where unavailable; want 0", got)
		}
		t.Skipf("no unrolled read on %s/%s with this build's tags", runtime.GOOS, runtime.GOARCH)
	}
	prev := floor.Unrolled()
	for i := range 10000 {
		got := floor.Unrolled()
		if got < prev {
			t.Fatalf("call %d: Unrolled() = %v after %v; want no step back", i, got, prev)
		}
		prev = got
	}
	if prev == 0 {
		t.Fatalf("Unrolled() = 0; want a reading of a running counter")
	}
}

// TestAvailable checks that the unrolled read exists exactly on amd64 and
// arm64, unless the purego build tag asks for none, and names its
// instruction there.
func TestAvailable(t *testing.T) {
	want := map[string]string{"amd64": "RDTSC", "arm64": "MRS CNTVCT_EL0"}[runtime.GOARCH]
	if !floor.Available {
		want = ""
	}
	if got := floor.Instruction; got != want {
		t.Fatalf("Instruction = %q with Available %v on %s; want %q", got, floor.Available, runtime.GOARCH, want)
	}
}
