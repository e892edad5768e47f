package handover

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestBarrierFallsBackUnderSeccomp runs a child that registers for
// membarrier(2), records from two writers while a reader takes Intervals,
// and then installs a seccomp filter on every thread (TSYNC, as a service
// that drops privileges after start-up does) that refuses membarrier: all
// of it, or only its expedited command. The Intervals after go on, fall
// back to stopping the world, never panic, and lose nothing.
func TestBarrierFallsBackUnderSeccomp(t *testing.T) {
	if refuse := os.Getenv("COUNTER_SECCOMP_CHILD"); refuse != "" {
		seccompChild(refuse)
		return
	}
	if !PlainStores {
		t.Skip("the writers' stores are atomic here: no barrier to fall back from")
	}
	for _, refuse := range []string{"all", "expedited"} {
		t.Run(refuse, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBarrierFallsBackUnderSeccomp$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), "COUNTER_SECCOMP_CHILD="+refuse)
			out, err := cmd.CombinedOutput()
			switch {
			case strings.Contains(string(out), "no membarrier here"):
				t.Skipf("the child could not register for membarrier: %s", out)
			case err != nil || !strings.Contains(string(out), "fell back"):
				t.Fatalf("the child (refusing %s) failed: %v\n%s", refuse, err, out)
			}
			for l := range strings.SplitSeq(string(out), "\n") {
				if strings.Contains(l, "fell back") {
					t.Log(strings.TrimSpace(l))
				}
			}
		})
	}
}

// seccompChild is the child's side: it prints what it saw, and exits 1 on
// any loss.
func seccompChild(refuse string) {
	fail := func(format string, args ...any) {
		fmt.Printf(format+"\n", args...)
		os.Exit(1)
	}
	if ProcessBarrier() != Membarrier {
		fmt.Println("no membarrier here")
		os.Exit(0)
	}
	c := NewCollector(ProcessBarrier())
	// Two writers record 100 records an Interval until told to stop,
	// each saying how many it has finished; the reader takes 300
	// Intervals, installs the filter, and takes 300 more while they record.
	const before, after = 300, 300
	var finished [2]atomic.Int64
	var stop atomic.Bool
	var rounds atomic.Int64
	var writers sync.WaitGroup
	for i := range finished {
		writers.Add(1)
		go func() {
			defer writers.Done()
			w := c.NewWriter()
			defer w.Close()
			j := 0
			for r := int64(0); !stop.Load(); r++ {
				for range 100 {
					if j%101 == 0 {
						w.RecordKind(int64(j), KindMigrated)
					} else {
						w.Record(int64(j))
					}
					j++
				}
				finished[i].Store(int64(j))
				for rounds.Load() <= r && !stop.Load() {
					runtime.Gosched()
				}
			}
		}()
	}
	var total, s Dist
	passes := 0
	var last int64
	for i := range before + after {
		if i == before {
			installSeccomp(refuse, fail)
		}
		// Each Interval waits for the writers to finish more records, so
		// that it has something to take.
		var done int64
		for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); runtime.Gosched() {
			done = finished[0].Load() + finished[1].Load()
			if done > last {
				break
			}
		}
		last = done
		c.Interval(&s)
		rounds.Add(1)
		total.Merge(&s)
		if !s.Empty() && i >= before {
			passes++
		}
		if got := total.Count() + total.Migrated(); got < uint64(done) {
			fail("after %d Intervals the Dists hold %d records; %d had finished before the last began", i+1, got, done)
		}
	}
	stop.Store(true)
	writers.Wait()
	c.Interval(&s)
	total.Merge(&s)
	var want Dist
	for i := range finished {
		for j := range finished[i].Load() {
			if j%101 == 0 {
				want.Add(KindMigrated, j)
			} else {
				want.Add(KindSpan, j)
			}
		}
	}
	if !total.Equal(&want) {
		fail("the Dists add up to count %d, migrated %d, sum %d:%d; want %d, %d, %d:%d",
			total.count, total.migrated, total.hi, total.lo, want.count, want.migrated, want.hi, want.lo)
	}
	if passes == 0 {
		fail("no Interval after the filter took a record: nothing fell back")
	}
	if b := c.Barrier(); b != StopTheWorld || ProcessBarrier() != StopTheWorld {
		fail("the barrier is %v and the process's %v after membarrier was refused; want stop the world", b, ProcessBarrier())
	}
	if NewCollector(ProcessBarrier()).barrier != StopTheWorld {
		fail("a new Collector takes %v; want stop the world", ProcessBarrier())
	}
	fmt.Printf("refusing %s membarrier after %d Intervals: fell back to stopping the world for %d more that took records; %d records exact\n",
		refuse, before, passes, total.Count()+total.Migrated())
}

// installSeccomp installs, on every thread of the process, a filter that
// makes membarrier(2) fail with EPERM: every call of it, or where refuse
// is "expedited" only MEMBARRIER_CMD_PRIVATE_EXPEDITED.
func installSeccomp(refuse string, fail func(string, ...any)) {
	const (
		ld  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		ret = unix.BPF_RET | unix.BPF_K
		// Offsets in struct seccomp_data: the system call's number, and
		// the low half of its first argument (little-endian).
		nr   = 0
		arg0 = 16
	)
	deny := unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)}
	allow := unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ALLOW}
	var prog []unix.SockFilter
	switch refuse {
	case "all":
		prog = []unix.SockFilter{
			{Code: ld, K: nr},
			{Code: jeq, Jt: 0, Jf: 1, K: unix.SYS_MEMBARRIER},
			deny,
			allow,
		}
	case "expedited":
		prog = []unix.SockFilter{
			{Code: ld, K: nr},
			{Code: jeq, Jt: 0, Jf: 3, K: unix.SYS_MEMBARRIER},
			{Code: ld, K: arg0},
			{Code: jeq, Jt: 0, Jf: 1, K: membarrierPrivateExpedited},
			deny,
			allow,
		}
	default:
		fail("refuse %q: want all or expedited", refuse)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		fail("PR_SET_NO_NEW_PRIVS: %v", err)
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		fail("seccomp: %v", errno)
	}
	if membarrier() == nil {
		fail("membarrier succeeded under the filter")
	}
}
