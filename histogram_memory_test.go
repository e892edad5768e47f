package counter

import (
	"maps"
	"math"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/tickstamp/counter/internal/handover"
	"github.com/tickstamp/counter/internal/race"
)

// buckets returns n(a, b) of the Histogram's doc: the buckets that spans
// from a to b ticks cover, from the layout itself.
func buckets(a, b float64) int {
	return int(handover.BucketOf(uint64(b))-handover.BucketOf(uint64(a))) + 1
}

// nOf is the Histogram doc's n(a, b).
func nOf(a, b float64) int { return int(math.Ceil(128*math.Log2(b/a))) + 1 }

// recorderBound is the Histogram doc's Recorder(a, b), for counts of a
// byte.
func recorderBound(a, b float64) int {
	return 800 + int(1.125*(1.5*float64(nOf(a, b))+64))
}

// snapshotBound is the Histogram doc's Snapshot(a, b), for counts up to
// most.
func snapshotBound(a, b float64, most uint64) int {
	w := 1.0
	switch {
	case most > math.MaxUint32:
		w = 8
	case most > math.MaxUint8:
		w = 4
	}
	return 176 + int(1.25*(w+0.125)*float64(nOf(a, b))) + 72
}

// heapNow returns the bytes of the heap's live objects, once the cleanups
// of the Recorders dropped before have run.
func heapNow() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// lockBytes returns what a Histogram's lock holds: its shard's
// allocation, measured, and its pointer among the Histogram's shards.
func lockBytes() int {
	return bytesEach(10_000, func() *shard { return new(shard) }) + int(unsafe.Sizeof((*shard)(nil)))
}

// bytesEach returns the heap, after GC, that each of n objects that build
// makes holds: the median of three tries, as the runtime's own goroutines
// (and the cleanups of earlier tests' objects) move the heap by a few KB
// between two reads.
func bytesEach[T any](n int, build func() T) int {
	var per [3]int
	for i := range per {
		kept := make([]T, n)
		h0 := heapNow()
		for j := range kept {
			kept[j] = build()
		}
		per[i] = int(int64(heapNow()-h0) / int64(n))
		runtime.KeepAlive(kept)
	}
	slices.Sort(per[:])
	return per[1]
}

// TestMemoryFormula checks the Histogram doc's memory figures against the
// heap, at GOMAXPROCS 2, 64 and 256: the formula n(a, b) against the layout, the sizes it names (an
// empty Histogram's and a lock's among them), a Recorder before its first
// span and after an Interval for spans over one to six decades, recorded
// in order (the window widens at each span) or shuffled, and a Snapshot of
// them: of one Recorder's, whose counts stay a byte each (over three
// decades, at most 2 KB), and of 200 Recorders', whose counts widen and
// stay exact.
func TestMemoryFormula(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's allocations are not the program's")
	}
	for _, tc := range []struct {
		a, b float64
		n    int
	}{{256, 512, 129}, {1000, 10000, 427}, {1000, 1e6, 1277}} {
		if got := buckets(tc.a, tc.b); got > tc.n || got < tc.n-16 {
			t.Errorf("spans from %g to %g ticks cover %d buckets; the doc says at most %d", tc.a, tc.b, got, tc.n)
		}
		if want := int(math.Ceil(128*math.Log2(tc.b/tc.a))) + 1; tc.n != want {
			t.Errorf("n(%g, %g) = %d in the doc; the formula gives %d", tc.a, tc.b, tc.n, want)
		}
	}
	if got := unsafe.Sizeof(handover.Tally{}); got != 176 {
		t.Errorf("a tally is %d bytes; the formula counts 176", got)
	}
	if got := unsafe.Sizeof(shard{}); got != 384 {
		t.Errorf("a lock is %d bytes; the doc says 384", got)
	}
	if got := lockBytes(); got != 392 {
		t.Errorf("a lock holds %d bytes; the doc says 392", got)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range []int{2, 64, 256} {
		t.Run("GOMAXPROCS="+strconv.Itoa(p), func(t *testing.T) {
			runtime.GOMAXPROCS(p)
			heapNow() // the runtime's own allocations for the new Ps, apart
			checkMemoryFormula(t)
		})
	}
}

// checkMemoryFormula is TestMemoryFormula at one GOMAXPROCS: the figures
// that do not depend on it.
func checkMemoryFormula(t *testing.T) {
	per := bytesEach(1000, NewHistogram)
	if per > 256 {
		t.Errorf("an empty Histogram holds %d bytes; the doc says 256", per)
	}
	if got := unsafe.Sizeof(Snapshot{}); got != 176 {
		t.Errorf("a Snapshot is %d bytes; its doc says 176", got)
	}

	const n = 200
	h := NewHistogram()
	per = bytesEach(n, h.Recorder)
	t.Logf("0 decades: %d bytes a Recorder that recorded nothing", per)
	if per > 400 {
		t.Errorf("a Recorder that recorded nothing holds %d bytes; the doc says 400 at most", per)
	}
	var s Snapshot
	h.Interval(&s)
	for _, decades := range []float64{1, 3, 6} {
		for _, shuffled := range []bool{false, true} {
			a, b := 1000.0, 1000*math.Pow(10, decades)
			spans := make([]Tickdelta, 4096)
			for k := range spans {
				spans[k] = Tickdelta(a * math.Pow(b/a, float64(k)/float64(len(spans)-1)))
			}
			if shuffled {
				r := uint64(1)
				for k := len(spans) - 1; k > 0; k-- {
					r = r*6364136223846793005 + 1442695040888963407
					j := int(r >> 33 % uint64(k+1))
					spans[k], spans[j] = spans[j], spans[k]
				}
			}
			h := NewHistogram()
			rs := make([]*Recorder, n)
			h0 := heapNow()
			for i := range rs {
				rs[i] = h.Recorder()
			}
			var s Snapshot
			h.Interval(&s) // so that the Recorders take tallies past their 64th span
			for i := range rs {
				for _, d := range spans {
					rs[i].Record(d)
				}
			}
			h.Interval(&s)
			s.Reset() // the Snapshot apart, below
			per := int(heapNow()-h0) / n
			bound := recorderBound(a, b)
			t.Logf("%g decades (shuffled %v): %d bytes a Recorder after an Interval; the formula %d", decades, shuffled, per, bound)
			if per > bound {
				t.Errorf("%g decades (shuffled %v): a Recorder holds %d bytes after an Interval; the doc's formula gives %d", decades, shuffled, per, bound)
			}
			if decades == 3 && per > 12<<10 {
				t.Errorf("three decades: a Recorder holds %d bytes after an Interval; want at most 12 KB", per)
			}
			// A Snapshot of the spans, filled by an Interval and by a Merge.
			for _, r := range rs {
				for _, d := range spans {
					r.Record(d)
				}
			}
			var filled, merged Snapshot
			h.Interval(&filled)
			merged.Merge(&filled)
			// A Snapshot of one Recorder's spans.
			h1 := NewHistogram()
			r1 := h1.Recorder()
			var one Snapshot
			h1.Interval(&one)
			for _, d := range spans {
				r1.Record(d)
			}
			h1.Interval(&one)
			if one.Count() != uint64(len(spans)) {
				t.Fatalf("%g decades: a Snapshot of %d spans; want %d", decades, one.Count(), len(spans))
			}
			most, all := uint64(0), maps.Collect(filled.d.Buckets())
			for i, c := range one.d.Buckets() {
				most = max(most, c)
				if all[i] != n*c {
					t.Fatalf("%g decades: bucket %d counts %d spans of %d Recorders; want %d, %d each", decades, i, all[i], n, n*c, c)
				}
				delete(all, i)
			}
			if len(all) != 0 {
				t.Fatalf("%g decades: %d buckets of %d Recorders' spans that one Recorder's spans do not hold", decades, len(all), n)
			}
			for _, x := range []*Snapshot{&one, &filled, &merged} {
				size := int(unsafe.Sizeof(*x)) + x.d.Bytes()
				c, of := most, "one Recorder's"
				if x != &one {
					c, of = n*most, strconv.Itoa(n)+" Recorders'"
				}
				want := snapshotBound(a, b, c)
				if size > want {
					t.Errorf("%g decades: a Snapshot holds %d bytes, counts up to %d; the doc's formula gives %d", decades, size, c, want)
				}
				if x != &merged && !shuffled {
					t.Logf("%g decades: %d bytes a Snapshot of %s spans filled by an Interval, counts up to %d; the formula %d", decades, size, of, c, want)
				}
				if decades == 3 && x == &one && size > 2<<10 {
					t.Errorf("three decades: a Snapshot of one Recorder's spans holds %d bytes; want at most 2 KB", size)
				}
				if decades == 3 && size > 8<<10 {
					t.Errorf("three decades: a Snapshot holds %d bytes; want at most 8 KB", size)
				}
			}
			runtime.KeepAlive(r1)
			runtime.KeepAlive(rs)
		}
	}
}

// TestFamilyMemory measures the family: 200 label sets, each with
// 8 Recorders whose spans cover three decades, read by the Family's
// Interval: at most 32 MB in all.
func TestFamilyMemory(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's allocations are not the program's")
	}
	const sets, writers = 200, 8
	spans := make([]Tickdelta, 1000)
	for k := range spans {
		spans[k] = Tickdelta(1000 * math.Pow(1000, float64(k)/float64(len(spans)-1)))
	}
	h0 := heapNow()
	f, err := NewFamily([]string{"route", "status"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var rs []*Recorder
	for i := range sets {
		h := f.With("/route/"+strconv.Itoa(i), "200")
		for range writers {
			r := h.Recorder()
			for _, d := range spans {
				r.Record(d)
			}
			rs = append(rs, r)
		}
	}
	var n uint64
	f.Interval(func(_ []string, s *Snapshot) { n += s.Count() })
	if n != sets*writers*uint64(len(spans)) {
		t.Fatalf("the Family's Interval holds %d spans; want %d", n, sets*writers*len(spans))
	}
	all := heapNow() - h0
	t.Logf("%d sets × %d Recorders over three decades: %.1f MB after an Interval (%d bytes a Recorder)", sets, writers, float64(all)/(1<<20), int(all)/(sets*writers))
	if all > 32<<20 {
		t.Errorf("the family holds %d bytes; want at most 32 MB", all)
	}
	runtime.KeepAlive(rs)
}

// memoryChildEnv marks the child process of TestMemoryFollowsContention,
// which profiles every allocation (GODEBUG=memprofilerate=1) from its
// start.
const memoryChildEnv = "COUNTER_MEMORY_CHILD"

// ours returns the bytes of live objects that the package allocated (its
// code the innermost of the package's frames in the allocation's stack, not
// a test's), after two collections: what its values hold, without the
// runtime's own growth that goroutines bring (threads, their Ps' work
// buffers), which the heap as a whole counts. It needs every allocation
// profiled: GODEBUG=memprofilerate=1.
func ours() int64 {
	runtime.GC()
	runtime.GC()
	n, _ := runtime.MemProfile(nil, true)
	recs := make([]runtime.MemProfileRecord, n+64)
	for {
		var ok bool
		if n, ok = runtime.MemProfile(recs, true); ok {
			break
		}
		recs = make([]runtime.MemProfileRecord, n+64)
	}
	var sum int64
	for _, r := range recs[:n] {
		for fs := runtime.CallersFrames(r.Stack()); ; {
			f, more := fs.Next()
			if strings.HasPrefix(f.Function, "github.com/tickstamp/counter") {
				if !strings.Contains(f.Function, ".Test") {
					sum += r.InUseBytes()
				}
				break
			}
			if !more {
				break
			}
		}
	}
	return sum
}

// lockState bounds what a lock beyond a Histogram's first holds after an
// Interval, on average over series: the lock (392 bytes), bare tallies
// (176 each) and its place in the set of locks, less than the lock and a
// window of counts (1,552 bytes over three decades) would.
const lockState = 1536

// TestMemoryFollowsContention measures, at GOMAXPROCS 2, 64 and 256 (on
// the CPUs the machine has), an empty Histogram; an empty series of a
// Family, with its values and its place in the Family; and a series that
// one goroutine, and one that 64 goroutines at once, recorded spans over
// three decades into through Record, after an Interval. It runs in a child
// process that profiles every allocation, and counts the objects the
// package allocated (ours). The empty ones do not grow with GOMAXPROCS and
// hold at most 256 and 512 bytes; a series holds at most one window of
// counts beside its lock and Histogram (the Histogram doc's formula) from
// one goroutine, and from 64 at most 4 KB (in an emulator, where they
// collide far more, at most lockState more a lock they made beyond the
// first).
func TestMemoryFollowsContention(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's allocations are not the program's")
	}
	if os.Getenv(memoryChildEnv) != "1" {
		args := []string{os.Args[0], "-test.run=^TestMemoryFollowsContention$", "-test.count=1", "-test.v"}
		if wrapper := os.Getenv("COUNTER_TEST_EXEC"); wrapper != "" {
			args = append(strings.Fields(wrapper), args...) // an emulator, as TestCrossProcess runs it
		}
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(os.Environ(), memoryChildEnv+"=1", "GODEBUG=memprofilerate=1")
		out, err := cmd.CombinedOutput()
		for _, l := range strings.Split(string(out), "\n") {
			if _, msg, ok := strings.Cut(strings.TrimSpace(l), "histogram_memory_test.go:"); ok {
				_, msg, _ = strings.Cut(msg, ": ")
				t.Log(msg)
			}
		}
		if err != nil {
			t.Fatalf("the child: %v\n%s", err, out)
		}
		return
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	spans := make([]Tickdelta, 1000)
	for k := range spans {
		spans[k] = Tickdelta(1000 * math.Pow(1000, float64(k)/float64(len(spans)-1)))
	}
	window := recorderBound(1000, 1e6) - 800 // one window's counts and header, at most
	procs := []int{2, 64, 256}
	const n, busy = 1000, 10
	var empty, emptySeries [3]int
	for i, p := range procs {
		runtime.GOMAXPROCS(p)
		f, err := NewFamily([]string{"set"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		var s Snapshot
		record := func(h *Histogram, goroutines int) {
			var wg sync.WaitGroup
			start := make(chan struct{})
			for range goroutines {
				wg.Go(func() {
					<-start
					for _, d := range spans {
						h.Record(d)
					}
				})
			}
			close(start)
			wg.Wait()
			if h.Interval(&s); s.Count() != uint64(goroutines*len(spans)) {
				t.Fatalf("an Interval holds %d spans; want %d", s.Count(), goroutines*len(spans))
			}
		}
		for range 3 { // the Family's table, the Snapshot's window, the runtime's threads
			record(f.With("warm"), 64)
		}
		hs := make([]*Histogram, n)
		o := ours()
		for k := range hs {
			hs[k] = NewHistogram()
		}
		empty[i] = int(ours()-o) / n
		o = ours()
		for k := range n {
			f.With("empty" + strconv.Itoa(k))
		}
		emptySeries[i] = int(ours()-o) / n
		perOne := 0
		for _, goroutines := range []int{1, 64} {
			o, shards := ours(), 0
			for k := range busy {
				h := f.With("used" + strconv.Itoa(goroutines) + "-" + strconv.Itoa(k))
				record(h, goroutines)
				shards += h.shardCount()
			}
			per := int(ours()-o) / busy
			locks := float64(shards) / busy
			t.Logf("GOMAXPROCS %d: a series after %d goroutines recorded three decades: %d bytes (%.1f locks)", p, goroutines, per, locks)
			var bound int
			switch {
			case goroutines == 1:
				bound = emptySeries[i] - empty[i] + 640 + window // the Histogram doc's, and the series' values
				perOne = per
			case os.Getenv("COUNTER_TEST_EXEC") != "":
				// An emulator holds a lock far longer, so goroutines
				// collide more and make more locks: each lock beyond
				// the first holds its own state, not a window.
				bound = perOne + int((locks-1)*lockState)
			default:
				bound = 4 << 10
			}
			if per > bound {
				t.Errorf("GOMAXPROCS %d: a series after %d goroutines recorded three decades holds %d bytes with %.1f locks; want at most %d", p, goroutines, per, locks, bound)
			}
		}
		t.Logf("GOMAXPROCS %d: an empty Histogram %d bytes, an empty series %d", p, empty[i], emptySeries[i])
		if empty[i] > 256 || emptySeries[i] > 512 {
			t.Errorf("GOMAXPROCS %d: an empty Histogram holds %d bytes, an empty series %d; want at most 256 and 512", p, empty[i], emptySeries[i])
		}
		runtime.KeepAlive(hs)
		runtime.KeepAlive(f)
	}
	for i := 1; i < len(procs); i++ {
		if d := empty[i] - empty[0]; d > 64 || d < -64 {
			t.Errorf("an empty Histogram holds %d bytes at GOMAXPROCS %d and %d at %d; want them equal within 64", empty[0], procs[0], empty[i], procs[i])
		}
		if d := emptySeries[i] - emptySeries[0]; d > 64 || d < -64 {
			t.Errorf("an empty series holds %d bytes at GOMAXPROCS %d and %d at %d; want them equal within 64", emptySeries[0], procs[0], emptySeries[i], procs[i])
		}
	}
}
