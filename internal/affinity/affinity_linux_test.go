package affinity

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestPinEachAllowedCPU(t *testing.T) {
	cpus, err := Allowed()
	if err != nil {
		t.Fatalf("Allowed: %v", err)
	}
	if len(cpus) == 0 || !slices.IsSorted(cpus) {
		t.Fatalf("Allowed() = %v; want a non-empty increasing list", cpus)
	}
	for _, cpu := range cpus {
		unpin, err := Pin(cpu)
		if err != nil {
			t.Fatalf("Pin(%d): %v", cpu, err)
		}
		for range 100 {
			runtime.Gosched() // a pinned thread stays where it was put
			if got, err := Current(); err != nil || got != cpu {
				t.Fatalf("pinned to CPU %d, getcpu says %d (%v)", cpu, got, err)
			}
		}
		if now, _ := Allowed(); !slices.Equal(now, []int{cpu}) {
			t.Errorf("pinned to CPU %d, the thread's mask is %v", cpu, now)
		}
		if err := unpin(); err != nil {
			t.Fatalf("unpin: %v", err)
		}
	}
	if after, _ := Allowed(); !slices.Equal(after, cpus) {
		t.Errorf("after unpinning, the mask is %v; want %v back", after, cpus)
	}
}

func TestPinRefusesACPUOutsideTheMask(t *testing.T) {
	if _, err := Pin(maxCPUs - 1); err == nil {
		t.Fatalf("Pin(%d) succeeded on a machine with %d CPUs", maxCPUs-1, runtime.NumCPU())
	}
	// A failed Pin leaves the goroutine unlocked: locking is counted, so a
	// leaked lock would show as a second unlock doing nothing; check the
	// thread can still be pinned and unpinned cleanly.
	unpin, err := Pin(0)
	if err != nil {
		t.Skipf("CPU 0 is not ours: %v", err)
	}
	if err := unpin(); err != nil {
		t.Fatal(err)
	}
}

// TestFailedPinLocksNothing checks that a Pin that fails leaves its
// goroutine unlocked: a goroutine that ends locked to its thread ends the
// thread, so the thread of a goroutine that ends after a failed Pin must
// live on.
func TestFailedPinLocksNothing(t *testing.T) {
	tid := make(chan int)
	go func() {
		if _, err := Pin(maxCPUs - 1); err == nil {
			t.Errorf("Pin(%d) succeeded", maxCPUs-1)
		}
		tid <- unix.Gettid()
	}()
	task := "/proc/self/task/" + strconv.Itoa(<-tid)
	for range 10 {
		time.Sleep(5 * time.Millisecond)
		if _, err := os.Stat(task); err != nil {
			t.Fatalf("the thread of a goroutine that ended after a failed Pin ended with it (%v): the goroutine was left locked", err)
		}
	}
}
