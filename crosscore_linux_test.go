package counter

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// allowedCPUs returns the CPUs this process may run on.
func allowedCPUs(t *testing.T) []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Skipf("cannot read the CPUs this process may use: %v", err)
	}
	var cpus []int
	for cpu := range 1024 {
		if set.IsSet(cpu) {
			cpus = append(cpus, cpu)
		}
	}
	return cpus
}

// pin locks the calling goroutine to its thread and the thread to cpu,
// until the returned function undoes both.
func pin(cpu int) (unpin func() error, err error) {
	runtime.LockOSThread()
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	return func() error {
		if err := unix.SchedSetaffinity(0, &old); err != nil {
			return err // a thread left pinned stays locked, and dies with its goroutine
		}
		runtime.UnlockOSThread()
		return nil
	}, nil
}

// pinned runs f on a thread pinned to cpu, and reports errors of pinning
// with t.Errorf, so that it may run on any goroutine.
func pinned(t *testing.T, cpu int, f func()) {
	unpin, err := pin(cpu)
	if err != nil {
		t.Errorf("pinning a thread to CPU %d: %v", cpu, err)
		return
	}
	f()
	if err := unpin(); err != nil {
		t.Errorf("unpinning a thread from CPU %d: %v", cpu, err)
	}
}

// getcpu returns the CPU the calling thread runs on, by the getcpu system
// call, for which x/sys/unix has no wrapper.
func getcpu() (int, error) {
	var cpu uint32
	if _, _, errno := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), 0, 0); errno != 0 {
		return -1, errno
	}
	return int(cpu), nil
}

// TestCrossCore hands readings from each CPU to each other CPU through an
// atomic: the receiver, once it has loaded a reading, takes its own with an
// ordered mark, and that must be no earlier. It logs the closest approach,
// the least by which a receiver's reading followed the one handed to it,
// which is negative (a step back) where the CPUs' counters disagree.
func TestCrossCore(t *testing.T) {
	cpus := allowedCPUs(t)
	if len(cpus) < 2 {
		t.Skipf("this process may run on %d CPU: no other CPU to hand a reading to", len(cpus))
	}
	c := New(Gigahertz())
	handoffs := 20_000
	if testing.Short() {
		handoffs = 2_000
	}
	kinds := []struct {
		name string
		send func() Tickstamp
	}{
		{"Now", c.Now},
		{"Begin", c.Begin},
		{"End", c.End},
		{"NowCPU", func() Tickstamp { ts, _ := c.NowCPU(); return ts }},
		{"MonotonicClock", MonotonicClock{}.Now},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			// The receiver reads the same clock as the sender, ordered
			// after its load: End for the counter, the runtime's clock for
			// itself (the vDSO orders its own read).
			recv := c.End
			if k.name == "MonotonicClock" {
				recv = MonotonicClock{}.Now
			}
			closest := MaxTickdelta
			for _, from := range cpus {
				for _, to := range cpus {
					if from == to {
						continue
					}
					closest = min(closest, handOff(t, from, to, handoffs, k.send, recv))
				}
			}
			t.Logf("%d CPUs, %d handoffs a pair: a receiver's reading followed the one handed to it by at least %v", len(cpus), handoffs, closest)
			if closest < 0 {
				t.Errorf("a reading handed across CPUs was %v later than the receiver's next; want never later", -closest)
			}
		})
	}
}

// handOff runs n handoffs from CPU from to CPU to and returns the least
// span from a sent reading to the receiver's next one: negative for a step
// back.
func handOff(t *testing.T, from, to, n int, send, recv func() Tickstamp) Tickdelta {
	// The sender stores a reading, then its number in seq; the receiver
	// waits for the number, loads the reading, takes its own, and answers
	// with the number plus 2³² in seq, the go-ahead for the next one.
	var seq, stamp atomic.Uint64
	closest := MaxTickdelta
	done := make(chan struct{})
	deadline := time.Now().Add(30 * time.Second)
	go func() {
		defer close(done)
		pinned(t, to, func() {
			for i := uint64(1); i <= uint64(n); i++ {
				for spins := 0; seq.Load() != i; spins++ {
					if spins%4096 == 4095 && time.Now().After(deadline) {
						t.Errorf("CPU %d→%d: handoff %d never arrived", from, to, i)
						return
					}
				}
				sent := Tickstamp(stamp.Load())
				got := recv()
				closest = min(closest, got.Sub(sent))
				seq.Store(i + 1<<32)
			}
		})
	}()
	pinned(t, from, func() {
		for i := uint64(1); i <= uint64(n); i++ {
			stamp.Store(uint64(send()))
			seq.Store(i)
			for seq.Load() != i+1<<32 {
				select {
				case <-done:
					return
				default:
				}
			}
		}
	})
	<-done
	return closest
}

// TestNowCPUMatchesPinnedCPU pins the thread to each CPU in turn: NowCPU
// must name it where TSC_AUX holds the CPU (Linux on amd64 with RDTSCP), as
// the getcpu system call does, and be -1 elsewhere.
func TestNowCPUMatchesPinnedCPU(t *testing.T) {
	c := New(Gigahertz())
	tagged := nowCPUTagged()
	t.Logf("backend %s, CPU in TSC_AUX: %v", backend, tagged)
	for _, cpu := range allowedCPUs(t) {
		want := -1
		if tagged {
			want = cpu
		}
		pinned(t, cpu, func() {
			if sys, err := getcpu(); err != nil || sys != cpu {
				t.Errorf("getcpu() = %v, %v on a thread pinned to CPU %d; want %v", sys, err, cpu, cpu)
				return
			}
			for range 1000 {
				if _, got := c.NowCPU(); got != want {
					t.Errorf("NowCPU() CPU = %v on a thread pinned to CPU %d; want %v", got, cpu, want)
					return
				}
			}
		})
	}
}
