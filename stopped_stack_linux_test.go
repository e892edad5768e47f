package counter_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A threadPlace is where a thread of TestStoppedThreads's child was at a
// moment: the system call it was blocked in (-1 for none, -2 where it
// ran or its place went unread), and the functions whose return addresses
// its stack held above its stack pointer, innermost first. The child is
// this very binary, not position-independent, so its addresses name the
// same functions here.
type threadPlace struct {
	syscall int
	frames  []string
}

// String prints the place as "futex in runtime.futexsleep < runtime.lock2 < …".
func (p threadPlace) String() string {
	call := "outside a system call"
	switch {
	case p.syscall == -2:
		return "running"
	case p.syscall == unix.SYS_FUTEX:
		call = "futex"
	case p.syscall >= 0:
		call = "syscall " + strconv.Itoa(p.syscall)
	}
	frames := p.frames
	if len(frames) > 12 {
		frames = append(frames[:12:12], "…")
	}
	return call + " in " + strings.Join(frames, " < ")
}

// asleepInRuntime reports whether the thread slept where only the Go
// runtime puts it to sleep: on one of the runtime's own mutexes
// (runtime.lock2, which the heap's allocator, a cleanup's registration and
// the scheduler take), or with its goroutine preempted by the runtime
// (runtime.gopreempt_m), until the scheduler runs it again. These are
// waits no code of the Histogram asks for, and none can avoid: a stopped
// thread may hold such a mutex, and a preempted goroutine locked to its
// thread waits for another thread to hand it a processor, on a machine
// short of CPUs. A wait of the Histogram's own, a spin or a blocking call
// (a sync.Mutex, a channel, a sleep), shows neither.
func (p threadPlace) asleepInRuntime() bool {
	if p.syscall != unix.SYS_FUTEX {
		return false
	}
	for _, f := range p.frames {
		if f == "runtime.lock2" || f == "runtime.gopreempt_m" {
			return true
		}
	}
	return false
}

// holdsRuntimeLock reports whether the stopped thread was stopped in a
// step of the Go runtime that holds one of the runtime's own mutexes,
// which every other thread that allocates (or is profiled allocating)
// must take too: the memory profiler's table of stacks (runtime.stkbucket,
// under profInsertLock) and its records (runtime.mProf_Malloc,
// runtime.mProf_Free), an object's special records (runtime.addspecial,
// runtime.removespecial, which a cleanup or a profiled object takes), and
// the heap's spans (runtime.(*mheap).allocSpan, runtime.(*mheap).freeSpan,
// runtime.(*mheap).grow, under the heap's lock). A thread held up by it
// may spin or sleep in runtime.lock2, or run in between, as its place
// shows; either way no code of the Histogram's asked it to wait.
func (p threadPlace) holdsRuntimeLock() bool {
	for _, f := range p.frames {
		switch f {
		case "runtime.stkbucket", "runtime.mProf_Malloc", "runtime.mProf_Free",
			"runtime.addspecial", "runtime.removespecial",
			"runtime.(*mheap).allocSpan", "runtime.(*mheap).freeSpan", "runtime.(*mheap).grow":
			return true
		}
	}
	return false
}

// blockedPlace returns where the thread tid of process pid is blocked,
// from its syscall file, which gives the stack pointer of a blocked
// thread; syscall is -2 where it runs, or the file is unreadable.
func blockedPlace(pid, tid int) threadPlace {
	running := threadPlace{syscall: -2}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/syscall", pid, tid))
	if err != nil {
		return running
	}
	// "NR ARG1 … ARG6 SP PC" in a system call, "-1 SP PC" blocked
	// outside one, "running" otherwise.
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return running
	}
	nr, err1 := strconv.Atoi(f[0])
	sp, err2 := strconv.ParseUint(strings.TrimPrefix(f[len(f)-2], "0x"), 16, 64)
	pc, err3 := strconv.ParseUint(strings.TrimPrefix(f[len(f)-1], "0x"), 16, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return running
	}
	return threadPlace{syscall: nr, frames: stackFrames(pid, pc, sp)}
}

// stoppedPlace returns where the thread tid, stopped by its tracer, the
// calling thread, is.
func stoppedPlace(pid, tid int) (threadPlace, error) {
	var regs unix.PtraceRegs
	if err := unix.PtraceGetRegs(tid, &regs); err != nil {
		return threadPlace{}, err
	}
	return threadPlace{syscall: -1, frames: stackFrames(pid, regs.PC(), stackPointer(&regs))}, nil
}

// stackFrames returns the functions at pc and at the return addresses on
// the stack at sp of process pid, up to the stack's root function: each word of up to 16 KB of stack that points
// just past a call in this binary's text. A stale word in a frame may add
// a function; a frame without a pointer to its caller is not left out.
func stackFrames(pid int, pc, sp uint64) []string {
	frames := addFrames(nil, pc+1) // pc itself, as a return address just past it
	buf := make([]byte, 16<<10)
	local := []unix.Iovec{{Base: &buf[0]}}
	local[0].SetLen(len(buf))
	remote := []unix.RemoteIovec{{Base: uintptr(sp), Len: len(buf)}}
	n, err := unix.ProcessVMReadv(pid, local, remote, 0)
	if err != nil {
		return append(frames, "(stack unreadable: "+err.Error()+")")
	}
	for i := 0; i+8 <= n; i += 8 {
		ret := binary.LittleEndian.Uint64(buf[i:])
		if f := runtime.FuncForPC(uintptr(ret - 1)); ret == 0 || f == nil || uint64(f.Entry()) == ret {
			continue // not a return address in this binary's text
		}
		frames = addFrames(frames, ret)
		if last := frames[len(frames)-1]; last == "runtime.goexit" || last == "runtime.mstart" {
			break
		}
	}
	return frames
}

// addFrames appends to frames the function of the return address ret and,
// where the call was inlined in it, the one it was inlined in, each where
// it is not the last already there.
func addFrames(frames []string, ret uint64) []string {
	f := runtime.FuncForPC(uintptr(ret - 1)) // the innermost, with the outermost's entry
	if f == nil {
		return frames
	}
	for _, name := range []string{f.Name(), runtime.FuncForPC(f.Entry()).Name()} {
		if len(frames) == 0 || frames[len(frames)-1] != name {
			frames = append(frames, name)
		}
	}
	return frames
}

// TestBlockedPlace checks the reading of places that TestStoppedThreads
// relies on: a thread of this process blocked in read(2) on a pipe, from
// a function of this test, is found there, and not asleep in the runtime.
func TestBlockedPlace(t *testing.T) {
	if os.Getenv("COUNTER_TEST_EXEC") != "" {
		t.Skip("in an emulator, whose threads' places /proc does not give (as TestStoppedThreads skips)")
	}
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[0])
	tids := make(chan int)
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread() // not unlocked: the thread ends with the goroutine
		tids <- unix.Gettid()
		blockInRead(fds[0])
		close(done)
	}()
	tid := <-tids
	var p threadPlace
	for deadline := time.Now().Add(10 * time.Second); ; {
		if p = blockedPlace(os.Getpid(), tid); p.syscall == unix.SYS_READ || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	unix.Close(fds[1])
	<-done
	if p.syscall != unix.SYS_READ || !slices.Contains(p.frames, "github.com/tickstamp/counter_test.blockInRead") {
		t.Errorf("the thread blocked in read(2) in blockInRead was seen %v", p)
	}
	if p.asleepInRuntime() {
		t.Errorf("%v: asleep in the runtime; want not", p)
	}
	if q := (threadPlace{syscall: unix.SYS_FUTEX, frames: []string{"runtime.futex", "runtime.futexsleep", "runtime.lock2"}}); !q.asleepInRuntime() {
		t.Errorf("%v: not asleep in the runtime; want so", q)
	}
}

// blockInRead reads fd, blocking until its other end closes.
//
//go:noinline
func blockInRead(fd int) {
	var b [1]byte
	unix.Read(fd, b[:])
}

// TestHoldsRuntimeLock checks which stopped places TestStoppedThreads
// excuses a hold-up by: the runtime's steps under its own mutexes, from
// the place a CI run found, and not the Histogram's code, nor the
// runtime's steps that hold none.
func TestHoldsRuntimeLock(t *testing.T) {
	for _, tc := range []struct {
		frames []string
		want   bool
	}{
		{[]string{"internal/runtime/atomic.(*UnsafePointer).StoreNoWB", "runtime.stkbucket", "runtime.mProf_Malloc", "runtime.mallocgc"}, true},
		{[]string{"runtime.(*mheap).allocSpan", "runtime.(*mheap).alloc", "runtime.(*mcentral).grow"}, true},
		{[]string{"runtime.addspecial", "runtime.addCleanup"}, true},
		{[]string{"github.com/tickstamp/counter/internal/handover.(*Collector).Interval", "github.com/tickstamp/counter.(*Histogram).Interval"}, false},
		{[]string{"runtime.memmove", "github.com/tickstamp/counter/internal/handover.(*Dist).takeWide"}, false},
	} {
		if got := (threadPlace{syscall: -1, frames: tc.frames}).holdsRuntimeLock(); got != tc.want {
			t.Errorf("stopped in %v: holdsRuntimeLock %v; want %v", tc.frames, got, tc.want)
		}
	}
}
