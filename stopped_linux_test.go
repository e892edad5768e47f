package counter_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/race"
)

// stoppedChildEnv marks the re-executed test binary as TestStoppedThreads's
// child; stoppedPauseEnv sets its reporter's pause between Intervals.
const (
	stoppedChildEnv = "COUNTER_STOPPED_CHILD"
	stoppedPauseEnv = "COUNTER_STOPPED_PAUSE"
)

// The child's goroutines, each on a thread of its own, by the role the
// child names them with: flat-out writers, churning writers, and the
// reporter.
const (
	stoppedWriters  = 4
	stoppedChurners = 2
)

// A stoppedResult is what the child measured, printed as one line of JSON
// after "result ".
type stoppedResult struct {
	// Interval is the reporter's Intervals; Close and Attach are the
	// churners' Closes and their Recorders' 65th spans, the first past
	// the 64 that go to a lock, which attach a tally.
	Interval, Close, Attach timingSummary
	// RunDelay says whether the child could read its threads' time
	// waiting for a CPU, which a timing's own time leaves out.
	RunDelay bool
	// WriterStall and ReporterStall are the longest a writer and the
	// reporter went between two looks at the clock, which a stop of
	// their thread lengthens: the harness's proof that stops happened.
	WriterStall, ReporterStall time.Duration
	// Recorded is how many spans the writers recorded; Collected, how
	// many the Intervals' snapshots held, the last taken after every
	// Recorder was closed.
	Recorded, Collected uint64
}

// A timingSummary is a count of timings and the 99th percentile and
// maximum of their own time and of their wall time.
type timingSummary struct {
	N                          int
	P99, Max, WallP99, WallMax time.Duration
}

func (s timingSummary) String() string {
	return fmt.Sprintf("%d, p99 %v (wall %v), max %v (wall %v)", s.N, s.P99, s.WallP99, s.Max, s.WallMax)
}

// timings counts the timings of an operation: the wall time each took,
// and its own time, the wall time less the time its thread waited for a
// CPU meanwhile, which on a loaded machine is the scheduler's, not the
// operation's.
type timings struct{ own, wall latencies }

func (t *timings) add(wall, own time.Duration) {
	t.wall.add(wall)
	t.own.add(own)
}

func (t *timings) merge(o *timings) {
	t.wall.merge(&o.wall)
	t.own.merge(&o.own)
}

func (t *timings) summary() timingSummary {
	return timingSummary{
		N:       t.own.n,
		P99:     t.own.quantile99(),
		Max:     t.own.max,
		WallP99: t.wall.quantile99(),
		WallMax: t.wall.max,
	}
}

// latencies counts durations in buckets a sixteenth of a doubling wide
// (exact below 16 ns), and keeps the longest exactly.
type latencies struct {
	n   int
	max time.Duration
	b   [64 * 16]uint32
}

func latencyBucket(d time.Duration) int {
	x := uint64(max(d, 0))
	e := bits.Len64(x) - 1
	if e < 4 {
		return int(x)
	}
	return e*16 + int(x>>(e-4)&15)
}

func (l *latencies) add(d time.Duration) {
	l.n++
	l.max = max(l.max, d)
	l.b[latencyBucket(d)]++
}

func (l *latencies) merge(o *latencies) {
	l.n += o.n
	l.max = max(l.max, o.max)
	for i, c := range o.b {
		l.b[i] += c
	}
}

// quantile99 returns the 99th percentile: the upper bound of its bucket,
// at most 6.25% high, or the maximum where that is less.
func (l *latencies) quantile99() time.Duration {
	need, seen := uint64(l.n)-uint64(l.n)/100, uint64(0)
	for i, c := range l.b {
		if seen += uint64(c); c == 0 || seen < need {
			continue
		}
		if i < 16 {
			return min(time.Duration(i), l.max)
		}
		return min(time.Duration(uint64(17+i%16)<<(i/16-4)), l.max)
	}
	return 0
}

// A threadClock times an operation of the thread it was made on, which
// the calling goroutine must stay locked to: its wall time, and its own
// time, less what the thread spent waiting for a CPU meanwhile (the
// run_delay of /proc/thread-self/schedstat). Where that file cannot be
// read, the own time is the wall time.
type threadClock struct {
	fd  int // -1 where schedstat cannot be read
	buf [96]byte
}

func newThreadClock() *threadClock {
	fd, err := unix.Open("/proc/thread-self/schedstat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		fd = -1
	}
	c := &threadClock{fd: fd}
	if c.runDelay() < 0 {
		unix.Close(fd)
		c.fd = -1
	}
	return c
}

// runDelay returns the time the thread has waited for a CPU so far, -1
// where it cannot say.
func (c *threadClock) runDelay() time.Duration {
	if c.fd < 0 {
		return -1
	}
	n, err := unix.Pread(c.fd, c.buf[:], 0)
	if err != nil {
		return -1
	}
	f := strings.Fields(string(c.buf[:n])) // exec_runtime run_delay timeslices, in ns
	if len(f) < 2 {
		return -1
	}
	d, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return -1
	}
	return time.Duration(d)
}

// time runs op and returns its wall time and its own time.
func (c *threadClock) time(op func()) (wall, own time.Duration) {
	r0 := c.runDelay()
	t0 := time.Now()
	op()
	wall = time.Since(t0)
	if r0 < 0 {
		return wall, wall
	}
	return wall, wall - (c.runDelay() - r0)
}

func (c *threadClock) close() {
	if c.fd >= 0 {
		unix.Close(c.fd)
	}
}

// TestStoppedHelper is TestStoppedThreads's child: run by itself it does
// nothing. In the child (GOMAXPROCS=8 and GOGC=off, as its parent sets
// them) it runs one Histogram's writers and reporter, each goroutine
// locked to a thread whose id it prints ("tid ROLE TID"); prints "ready";
// runs until its standard input ends; then closes every Recorder, takes a
// last Interval and prints "result JSON", a stoppedResult.
func TestStoppedHelper(t *testing.T) {
	if os.Getenv(stoppedChildEnv) != "1" {
		t.Skip("the child of TestStoppedThreads")
	}
	pause, err := time.ParseDuration(os.Getenv(stoppedPauseEnv))
	if err != nil {
		pause = time.Millisecond
	}
	h := counter.NewHistogram()
	var res stoppedResult
	probe := newThreadClock()
	res.RunDelay = probe.fd >= 0
	probe.close()
	tids := make(chan string)
	var stopWriters, stopReporter atomic.Bool
	var writers, reporter sync.WaitGroup
	var mu sync.Mutex // guards res while the writers add to it
	var closes, attaches timings
	for i := range stoppedWriters + stoppedChurners {
		writers.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			w := stoppedWriter{clock: newThreadClock()}
			defer w.clock.close()
			if i < stoppedWriters {
				tids <- fmt.Sprintf("tid writer %d", syscall.Gettid())
				w.flatOut(h, &stopWriters)
			} else {
				tids <- fmt.Sprintf("tid churner %d", syscall.Gettid())
				w.churn(h, &stopWriters)
			}
			mu.Lock()
			defer mu.Unlock()
			res.Recorded += w.recorded
			res.WriterStall = max(res.WriterStall, w.stall)
			closes.merge(&w.closes)
			attaches.merge(&w.attaches)
		})
	}
	var intervals timings
	reporter.Go(func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		tids <- fmt.Sprintf("tid reporter %d", syscall.Gettid())
		res.Collected, res.ReporterStall = report(h, &intervals, pause, &stopReporter)
	})
	for range stoppedWriters + stoppedChurners + 1 {
		fmt.Println(<-tids)
	}
	fmt.Println("ready")
	ended := make(chan struct{})
	go func() { io.Copy(io.Discard, os.Stdin); close(ended) }()
	select {
	case <-ended:
	case <-time.After(2 * time.Minute): // the parent is gone
	}
	stopWriters.Store(true)
	writers.Wait()
	stopReporter.Store(true)
	reporter.Wait()
	var s counter.Snapshot
	h.Interval(&s)
	res.Collected += s.Count()
	res.Interval, res.Close, res.Attach = intervals.summary(), closes.summary(), attaches.summary()
	line, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("result %s\n", line)
}

// report takes h's Intervals, pause apart, until stop, timing each into
// ts, and returns how many spans they held and the longest it went from
// the end of one to the end of the next, less pause. The calling goroutine
// is locked to its thread.
func report(h *counter.Histogram, ts *timings, pause time.Duration, stop *atomic.Bool) (spans uint64, stall time.Duration) {
	clock := newThreadClock()
	defer clock.close()
	var s counter.Snapshot
	last := time.Now()
	for !stop.Load() {
		ts.add(clock.time(func() { h.Interval(&s) }))
		now := time.Now()
		stall = max(stall, now.Sub(last)-pause)
		last = now
		spans += s.Count()
		if pause > 0 {
			time.Sleep(pause)
		}
	}
	return spans, stall
}

// A stoppedWriter is one of the child's writers, on a thread of its own:
// what it recorded, the longest it went between two looks at the clock,
// and, for a churner, the timings of its Closes and attaches.
type stoppedWriter struct {
	clock    *threadClock
	recorded uint64
	stall    time.Duration
	last     time.Time
	closes   timings
	attaches timings
}

// look notes the time since the writer last looked.
func (w *stoppedWriter) look() {
	now := time.Now()
	if !w.last.IsZero() {
		w.stall = max(w.stall, now.Sub(w.last))
	}
	w.last = now
}

// flatOut records spans through a Recorder of its own, and a few through
// h.Record, until stop, and closes its Recorder.
func (w *stoppedWriter) flatOut(h *counter.Histogram, stop *atomic.Bool) {
	r := h.Recorder()
	for i := uint64(0); !stop.Load(); i++ {
		w.look()
		for j := range uint64(256) {
			r.Record(counter.Tickdelta(1000 + (i*256+j)*2654435761%50000))
		}
		w.recorded += 256
		if i%16 == 0 {
			h.Record(counter.Tickdelta(1000 + i%50000))
			w.recorded++
		}
	}
	r.Close()
}

// churn makes a Recorder, records 100 to 200 spans into it and closes it,
// until stop, timing each Close and each 65th span: a Recorder's first 64
// spans go to one of the Histogram's locks, and the 65th attaches a tally
// of its own (see Recorder).
func (w *stoppedWriter) churn(h *counter.Histogram, stop *atomic.Bool) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), 1))
	for !stop.Load() {
		w.look()
		r := h.Recorder()
		n := 100 + rng.IntN(101)
		for i := range n {
			d := counter.Tickdelta(1000 + rng.IntN(50000))
			if i == 64 {
				w.attaches.add(w.clock.time(func() { r.Record(d) }))
			} else {
				r.Record(d)
			}
		}
		w.recorded += uint64(n)
		w.closes.add(w.clock.time(r.Close))
	}
}

// A stopPhase is one run of TestStoppedThreads: which of the child's
// threads it stops, the reporter's pause between Intervals, and which of
// the child's timings must stay within the bound.
type stopPhase struct {
	name    string
	targets []string // the roles of the threads stopped; none for the control
	stopped string   // what is stopped, as an error message says it
	pause   time.Duration
	bounded []string // of "an Interval", "a Close", "an attach"
}

// stopPhases are TestStoppedThreads's runs. Where its writers are
// stopped, the reporter takes an Interval every millisecond or so; where
// it is stopped itself, back to back, so that most stops catch it in an
// Interval.
var stopPhases = []stopPhase{
	{name: "undisturbed", pause: time.Millisecond},
	{name: "writers-stopped", targets: []string{"writer", "churner"}, stopped: "writers", pause: time.Millisecond, bounded: []string{"an Interval"}},
	{name: "reporter-stopped", targets: []string{"reporter"}, stopped: "the reporter", bounded: []string{"a Close", "an attach"}},
}

// timing returns the timings of r of what name names.
func (r *stoppedResult) timing(name string) timingSummary {
	switch name {
	case "an Interval":
		return r.Interval
	case "a Close":
		return r.Close
	default:
		return r.Attach
	}
}

// TestStoppedThreads stops a child's threads at arbitrary instructions, for
// 1 to 300 ms at a time, with ptrace(2), while a Histogram's writers record
// and churn Recorders and its reporter takes Intervals (TestStoppedHelper):
// nothing of the Histogram waits for a stopped thread. With its writers'
// threads stopped in turn, each of the reporter's Intervals takes at most
// the bound; with the reporter's thread stopped, each of the writers'
// Closes and attaches does. In each run, and in one with no thread
// stopped, every span recorded is in exactly one Interval.
//
// What it bounds is an operation's own time: its wall time less the time
// its thread waited for a CPU meanwhile, which on a loaded machine is the
// scheduler's, not the Histogram's; it logs both. The child runs with
// GOGC=off: the garbage collector's stop-the-world waits for a stopped
// thread by itself, and would hold up any Interval caught in it.
//
// The bound is 100 ms by default, which a loaded machine with 2 CPUs meets
// and a wait for a stopped thread exceeds; COUNTER_STOPPED_BOUND sets it,
// COUNTER_STOPPED_RUN the length of each run with stops (4 s; the control
// runs half as long), and COUNTER_STOPPED_LONGEST a stop's longest
// (300 ms), so that a quiet machine can be held to the goal, 20 ms:
//
//	COUNTER_STOPPED_BOUND=20ms COUNTER_STOPPED_RUN=20s go test -run TestStoppedThreads -v .
func TestStoppedThreads(t *testing.T) {
	switch {
	case os.Getenv(stoppedChildEnv) == "1":
		t.Skip("already the child")
	case testing.Short():
		t.Skip("stops threads for seconds")
	case race.Enabled:
		t.Skip("the race detector slows an Interval tenfold, past what the bounds judge")
	case os.Getenv("COUNTER_TEST_EXEC") != "":
		t.Skip("the child runs in an emulator, whose threads are not the writers'")
	}
	bound := envDuration(t, "COUNTER_STOPPED_BOUND", 100*time.Millisecond)
	run := envDuration(t, "COUNTER_STOPPED_RUN", 4*time.Second)
	longest := envDuration(t, "COUNTER_STOPPED_LONGEST", 300*time.Millisecond)
	for _, p := range stopPhases {
		t.Run(p.name, func(t *testing.T) {
			length := run
			if p.targets == nil {
				length = run / 2
			}
			if p.name == "writers-stopped" && !privateExpeditedBarrier() {
				t.Skip("no private expedited membarrier(2): Interval stops the world, which waits for a stopped writer")
			}
			res, st := runStopped(t, p, length, longest)
			t.Logf("own (wall) times: Intervals %v; Closes %v; attaches %v", res.Interval, res.Close, res.Attach)
			t.Logf("%d spans recorded, %d collected; longest stall seen by a writer %v, by the reporter %v; run delay read: %v",
				res.Recorded, res.Collected, res.WriterStall, res.ReporterStall, res.RunDelay)
			if res.Collected != res.Recorded {
				t.Errorf("the Intervals held %d spans; want the %d recorded", res.Collected, res.Recorded)
			}
			if p.targets != nil {
				t.Logf("%d stops, %v in all, the longest %v; %d signals passed on", st.stops, st.total, st.longest, st.signals)
				checkStops(t, p, res, st)
			}
			for _, name := range p.bounded {
				if got := res.timing(name); got.Max > bound {
					t.Errorf("with %s stopped, %s took %v of its own (%v wall); want at most %v",
						p.stopped, name, got.Max, got.WallMax, bound)
				}
			}
		})
	}
}

// privateExpeditedBarrier reports whether the kernel offers membarrier(2)'s
// private expedited command, which Interval issues on amd64 where the
// kernel lets it (elsewhere it issues none).
func privateExpeditedBarrier() bool {
	if runtime.GOARCH != "amd64" {
		return true
	}
	const query, privateExpedited = 0, 1 << 3 // linux/membarrier.h
	mask, _, errno := unix.Syscall(unix.SYS_MEMBARRIER, query, 0, 0)
	return errno == 0 && mask&privateExpedited != 0
}

// checkStops checks that the stops of a run happened, and that the child
// saw its stopped threads go about as long as the longest stop without a
// look at the clock.
func checkStops(t *testing.T, p stopPhase, res stoppedResult, st stopStats) {
	t.Helper()
	if st.stops < 3 {
		t.Errorf("%d stops made; want at least 3", st.stops)
	}
	seen := res.WriterStall
	if p.targets[0] == "reporter" {
		seen = res.ReporterStall
	}
	if seen < st.longest/2 {
		t.Errorf("the stopped threads went at most %v without a look at the clock; want about the longest stop, %v", seen, st.longest)
	}
}

// envDuration returns the duration the environment variable name sets, or
// def where it is not set.
func envDuration(t *testing.T, name string, def time.Duration) time.Duration {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("%s=%q: want a duration such as 100ms", name, v)
	}
	return d
}

// runStopped starts TestStoppedHelper in a child process, stops the
// threads of p's targets for length (none for a control), and returns
// what the child measured and the stops made.
func runStopped(t *testing.T, p stopPhase, length, longest time.Duration) (stoppedResult, stopStats) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoppedHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), stoppedChildEnv+"=1", stoppedPauseEnv+"="+p.pause.String(), "GOMAXPROCS=8", "GOGC=off")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	defer func() {
		stdin.Close()
		for range lines {
		}
		cmd.Wait()
	}()
	go func() {
		defer close(lines)
		for sc := bufio.NewScanner(stdout); sc.Scan(); {
			lines <- sc.Text()
		}
	}()
	next := func(want string) string {
		for l := range lines {
			if strings.HasPrefix(l, want) {
				return l
			}
		}
		t.Fatalf("the child ended before it said %q", want)
		return ""
	}
	var targets []int
	for l := next("tid "); l != "ready"; l = next("") {
		f := strings.Fields(l)
		if len(f) != 3 || f[0] != "tid" {
			continue
		}
		id, err := strconv.Atoi(f[2])
		if err != nil {
			t.Fatalf("the child said %q: %v", l, err)
		}
		for _, r := range p.targets {
			if r == f[1] {
				targets = append(targets, id)
			}
		}
	}
	var st stopStats
	if len(targets) > 0 {
		st, err = stopThreads(targets, length, longest)
		if errors.Is(err, unix.EPERM) {
			t.Skipf("ptrace refused here: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
	} else {
		time.Sleep(length)
	}
	stdin.Close()
	var res stoppedResult
	if err := json.Unmarshal([]byte(strings.TrimPrefix(next("result "), "result ")), &res); err != nil {
		t.Fatalf("the child's result: %v", err)
	}
	return res, st
}

// stopStats counts the stops stopThreads made, their total and longest
// length, and the signals it passed on to the stopped threads.
type stopStats struct {
	stops, signals int
	total, longest time.Duration
}

// A tracee is a thread stopThreads stops: want is the length of the stop it
// asked for and has not seen begin, 0 where none; held says the thread is
// stopped, since since, until until.
type tracee struct {
	tid          int
	want         time.Duration
	held         bool
	since, until time.Time
}

// A stopper stops threads one at a time, each for a random length up to
// longest, with a gap of up to a tenth of that between stops.
type stopper struct {
	ts      []*tracee
	longest time.Duration
	next    time.Time // when the next stop begins, zero while one is under way
	stats   stopStats
}

// stopThreads stops the threads tids of a child process, one at a time at
// an arbitrary instruction, for 1 ms to longest each, until run has passed,
// and then lets them all go. It attaches to each with PTRACE_SEIZE and
// stops it with PTRACE_INTERRUPT; it passes on at once each signal (the Go
// runtime's preemption, SIGURG, above all) that stops a thread it
// traces. Its ptrace calls come from one thread, the tracer, which ends
// with it: where stopThreads fails midway, the kernel lets its tracees go.
func stopThreads(tids []int, run, longest time.Duration) (stopStats, error) {
	done := make(chan stopStats, 1)
	fail := make(chan error, 1)
	go func() {
		// Not unlocked: the thread ends with the goroutine, and the kernel
		// detaches whatever it still traces.
		runtime.LockOSThread()
		s := &stopper{longest: longest}
		for _, tid := range tids {
			if err := unix.PtraceSeize(tid); err != nil {
				s.detach()
				fail <- fmt.Errorf("PTRACE_SEIZE of thread %d: %w", tid, err)
				return
			}
			s.ts = append(s.ts, &tracee{tid: tid})
		}
		err := s.loop(run)
		if e := s.detach(); err == nil {
			err = e
		}
		if err != nil {
			fail <- err
			return
		}
		done <- s.stats
	}()
	select {
	case st := <-done:
		return st, nil
	case err := <-fail:
		return stopStats{}, err
	}
}

// loop stops the threads in turn until run has passed and no stop is
// under way, woken by each SIGCHLD, which the kernel sends the tracer at
// each stop of a tracee, and by the time of its next step.
func (s *stopper) loop(run time.Duration) error {
	chld := make(chan os.Signal, 1)
	signal.Notify(chld, syscall.SIGCHLD)
	defer signal.Stop(chld)
	end := time.Now().Add(run)
	s.next = time.Now()
	wake := time.NewTimer(0)
	defer wake.Stop()
	for {
		if err := s.reap(); err != nil {
			return err
		}
		now := time.Now()
		if err := s.step(now, now.Before(end)); err != nil {
			return err
		}
		if !s.next.IsZero() && !now.Before(end) {
			return nil
		}
		// Wake for the next step, and at least every 5 ms in case a
		// SIGCHLD was missed.
		at := now.Add(5 * time.Millisecond)
		for _, tr := range s.ts {
			if tr.held && tr.until.Before(at) {
				at = tr.until
			}
		}
		if !s.next.IsZero() && s.next.Before(at) {
			at = s.next
		}
		wake.Reset(time.Until(at))
		select {
		case <-chld:
		case <-wake.C:
		}
	}
}

// step lets go of a thread whose stop has lasted its length and, where more
// are to come and none is under way, stops the next at its time.
func (s *stopper) step(now time.Time, more bool) error {
	for _, tr := range s.ts {
		if !tr.held || now.Before(tr.until) {
			continue
		}
		if err := unix.PtraceCont(tr.tid, 0); err != nil {
			return fmt.Errorf("PTRACE_CONT of thread %d: %w", tr.tid, err)
		}
		held := now.Sub(tr.since)
		s.stats.stops++
		s.stats.total += held
		s.stats.longest = max(s.stats.longest, held)
		tr.held = false
		gap := time.Duration(rand.Int64N(int64(s.longest/10) + 1))
		s.next = now.Add(gap)
	}
	if !more || s.next.IsZero() || now.Before(s.next) {
		return nil
	}
	tr := s.ts[rand.IntN(len(s.ts))]
	if err := unix.PtraceInterrupt(tr.tid); err != nil {
		return fmt.Errorf("PTRACE_INTERRUPT of thread %d: %w", tr.tid, err)
	}
	tr.want = time.Millisecond + time.Duration(rand.Int64N(int64(s.longest-time.Millisecond)+1))
	s.next = time.Time{}
	return nil
}

// reap takes each tracee's stops that the kernel reports: the one asked
// for, which it holds, and any other, which it ends at once, passing on
// the signal of a signal-delivery stop.
func (s *stopper) reap() error {
	for _, tr := range s.ts {
		for {
			var ws unix.WaitStatus
			pid, err := unix.Wait4(tr.tid, &ws, unix.WNOHANG|unix.WALL, nil)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return fmt.Errorf("wait4 for thread %d: %w", tr.tid, err)
			}
			if pid == 0 {
				break
			}
			if !ws.Stopped() {
				return fmt.Errorf("thread %d ended (wait status %#x)", tr.tid, uint32(ws))
			}
			sig := 0
			if uint32(ws)>>16 == 0 {
				// A signal-delivery stop: its signal goes on to the
				// thread, whose runtime needs it.
				sig = int(ws.StopSignal())
				s.stats.signals++
			} else if tr.want > 0 {
				// PTRACE_EVENT_STOP, the stop PTRACE_INTERRUPT asked for.
				tr.held, tr.since = true, time.Now()
				tr.until = tr.since.Add(tr.want)
				tr.want = 0
				continue
			}
			if err := unix.PtraceCont(tr.tid, sig); err != nil {
				return fmt.Errorf("PTRACE_CONT of thread %d: %w", tr.tid, err)
			}
		}
	}
	return nil
}

// detach lets every tracee go: one that is held at once, and another once
// PTRACE_INTERRUPT has stopped it (the kernel detaches only a stopped
// tracee), passing on the signal of a signal-delivery stop.
func (s *stopper) detach() error {
	var first error
	for _, tr := range s.ts {
		if err := detachOne(tr); err != nil && first == nil {
			first = err
		}
	}
	s.ts = nil
	return first
}

func detachOne(tr *tracee) error {
	sig := 0
	if !tr.held {
		if err := unix.PtraceInterrupt(tr.tid); err != nil {
			return fmt.Errorf("PTRACE_INTERRUPT of thread %d: %w", tr.tid, err)
		}
		var ws unix.WaitStatus
		for {
			_, err := unix.Wait4(tr.tid, &ws, unix.WALL, nil)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return fmt.Errorf("wait4 for thread %d: %w", tr.tid, err)
			}
			break
		}
		if !ws.Stopped() {
			return fmt.Errorf("thread %d ended (wait status %#x)", tr.tid, uint32(ws))
		}
		if uint32(ws)>>16 == 0 {
			sig = int(ws.StopSignal())
		}
	}
	if _, _, errno := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_DETACH, uintptr(tr.tid), 0, uintptr(sig), 0, 0); errno != 0 {
		return fmt.Errorf("PTRACE_DETACH of thread %d: %w", tr.tid, errno)
	}
	return nil
}
