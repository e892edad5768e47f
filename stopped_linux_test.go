package counter_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/handover"
	"github.com/tickstamp/counter/internal/race"
)

// stoppedChildEnv marks the re-executed test binary as TestStoppedThreads's
// child; stoppedPauseEnv sets its reporter's pause between Intervals, and
// stoppedOwnEnv which of its timings (by name, separated by commas) it
// takes of their own time: reading a thread's run delay takes two system
// calls, which would dilute an operation's share of its thread's time,
// where stops land, for no figure needed.
const (
	stoppedChildEnv = "COUNTER_STOPPED_CHILD"
	stoppedPauseEnv = "COUNTER_STOPPED_PAUSE"
	stoppedOwnEnv   = "COUNTER_STOPPED_OWN"
)

// stoppedOps are the operations the child times, by the names its result
// and stoppedOwnEnv give them, each with what it times as a message says
// it: the reporter's Intervals; and of each Recorder a churner makes, its
// 65th span, the first past the 64 that go to a lock, which attaches a
// tally; its later spans, together; and its Close.
var stoppedOps = map[string]string{
	"Interval": "an Interval",
	"Attach":   "an attach",
	"Records":  "a Recorder's later spans",
	"Close":    "a Close",
}

// The child's goroutines, each on a thread of its own, by the role the
// child names them with: flat-out writers, churning writers, and the
// reporter.
const (
	stoppedWriters  = 4
	stoppedChurners = 2
)

// stoppedWords is how many words the child counts its progress in, which
// its parent reads: the reporter's, then each churner's. Each adds 1 to
// its word as it begins an operation that must not wait for a stopped
// thread (the reporter's Interval, a churner's attach and Close) and 1 as
// it ends it, so that the word is odd while the operation runs.
const stoppedWords = 1 + stoppedChurners

// sharedWords maps stoppedWords words of the file fd, to count in from
// one process and read from another, and returns them and a function that
// unmaps them.
func sharedWords(fd int) ([]atomic.Uint64, func(), error) {
	b, err := unix.Mmap(fd, 0, 8*stoppedWords, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return unsafe.Slice((*atomic.Uint64)(unsafe.Pointer(&b[0])), stoppedWords), func() { unix.Munmap(b) }, nil
}

// A stoppedResult is what the child measured, printed as one line of JSON
// after "result ".
type stoppedResult struct {
	// Timings are the timings of stoppedOps, by name.
	Timings map[string]timingSummary
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
	// Slow are the bounded operations that took over stoppedGoal of
	// their own time (the first slowMost), each named by its thread's word and
	// the word's odd value while it ran, as the parent sees it.
	Slow []slowOp
}

// slowMost is how many slow operations a child lists, at most.
const slowMost = 1000

// A slowOp is a bounded operation that took over stoppedGoal of its own
// time.
type slowOp struct {
	Op        string
	Word      int
	Done      uint64
	Own, Wall time.Duration
}

// A timingSummary is a count of timings, how many of them took over the
// issue's goal, 20 ms, of their own time, and the 99th percentile and
// maximum of their own time and of their wall time. Where Own is false,
// the child read only wall times, and the own ones are the same.
type timingSummary struct {
	N, Over                    int
	P99, Max, WallP99, WallMax time.Duration
	Own                        bool
}

// stoppedGoal is the goal for what a stopped thread may hold up.
const stoppedGoal = 20 * time.Millisecond

func (s timingSummary) String() string {
	if !s.Own {
		return fmt.Sprintf("%d (%d over %v), wall p99 %v, max %v", s.N, s.Over, stoppedGoal, s.WallP99, s.WallMax)
	}
	return fmt.Sprintf("%d (%d over %v), p99 %v (wall %v), max %v (wall %v)", s.N, s.Over, stoppedGoal, s.P99, s.WallP99, s.Max, s.WallMax)
}

// timings counts the timings of an operation: the wall time each took,
// and where byOwn says, its own time, the wall time less the time its
// thread waited for a CPU meanwhile, which on a loaded machine is the
// scheduler's, not the operation's.
type timings struct {
	byOwn     bool
	own, wall latencies
	over      int
}

// time runs op on the thread of c, counts its timing, and returns its own
// and wall time.
func (t *timings) time(c *threadClock, op func()) (own, wall time.Duration) {
	r0 := time.Duration(-1)
	if t.byOwn {
		r0 = c.runDelay()
	}
	t0 := time.Now()
	op()
	wall = time.Since(t0)
	own = wall
	if r0 >= 0 {
		own -= c.runDelay() - r0
	}
	t.wall.add(wall)
	t.own.add(own)
	if own > stoppedGoal {
		t.over++
	}
	return own, wall
}

// bounded runs op, one of stoppedOps named name, on the thread of c as
// time does, adding 1 to the word words[word] before and after it, and
// adds it to slow where it took over stoppedGoal of its own time.
func (t *timings) bounded(c *threadClock, name string, words []atomic.Uint64, word int, slow *[]slowOp, op func()) {
	done := words[word].Add(1)
	own, wall := t.time(c, op)
	words[word].Add(1)
	if own > stoppedGoal && len(*slow) < slowMost {
		*slow = append(*slow, slowOp{Op: name, Word: word, Done: done, Own: own, Wall: wall})
	}
}

func (t *timings) merge(o *timings) {
	t.wall.merge(&o.wall)
	t.own.merge(&o.own)
	t.over += o.over
}

func (t *timings) summary() timingSummary {
	return timingSummary{
		N:       t.own.n,
		Over:    t.over,
		P99:     t.own.quantile99(),
		Max:     t.own.max,
		WallP99: t.wall.quantile99(),
		WallMax: t.wall.max,
		Own:     t.byOwn,
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

// A threadClock reads the time a thread has waited for a CPU: the
// run_delay of its schedstat file in /proc.
type threadClock struct {
	fd  int // -1 where schedstat cannot be read
	buf [96]byte
}

// newThreadClock returns a threadClock of the calling thread, which the
// calling goroutine must stay locked to.
func newThreadClock() *threadClock { return openThreadClock("/proc/thread-self/schedstat") }

// openThreadClock returns a threadClock of the thread whose schedstat file
// is path.
func openThreadClock(path string) *threadClock {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
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
	// "exec_runtime run_delay timeslices\n", in ns: the second field,
	// parsed without allocating.
	b := c.buf[:n]
	i := 0
	for i < len(b) && b[i] != ' ' {
		i++
	}
	d, digits := time.Duration(0), 0
	for i++; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
		d, digits = d*10+time.Duration(b[i]-'0'), digits+1
	}
	if digits == 0 {
		return -1
	}
	return d
}

func (c *threadClock) close() {
	if c.fd >= 0 {
		unix.Close(c.fd)
	}
}

// TestStoppedHelper is TestStoppedThreads's child: run by itself it does
// nothing. In the child (GOMAXPROCS=8 and GOGC=off, as its parent sets
// them) it runs one Histogram's writers and reporter, each goroutine
// locked to a thread whose id it prints with the word it counts its
// progress in, -1 for none ("tid ROLE TID WORD"; the words are those of
// the file its parent passes as fd 3); prints "ready"; runs until its
// standard input ends; then closes every Recorder, takes a last Interval
// and prints "result JSON", a stoppedResult.
func TestStoppedHelper(t *testing.T) {
	if os.Getenv(stoppedChildEnv) != "1" {
		t.Skip("the child of TestStoppedThreads")
	}
	pause, err := time.ParseDuration(os.Getenv(stoppedPauseEnv))
	if err != nil {
		pause = time.Millisecond
	}
	words, unmap, err := sharedWords(3)
	if err != nil {
		words, unmap = make([]atomic.Uint64, stoppedWords), func() {}
	}
	defer unmap()
	r := newStoppedRun(words, strings.Split(os.Getenv(stoppedOwnEnv), ","))
	for i := range stoppedWriters + stoppedChurners {
		r.writers.Go(func() { r.write(i) })
	}
	r.reporter.Go(func() { r.report(pause) })
	for range stoppedWriters + stoppedChurners + 1 {
		fmt.Println(<-r.tids)
	}
	fmt.Println("ready")
	ended := make(chan struct{})
	go func() { io.Copy(io.Discard, os.Stdin); close(ended) }()
	select {
	case <-ended:
	case <-time.After(2 * time.Minute): // the parent is gone
	}
	line, err := json.Marshal(r.end())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("result %s\n", line)
}

// A stoppedRun is the child's Histogram, its writers and its reporter, and
// what they measure.
type stoppedRun struct {
	h                         *counter.Histogram
	words                     []atomic.Uint64
	tids                      chan string // "tid ROLE TID WORD" of each goroutine
	stopWriters, stopReporter atomic.Bool
	writers, reporter         sync.WaitGroup

	// mu guards the writers' additions to res and timings; the reporter
	// alone writes its fields of res, and timings["Interval"].
	mu      sync.Mutex
	res     stoppedResult
	timings map[string]*timings
}

// newStoppedRun returns a run that counts progress in words and times the
// operations own names by their own time, where it can.
func newStoppedRun(words []atomic.Uint64, own []string) *stoppedRun {
	r := &stoppedRun{h: counter.NewHistogram(), words: words, tids: make(chan string), timings: map[string]*timings{}}
	probe := newThreadClock()
	r.res.RunDelay = probe.fd >= 0
	probe.close()
	for name := range stoppedOps {
		r.timings[name] = &timings{byOwn: r.res.RunDelay && slices.Contains(own, name)}
	}
	return r
}

// write is the i-th writer, on a thread of its own: a flat-out one for the
// first stoppedWriters, and a churner after.
func (r *stoppedRun) write(i int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w := stoppedWriter{clock: newThreadClock(), timings: map[string]*timings{}}
	defer w.clock.close()
	for _, name := range []string{"Attach", "Records", "Close"} {
		w.timings[name] = &timings{byOwn: r.timings[name].byOwn}
	}
	if i < stoppedWriters {
		r.tids <- fmt.Sprintf("tid writer %d -1", syscall.Gettid())
		w.flatOut(r.h, &r.stopWriters)
	} else {
		word := 1 + i - stoppedWriters
		r.tids <- fmt.Sprintf("tid churner %d %d", syscall.Gettid(), word)
		w.churn(r.h, &r.stopWriters, r.words, word)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.res.Recorded += w.recorded
	r.res.WriterStall = max(r.res.WriterStall, w.stall)
	r.res.Slow = append(r.res.Slow, w.slow...)
	for name, t := range w.timings {
		r.timings[name].merge(t)
	}
}

// report is the reporter, on a thread of its own: it takes the
// Histogram's Intervals, pause apart, until the run ends, timing each and
// adding 1 to the first word as it begins each and 1 as it ends it.
func (r *stoppedRun) report(pause time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r.tids <- fmt.Sprintf("tid reporter %d 0", syscall.Gettid())
	clock := newThreadClock()
	defer clock.close()
	intervals := r.timings["Interval"]
	var s counter.Snapshot
	last := time.Now()
	for !r.stopReporter.Load() {
		intervals.bounded(clock, "Interval", r.words, 0, &r.res.Slow, func() { r.h.Interval(&s) })
		now := time.Now()
		r.res.ReporterStall = max(r.res.ReporterStall, now.Sub(last)-pause)
		last = now
		r.res.Collected += s.Count()
		if pause > 0 {
			time.Sleep(pause)
		}
	}
}

// end stops the writers, which close their Recorders, and then the
// reporter, takes a last Interval, and returns what the run measured.
func (r *stoppedRun) end() stoppedResult {
	r.stopWriters.Store(true)
	r.writers.Wait()
	r.stopReporter.Store(true)
	r.reporter.Wait()
	var s counter.Snapshot
	r.h.Interval(&s)
	r.res.Collected += s.Count()
	r.res.Timings = map[string]timingSummary{}
	for name, t := range r.timings {
		r.res.Timings[name] = t.summary()
	}
	return r.res
}

// A stoppedWriter is one of the child's writers, on a thread of its own:
// what it recorded, the longest it went between two looks at the clock,
// and, for a churner, the timings of its Recorders' operations.
type stoppedWriter struct {
	clock    *threadClock
	recorded uint64
	stall    time.Duration
	last     time.Time
	timings  map[string]*timings
	slow     []slowOp
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

// churn makes a Recorder, records handover.SpillMost + 100 to 200 spans
// into it and closes it, until stop, timing the span after the first
// SpillMost apart (a Recorder's first spans go to one of the Histogram's
// locks, at most SpillMost of them where no Interval begins meanwhile, as
// when the reporter is stopped, and the next attaches a tally of its own;
// see Recorder), the later ones together, and the Close. It adds 1 to
// words[word] as it begins the attach and the Close, and 1 as it ends them.
func (w *stoppedWriter) churn(h *counter.Histogram, stop *atomic.Bool, words []atomic.Uint64, word int) {
	rng := rand.New(rand.NewPCG(rand.Uint64(), 1))
	attaches, records, closes := w.timings["Attach"], w.timings["Records"], w.timings["Close"]
	spans := make([]counter.Tickdelta, 200)
	for !stop.Load() {
		w.look()
		n := 100 + rng.IntN(101)
		for i := range spans[:n] {
			spans[i] = counter.Tickdelta(1000 + rng.IntN(50000))
		}
		r := h.Recorder()
		for i := range handover.SpillMost {
			r.Record(spans[i%64])
		}
		attaches.bounded(w.clock, "Attach", words, word, &w.slow, func() { r.Record(spans[64]) })
		records.time(w.clock, func() {
			for _, d := range spans[65:n] {
				r.Record(d)
			}
		})
		w.recorded += uint64(handover.SpillMost + n - 64)
		closes.bounded(w.clock, "Close", words, word, &w.slow, r.Close)
	}
}

// A stopPhase is one run of TestStoppedThreads: which of the child's
// threads it stops and which it watches, the reporter's pause between
// Intervals, which of the child's timings it takes of their own time, and
// which of those must stay within the bound.
type stopPhase struct {
	name    string
	targets []string // the roles of the threads stopped; none for the control
	watched []string // the roles of the threads a stop must not hold up
	stopped string   // what is stopped, as an error message says it
	pause   time.Duration
	timed   []string // of stoppedOps, by name
	bounded []string
}

// stopPhases are TestStoppedThreads's runs. Where its writers are
// stopped, the reporter takes an Interval every millisecond or so; where
// it is stopped itself, back to back, so that most stops catch it in one.
var stopPhases = []stopPhase{{
	name:  "undisturbed",
	pause: time.Millisecond,
	timed: slices.Sorted(maps.Keys(stoppedOps)),
}, {
	name:    "writers-stopped",
	targets: []string{"writer", "churner"},
	watched: []string{"reporter"},
	stopped: "writers",
	pause:   time.Millisecond,
	timed:   []string{"Interval"},
	bounded: []string{"Interval"},
}, {
	name:    "reporter-stopped",
	targets: []string{"reporter"},
	watched: []string{"churner"},
	stopped: "the reporter",
	timed:   []string{"Attach", "Records", "Close"},
	bounded: []string{"Attach", "Close"},
}}

// TestStoppedThreads stops a child's threads at arbitrary instructions, for
// up to 300 ms at a time, with ptrace(2), while a Histogram's writers
// record and churn Recorders and its reporter takes Intervals
// (TestStoppedHelper): nothing of the Histogram waits for a stopped
// thread. With its writers' threads stopped in turn, each of the
// reporter's Intervals takes at most the bound; with the reporter's thread
// stopped, each of the writers' Closes and attaches does (the spans after
// an attach are timed too, and logged). In each run, and in one with no
// thread stopped, every span recorded is in exactly one Interval.
//
// A stop lasts 5 ms, unless it finds a watched thread (the reporter, or a
// churning writer) in an operation the run bounds and, 2 ms later, still
// there, neither progressing nor waiting for a CPU: then it lasts 300 ms,
// or until that operation ends (something else held it up). One stop in
// eight lasts a length drawn from 1 to 300 ms. So a run of a few seconds
// stops threads at many places, and where one makes a bounded operation
// wait, the wait is as long as it may be (see stopThreads).
//
// What it bounds is an operation's own time: its wall time less the time
// its thread waited for a CPU meanwhile, which on a loaded machine is the
// scheduler's, not the Histogram's; it logs both. The child runs with
// GOGC=off: the garbage collector's stop-the-world waits for a stopped
// thread by itself, and would hold up any Interval caught in it.
//
// An operation over the bound passes only where a stop held it up asleep
// in the Go runtime (see threadPlace.asleepInRuntime: on the runtime's
// own mutex, which the stopped thread may hold, or preempted), which the
// test logs with where both threads were. (An attach allocates a tally
// where the pool has none, and registers a cleanup: both take the
// runtime's mutexes.)
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
			for _, name := range p.timed {
				t.Logf("%s: %v", name, res.Timings[name])
			}
			t.Logf("%d spans recorded, %d collected; longest stall seen by a writer %v, by the reporter %v; run delay read: %v",
				res.Recorded, res.Collected, res.WriterStall, res.ReporterStall, res.RunDelay)
			if res.Collected != res.Recorded {
				t.Errorf("the Intervals held %d spans; want the %d recorded", res.Collected, res.Recorded)
			}
			if p.targets != nil {
				t.Logf("%d stops, %v in all, the longest %v; %d held past the probe, %d of them for holding up %s; %d signals passed on",
					st.stops, st.total, st.longest, st.long, st.stalls, strings.Join(p.watched, " or "), st.signals)
				checkStops(t, p, res, st)
				logHolds(t, p, st)
			}
			checkSlow(t, p, res, st, bound)
		})
	}
}

// logHolds logs the first few stops that held up a watched thread
// blocked (not spinning), and where the two threads were.
func logHolds(t *testing.T, p stopPhase, st stopStats) {
	n := 0
	for _, h := range st.holds {
		if h.blocked.syscall == -2 || n == 4 {
			continue
		}
		n++
		t.Logf("a stop held up the %s, %v; the stopped thread: %v", strings.Join(p.watched, " or "), h.blocked, h.stopped)
	}
}

// checkSlow checks that no bounded operation of p took more than bound of
// its own time, unless it was held up on a mutex of the Go runtime's: it
// was asleep on one, or the stopped thread was stopped holding one (of the
// heap, the memory profiler's, or the scheduler's), which any allocation
// or preemption of another thread waits for; nothing of the Histogram's
// waits so (see threadPlace.asleepInRuntime and
// threadPlace.holdsRuntimeLock). The child lists each slow operation with
// its word's value while it ran, and a stop notes where the two threads
// were for each operation it holds up or ends within.
func checkSlow(t *testing.T, p stopPhase, res stoppedResult, st stopStats, bound time.Duration) {
	t.Helper()
	if len(res.Slow) == slowMost {
		t.Errorf("%d or more operations took over %v of their own: too many to look at", slowMost, stoppedGoal)
	}
	for _, name := range p.bounded {
		got := res.Timings[name]
		if got.Max <= bound {
			continue
		}
		listed := false
		for _, op := range res.Slow {
			if op.Op != name || op.Own <= bound {
				continue
			}
			listed = true
			i := slices.IndexFunc(st.holds, func(h hold) bool { return h.word == op.Word && h.done == op.Done })
			if i >= 0 && (st.holds[i].blocked.asleepInRuntime() || st.holds[i].stopped.holdsRuntimeLock()) {
				t.Logf("with %s stopped, %s took %v of its own (%v wall), held up in the Go runtime: %v; the stopped thread: %v",
					p.stopped, stoppedOps[name], op.Own, op.Wall, st.holds[i].blocked, st.holds[i].stopped)
				continue
			}
			where := "no stop was seen to hold it up"
			if i >= 0 {
				where = fmt.Sprintf("held up %v; the stopped thread: %v", st.holds[i].blocked, st.holds[i].stopped)
			}
			t.Errorf("with %s stopped, %s took %v of its own (%v wall); want at most %v (%s)",
				p.stopped, stoppedOps[name], op.Own, op.Wall, bound, where)
		}
		if !listed {
			t.Errorf("with %s stopped, %s took %v of its own (%v wall); want at most %v",
				p.stopped, stoppedOps[name], got.Max, got.WallMax, bound)
		}
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
	c := startStopped(t, p)
	targets, watch := c.threads(t, p)
	var st stopStats
	if len(targets) > 0 {
		var err error
		st, err = stopThreads(targets, watch, length, longest)
		if errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES) || errors.Is(err, unix.ENOSYS) {
			t.Skipf("ptrace refused here: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
	} else {
		time.Sleep(length)
	}
	return c.result(t), st
}

// A stoppedChild is TestStoppedHelper running in a child process: its
// standard input, which it runs until it ends, the lines of its standard
// output, and the words it counts its progress in.
type stoppedChild struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	words  []atomic.Uint64
	waited bool
}

// startStopped starts TestStoppedHelper in a child process for phase p,
// which the test's cleanup ends where the test does not.
func startStopped(t *testing.T, p stopPhase) *stoppedChild {
	t.Helper()
	fd, err := unix.MemfdCreate("counter-stopped", unix.MFD_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	progress := os.NewFile(uintptr(fd), "progress")
	t.Cleanup(func() { progress.Close() })
	if err := unix.Ftruncate(fd, 8*stoppedWords); err != nil {
		t.Fatal(err)
	}
	words, unmap, err := sharedWords(fd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unmap)

	cmd := exec.Command(os.Args[0], "-test.run=^TestStoppedHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), stoppedChildEnv+"=1", "GOMAXPROCS=8", "GOGC=off",
		stoppedPauseEnv+"="+p.pause.String(), stoppedOwnEnv+"="+strings.Join(p.timed, ","))
	cmd.Stderr = os.Stderr
	cmd.ExtraFiles = []*os.File{progress} // the child's fd 3
	c := &stoppedChild{cmd: cmd, words: words, lines: make(chan string)}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.lines)
		for sc := bufio.NewScanner(stdout); sc.Scan(); {
			c.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() { c.wait() })
	return c
}

// wait ends the child's input, reads the rest of its output, and waits
// for it to end, once.
func (c *stoppedChild) wait() error {
	if c.waited {
		return nil
	}
	c.waited = true
	c.stdin.Close()
	for range c.lines {
	}
	return c.cmd.Wait()
}

// next returns the child's next line that begins with prefix.
func (c *stoppedChild) next(t *testing.T, prefix string) string {
	t.Helper()
	for l := range c.lines {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("the child ended before it said %q", prefix)
	return ""
}

// threads reads the child's threads, up to "ready", and returns those of
// p's targets and those p watches.
func (c *stoppedChild) threads(t *testing.T, p stopPhase) (targets []int, watch []watched) {
	t.Helper()
	for l := c.next(t, "tid "); l != "ready"; l = c.next(t, "") {
		var role string
		var id, word int
		if _, err := fmt.Sscanf(l, "tid %s %d %d", &role, &id, &word); err != nil {
			t.Fatalf("the child said %q: %v", l, err)
		}
		if slices.Contains(p.targets, role) {
			targets = append(targets, id)
		}
		if slices.Contains(p.watched, role) && word >= 0 && word < stoppedWords {
			clock := openThreadClock(fmt.Sprintf("/proc/%d/task/%d/schedstat", c.cmd.Process.Pid, id))
			t.Cleanup(clock.close)
			watch = append(watch, watched{&c.words[word], word, c.cmd.Process.Pid, id, clock})
		}
	}
	return targets, watch
}

// result ends the child and returns what it measured.
func (c *stoppedChild) result(t *testing.T) stoppedResult {
	t.Helper()
	c.stdin.Close()
	var res stoppedResult
	if err := json.Unmarshal([]byte(strings.TrimPrefix(c.next(t, "result "), "result ")), &res); err != nil {
		t.Fatalf("the child's result: %v", err)
	}
	if err := c.wait(); err != nil {
		t.Fatalf("the child: %v", err)
	}
	if u, ok := c.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		t.Logf("the child's largest resident set: %d MB", u.Maxrss>>10)
	}
	return res
}

// The stops' timing: how long a stop lasts before stopThreads looks at
// the watched threads, how long after that it watches one that is in a
// bounded operation, the longest gap between two stops, and the longest
// stopThreads goes without looking at its tracees (a signal that stops
// one waits for that long at most).
const (
	stopProbe   = 5 * time.Millisecond
	stopRecheck = 2 * time.Millisecond
	stopGap     = 5 * time.Millisecond
	stopPoll    = time.Millisecond
)

// stopStats counts the stops stopThreads made, those it held past the
// probe, those of them that held up a watched thread, and the signals it
// passed on to the stopped threads; and the stops' total and longest
// length; and, for each watched thread a stop held up, where it and the
// stopped thread were.
type stopStats struct {
	stops, long, stalls, signals int
	total, longest               time.Duration
	holds                        []hold
}

// A hold is a watched thread that a stop held up in a bounded operation,
// or that was in one as the stop ended: its word and the word's value
// (odd) while in the operation, and where it was blocked and the stopped
// thread was stopped, seen stopRecheck after the probe or at the end.
type hold struct {
	word             int
	done             uint64
	blocked, stopped threadPlace
}

// A watched thread is one a stop must not hold up: the word it counts its
// progress in (odd while it runs a bounded operation), and its clock.
type watched struct {
	word     *atomic.Uint64
	index    int // of word among the child's words
	pid, tid int
	clock    *threadClock
}

// A watchMark is a watched thread's word, and the time it had waited for a
// CPU, at a moment.
type watchMark struct {
	done    uint64
	waiting time.Duration
}

func (w watched) mark() watchMark { return watchMark{w.word.Load(), w.clock.runDelay()} }

// heldUp reports whether w was in a bounded operation at m and, in the
// time since, which is d, has not ended it nor waited for a CPU for half
// of d or more: it was blocked, or spun in vain.
func (m watchMark) heldUp(w watched, d time.Duration) bool {
	now := w.mark()
	return m.done%2 == 1 && now.done == m.done && (m.waiting < 0 || now.waiting-m.waiting < d/2)
}

// A stopper stops threads of a child, one at a time. Its fields from cur
// to heldUp are the stop under way: of the thread tids[cur] (-1 where none
// is), asked for with a length want, seen begin at since (zero until
// then), its watched threads marked at marked (zero until the probe, and
// where none was in a bounded operation), to end at until (zero until
// decided), or sooner where the watched threads it holds up, by index,
// have all moved on.
type stopper struct {
	tids    []int
	watch   []watched
	longest time.Duration

	cur                  int
	want                 time.Duration
	since, marked, until time.Time
	marks                []watchMark
	heldUp               []int

	next  time.Time // when the next stop begins, where none is under way
	stats stopStats
}

// stopThreads stops the threads tids of a child process, one at a time at
// an arbitrary instruction, until run has passed, and then lets them all
// go. Each stop lasts stopProbe, or its length, drawn from 1 ms to longest,
// where that is less. Then, where a thread of watch is in a bounded
// operation and, stopRecheck later, has not ended it nor waited for a CPU
// most of that time, it lasts longest, or until every such thread has
// ended its operation (then something else held it up); else, one time in
// eight, its length; else it ends. So it seeks the instructions where a
// stop holds up a bounded operation, and holds those as long as it may.
//
// It attaches to each thread with PTRACE_SEIZE and stops it with
// PTRACE_INTERRUPT; it passes on at once each signal (the Go runtime's
// preemption, SIGURG, above all) that stops a thread it traces. Its
// ptrace calls come from one thread, the tracer, which ends with it: where
// stopThreads fails midway, the kernel lets its tracees go.
func stopThreads(tids []int, watch []watched, run, longest time.Duration) (stopStats, error) {
	res := make(chan error, 1)
	s := &stopper{watch: watch, longest: longest, cur: -1}
	go func() {
		// Not unlocked: the thread ends with the goroutine, and the kernel
		// detaches whatever it still traces.
		runtime.LockOSThread()
		// Where it may, the tracer runs ahead of the child's threads, so
		// that a stop lasts about as long as it decides.
		unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), -10)
		for _, tid := range tids {
			if err := unix.PtraceSeize(tid); err != nil {
				s.detach()
				res <- fmt.Errorf("PTRACE_SEIZE of thread %d: %w", tid, err)
				return
			}
			s.tids = append(s.tids, tid)
		}
		err := s.loop(run)
		if e := s.detach(); err == nil {
			err = e
		}
		res <- err
	}()
	err := <-res
	return s.stats, err
}

// loop stops the threads in turn until run has passed and no stop is
// under way. It looks at the tracees every stopPoll, sooner where its
// next step is due, sleeping in between on its own thread, so that the
// Go scheduler, which a loaded machine delays, does not delay its steps.
func (s *stopper) loop(run time.Duration) error {
	end := time.Now().Add(run)
	s.next = time.Now()
	for {
		if err := s.reap(); err != nil {
			return err
		}
		now := time.Now()
		if err := s.step(now, now.Before(end)); err != nil {
			return err
		}
		if s.cur < 0 && !now.Before(end) {
			return nil
		}
		at := now.Add(stopPoll)
		switch {
		case s.cur < 0:
			at = s.next
		case s.since.IsZero():
		case !s.until.IsZero():
			at = s.until
		case !s.marked.IsZero():
			at = s.marked.Add(stopRecheck)
		default:
			at = s.since.Add(min(stopProbe, s.want))
		}
		if d := min(time.Until(at), stopPoll); d > 0 {
			ts := unix.NsecToTimespec(int64(d))
			unix.Nanosleep(&ts, nil)
		}
	}
}

// step decides how long the stop under way lasts, lets its thread go once
// it has lasted that, and, where more are to come and none is under way,
// stops the next thread at its time.
func (s *stopper) step(now time.Time, more bool) error {
	if s.cur >= 0 && !s.since.IsZero() {
		if s.until.IsZero() {
			s.decide(now)
		}
		if len(s.heldUp) > 0 && s.movedOn() {
			s.until = now // what held them up was not the stop
		}
		if !s.until.IsZero() && !now.Before(s.until) {
			s.noteLate()
			if err := unix.PtraceCont(s.tids[s.cur], 0); err != nil {
				return fmt.Errorf("PTRACE_CONT of thread %d: %w", s.tids[s.cur], err)
			}
			held := now.Sub(s.since)
			s.stats.stops++
			s.stats.total += held
			s.stats.longest = max(s.stats.longest, held)
			s.cur = -1
			s.next = now.Add(time.Duration(rand.Int64N(int64(stopGap) + 1)))
		}
	}
	if !more || s.cur >= 0 || now.Before(s.next) {
		return nil
	}
	s.cur = rand.IntN(len(s.tids))
	if err := unix.PtraceInterrupt(s.tids[s.cur]); err != nil {
		return fmt.Errorf("PTRACE_INTERRUPT of thread %d: %w", s.tids[s.cur], err)
	}
	s.want = time.Millisecond + time.Duration(rand.Int64N(int64(s.longest-time.Millisecond)+1))
	s.since, s.marked, s.until = time.Time{}, time.Time{}, time.Time{}
	s.heldUp = s.heldUp[:0]
	return nil
}

// movedOn reports whether every watched thread the stop under way holds
// up has ended the operation it was in.
func (s *stopper) movedOn() bool {
	for _, i := range s.heldUp {
		if s.watch[i].word.Load() == s.marks[i].done {
			return false
		}
	}
	return true
}

// decide sets until for the stop under way, once it is time: at the probe,
// it marks the watched threads where one is in a bounded operation, and
// decides stopRecheck later; else it decides at once. A stop that holds up
// a watched thread lasts longest, or until the threads it holds up move on
// (see step); another its length where that is at most stopProbe, and one
// time in eight; else stopProbe.
func (s *stopper) decide(now time.Time) {
	switch {
	case s.marked.IsZero() && now.Sub(s.since) < min(stopProbe, s.want):
		return
	case s.marked.IsZero():
		s.marks = s.marks[:0]
		inside := false
		for _, w := range s.watch {
			m := w.mark()
			s.marks = append(s.marks, m)
			inside = inside || m.done%2 == 1
		}
		if inside {
			s.marked = now
			return
		}
	case now.Sub(s.marked) < stopRecheck:
		return
	default:
		for i, w := range s.watch {
			if s.marks[i].heldUp(w, now.Sub(s.marked)) {
				s.heldUp = append(s.heldUp, i)
				s.noteHold(w, s.marks[i].done)
			}
		}
		if len(s.heldUp) > 0 {
			s.stats.stalls++
			s.stats.long++
			s.until = s.since.Add(s.longest)
			return
		}
	}
	switch {
	case s.want <= stopProbe:
		s.until = s.since.Add(s.want)
	case rand.IntN(8) == 0:
		s.stats.long++
		s.until = s.since.Add(s.want)
	default:
		s.until = s.since.Add(stopProbe)
	}
}

// noteLate notes, as a stop ends, where each watched thread is that is in
// a bounded operation and that the probe did not find held up: one may
// have begun after the probe, which looks only at those already inside,
// and a stop that holds it up holds it up to the end.
func (s *stopper) noteLate() {
	for i, w := range s.watch {
		done := w.word.Load()
		if done%2 == 0 || slices.Contains(s.heldUp, i) {
			continue
		}
		s.noteHold(w, done)
	}
}

// noteHold notes where the watched thread w, held up by the stop under way
// in the operation its word counts as done, was blocked, and where the
// stopped thread is.
func (s *stopper) noteHold(w watched, done uint64) {
	h := hold{word: w.index, done: done, blocked: blockedPlace(w.pid, w.tid)}
	var err error
	if h.stopped, err = stoppedPlace(w.pid, s.tids[s.cur]); err != nil {
		h.stopped.frames = []string{"(registers unread: " + err.Error() + ")"}
	}
	s.stats.holds = append(s.stats.holds, h)
}

// reap takes each tracee's stops that the kernel reports: the one asked
// for, which it holds, and any other, which it ends at once, passing on
// the signal of a signal-delivery stop.
func (s *stopper) reap() error {
	for i, tid := range s.tids {
		for {
			var ws unix.WaitStatus
			pid, err := unix.Wait4(tid, &ws, unix.WNOHANG|unix.WALL, nil)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return fmt.Errorf("wait4 for thread %d: %w", tid, err)
			}
			if pid == 0 {
				break
			}
			if !ws.Stopped() {
				return fmt.Errorf("thread %d ended (wait status %#x)", tid, uint32(ws))
			}
			sig := 0
			if uint32(ws)>>16 == 0 {
				// A signal-delivery stop: its signal goes on to the
				// thread, whose runtime needs it.
				sig = int(ws.StopSignal())
				s.stats.signals++
			} else if i == s.cur && s.since.IsZero() {
				// PTRACE_EVENT_STOP, the stop PTRACE_INTERRUPT asked for.
				s.since = time.Now()
				continue
			}
			if err := unix.PtraceCont(tid, sig); err != nil {
				return fmt.Errorf("PTRACE_CONT of thread %d: %w", tid, err)
			}
		}
	}
	return nil
}

// detach lets every tracee go: the one held at once, and another once
// PTRACE_INTERRUPT has stopped it (the kernel detaches only a stopped
// tracee), passing on the signal of a signal-delivery stop.
func (s *stopper) detach() error {
	var first error
	for i, tid := range s.tids {
		if err := detachThread(tid, i == s.cur && !s.since.IsZero()); err != nil && first == nil {
			first = err
		}
	}
	s.tids, s.cur = nil, -1
	return first
}

// detachThread detaches the tracee tid, held in a stop of the tracer's
// where held says.
func detachThread(tid int, held bool) error {
	sig := 0
	if !held {
		if err := unix.PtraceInterrupt(tid); err != nil {
			return fmt.Errorf("PTRACE_INTERRUPT of thread %d: %w", tid, err)
		}
		var ws unix.WaitStatus
		for {
			_, err := unix.Wait4(tid, &ws, unix.WALL, nil)
			if err == unix.EINTR {
				continue
			}
			if err != nil {
				return fmt.Errorf("wait4 for thread %d: %w", tid, err)
			}
			break
		}
		if !ws.Stopped() {
			return fmt.Errorf("thread %d ended (wait status %#x)", tid, uint32(ws))
		}
		if uint32(ws)>>16 == 0 {
			sig = int(ws.StopSignal())
		}
	}
	if _, _, errno := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_DETACH, uintptr(tid), 0, uintptr(sig), 0, 0); errno != 0 {
		return fmt.Errorf("PTRACE_DETACH of thread %d: %w", tid, errno)
	}
	return nil
}
