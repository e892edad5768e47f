package counter_test

import (
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/race"
)

// TestIntervalLosesNothing has four goroutines record, two through
// Recorders of their own, two through Histogram.Record, while one reporter
// takes an Interval every millisecond and another takes them back to back. Over all the snapshots, every span is counted
// exactly once: the counts, the sums and the negatives add up exactly.
// COUNTER_NOLOSS_SPANS sets the spans each writer records (CI runs 25 M).
func TestIntervalLosesNothing(t *testing.T) {
	perWriter := 1_000_000
	if race.Enabled {
		perWriter = 100_000
	}
	perWriter = counter.EnvCount(t, "COUNTER_NOLOSS_SPANS", perWriter)
	h := counter.NewHistogram()
	var (
		writers sync.WaitGroup
		done    atomic.Bool
		total   counter.Snapshot
		snaps   int
	)
	reporter := make(chan struct{})
	// Each writer waits halfway for an Interval, so that at least one
	// runs while they record, however the scheduler treats the reporter.
	halfway := make(chan struct{})
	go func() {
		defer close(reporter)
		var s counter.Snapshot
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for !done.Load() {
			<-tick.C
			h.Interval(&s)
			total.Merge(&s)
			if snaps++; snaps == 1 {
				close(halfway)
			}
		}
	}()
	// A second reporter takes Intervals back to back: calls to Interval
	// take turns, and the two reporters' snapshots together hold each span
	// once.
	second := make(chan struct{})
	var total2 counter.Snapshot
	snaps2 := 0
	go func() {
		defer close(second)
		var s counter.Snapshot
		for !done.Load() {
			h.Interval(&s)
			total2.Merge(&s)
			snaps2++
		}
	}()
	// span returns writer w's i-th span: every 1,000th is negative.
	span := func(w, i int) counter.Tickdelta {
		if i%1000 == 999 {
			return -1
		}
		return counter.Tickdelta((i*7919 + w) % 1_000_000)
	}
	for w := range 4 {
		writers.Add(1)
		go func() {
			defer writers.Done()
			if w%2 == 0 {
				r := h.Recorder()
				defer r.Close()
				for i := range perWriter {
					if i == perWriter/2 {
						<-halfway
					}
					r.Record(span(w, i))
				}
				return
			}
			for i := range perWriter {
				if i == perWriter/2 {
					<-halfway
				}
				h.Record(span(w, i))
			}
		}()
	}
	writers.Wait()
	done.Store(true)
	<-reporter
	<-second
	var last counter.Snapshot
	h.Interval(&last)
	total.Merge(&last)
	total.Merge(&total2)

	var wantCount, wantNeg, wantSum uint64
	wantMin, wantMax := counter.Tickdelta(math.MaxInt64), counter.Tickdelta(0)
	for w := range 4 {
		for i := range perWriter {
			if d := span(w, i); d < 0 {
				wantNeg++
			} else {
				wantCount++
				wantSum += uint64(d)
				wantMin, wantMax = min(wantMin, d), max(wantMax, d)
			}
		}
	}
	t.Logf("%d spans over %d snapshots and a last one (and %d by a second reporter)", total.Count()+total.Negative(), snaps+snaps2, snaps2)
	if total.Count() != wantCount || total.Negative() != wantNeg {
		t.Fatalf("the snapshots counted %d spans and %d negative; want %d and %d", total.Count(), total.Negative(), wantCount, wantNeg)
	}
	if total.Sum() != counter.Tickdelta(wantSum) {
		t.Fatalf("the snapshots' sums add to %d; want %d", total.Sum(), wantSum)
	}
	if total.Min() != wantMin || total.Max() != wantMax {
		t.Fatalf("min %d, max %d; want %d and %d", total.Min(), total.Max(), wantMin, wantMax)
	}
}

// TestIntervalNeedsNoHelp checks the promise of Interval's doc: every span
// whose Record returned before Interval was called is in its snapshot,
// whatever the Recorder's goroutine does next: record more, wait on a
// channel, sleep, sit in a system call, end without Close, or call Interval
// itself.
func TestIntervalNeedsNoHelp(t *testing.T) {
	h := counter.NewHistogram()
	var s counter.Snapshot
	check := func(what string, want counter.Tickdelta) {
		t.Helper()
		h.Interval(&s)
		if s.Count() != 1 || s.Max() != want {
			t.Fatalf("%s: count %d, max %d; want the one span of %d", what, s.Count(), s.Max(), want)
		}
	}

	r := h.Recorder()
	r.Record(10)
	check("the same goroutine", 10)

	recorded, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := h.Recorder()
		defer r.Close()
		r.Record(20)
		recorded <- struct{}{}
		<-release // blocked on a channel
		r.Record(30)
		recorded <- struct{}{}
		time.Sleep(50 * time.Millisecond) // asleep
		r.Record(40)
		recorded <- struct{}{}
		var b [1]byte
		f, err := os.Open(os.DevNull)
		if err == nil {
			defer f.Close()
			_, _ = f.Read(b[:]) // in and out of a system call
		}
		<-release
	}()
	<-recorded
	check("a goroutine blocked on a channel", 20)
	release <- struct{}{}
	<-recorded
	check("a goroutine asleep", 30)
	<-recorded
	check("a goroutine between system calls", 40)
	release <- struct{}{}
	<-done
	h.Interval(&s)
	if s.Count() != 0 {
		t.Fatalf("after the goroutine ended: count %d; want 0, every span taken before", s.Count())
	}

	go func() {
		defer close(recorded)
		r := h.Recorder() // never closed
		r.Record(50)
	}()
	<-recorded
	check("a goroutine that ended without Close", 50)
}

// TestRecordCPU checks that spans whose CPUs differ are counted apart, and
// spans of an unknown CPU are counted and marked.
func TestRecordCPU(t *testing.T) {
	h := counter.NewHistogram()
	r := h.Recorder()
	r.RecordCPU(100, 0, 0)
	r.RecordCPU(200, 0, 1)
	r.RecordCPU(-50, 1, 0) // migrated, whatever its sign
	r.RecordCPU(300, -1, -1)
	r.RecordCPU(-5, -1, -1) // negative, not unknown
	r.RecordCPU(400, 3, 3)
	r.RecordCPU(500, 2, 2)
	r.RecordCPU(600, 1, 2)
	r.RecordCPU(700, -1, -1)
	r.Close()
	var s counter.Snapshot
	h.Interval(&s)
	if s.Count() != 5 || s.Migrated() != 3 || s.UnknownCPU() != 2 || s.Negative() != 1 {
		t.Fatalf("count %d, migrated %d, unknown %d, negative %d; want 5, 3, 2, 1", s.Count(), s.Migrated(), s.UnknownCPU(), s.Negative())
	}
	if s.Min() != 100 || s.Max() != 700 || s.Sum() != 100+300+400+500+700 {
		t.Fatalf("min %d, max %d, sum %d; want 100, 700, 2000", s.Min(), s.Max(), s.Sum())
	}
}

// TestNowCPUSpansRecord records real NowCPU spans from goroutines that the
// scheduler moves between CPUs: every span is counted once, as kept,
// migrated or negative, and where the CPU is unknown all kept spans say so.
func TestNowCPUSpansRecord(t *testing.T) {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	h := counter.NewHistogram()
	const perWriter = 20000
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := h.Recorder()
			defer r.Close()
			for i := range perWriter {
				t0, from := c.NowCPU()
				if i%100 == 0 {
					time.Sleep(10 * time.Microsecond) // a chance to move
				}
				t1, to := c.NowCPU()
				r.RecordCPU(t1.Sub(t0), from, to)
			}
		}()
	}
	wg.Wait()
	var s counter.Snapshot
	h.Interval(&s)
	if got := s.Count() + s.Migrated() + s.Negative(); got != 4*perWriter {
		t.Fatalf("%d spans counted; want %d", got, 4*perWriter)
	}
	if _, cpu := c.NowCPU(); cpu < 0 && s.UnknownCPU() != s.Count() {
		t.Fatalf("NowCPU does not know the CPU here, yet only %d of %d spans say so", s.UnknownCPU(), s.Count())
	}
	t.Logf("%d kept, %d migrated, %d negative, %d of unknown CPU", s.Count(), s.Migrated(), s.Negative(), s.UnknownCPU())
}

// TestFloor checks the empty spans Counter.Floor measures: FloorSpans of
// them, never negative on one goroutine's ordered reads, in order.
func TestFloor(t *testing.T) {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	for _, p := range []counter.Pair{counter.NowNow, counter.BeginEnd, 7} {
		var s counter.Snapshot
		c.Floor(p, &s)
		if s.Count()+s.Negative() != 10000 {
			t.Fatalf("pair %d: %d spans; want %d", p, s.Count()+s.Negative(), 10000)
		}
		if s.Negative() != 0 {
			t.Fatalf("pair %d: %d negative empty spans of ordered reads on one goroutine", p, s.Negative())
		}
		p50, p99 := s.Quantile(0.5), s.Quantile(0.99)
		if !(s.Min() <= p50 && p50 <= p99 && p99 <= s.Max()) {
			t.Fatalf("pair %d: min %d, p50 %d, p99 %d, max %d out of order", p, s.Min(), p50, p99, s.Max())
		}
		if got := s.QuantileLess(0.5, p50); got != 0 {
			t.Fatalf("pair %d: the median less itself is %d; want 0", p, got)
		}
		if got := s.QuantileLess(0.99, p50); got != p99-p50 {
			t.Fatalf("pair %d: QuantileLess(0.99, p50) = %d; want %d", p, got, p99-p50)
		}
		t.Logf("pair %d: min %d, p50 %d, p99 %d, max %d ticks", p, s.Min(), p50, p99, s.Max())
		// Into a Snapshot whose buckets reach its spans, Floor allocates
		// nothing: it may only where a span is shorter or longer than every
		// span the Snapshot held before. The count is the process's, which
		// the cleanups of Recorders that earlier tests dropped may add to
		// meanwhile (under load, hundreds): the least of the calls that
		// stayed within the range must be 0, as it would not be where
		// Floor allocated at each.
		least, most := s.Min(), s.Max()
		var ms runtime.MemStats
		fewest, within := uint64(math.MaxUint64), 0
		for range 5 {
			runtime.ReadMemStats(&ms)
			before := ms.Mallocs
			c.Floor(p, &s)
			runtime.ReadMemStats(&ms)
			if s.Min() >= least && s.Max() <= most {
				fewest, within = min(fewest, ms.Mallocs-before), within+1
			}
			least, most = min(least, s.Min()), max(most, s.Max())
		}
		if within > 0 && fewest != 0 && !race.Enabled {
			t.Errorf("pair %d: each of %d Floors into a Snapshot whose buckets held their spans allocated, at least %d times; want 0",
				p, within, fewest)
		}
	}
}

func TestQuantileLess(t *testing.T) {
	var s counter.Snapshot
	h := counter.NewHistogram()
	h.Record(100)
	h.Interval(&s)
	for _, tc := range []struct {
		floor, want counter.Tickdelta
	}{
		{0, 100}, {30, 70}, {100, 0}, {150, 0}, {-20, 100}, {math.MaxInt64, 0}, {math.MinInt64, 100},
	} {
		if got := s.QuantileLess(0.5, tc.floor); got != tc.want {
			t.Errorf("QuantileLess(0.5, %d) = %d; want %d", tc.floor, got, tc.want)
		}
	}
}

// TestHistogramDoesNotAllocate checks the promise that recording, taking an
// Interval into a reused Snapshot and reading it allocate nothing once the
// Recorders and the Snapshot exist.
func TestHistogramDoesNotAllocate(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector allocates")
	}
	h := counter.NewHistogram()
	r := h.Recorder()
	var s counter.Snapshot
	h.Record(1)
	r.Record(1)
	h.Interval(&s)
	d := counter.Tickdelta(0)
	if n := testing.AllocsPerRun(1000, func() {
		d += 12345
		r.Record(d)
		h.Record(d)
		r.RecordCPU(d, 0, 1)
		r.RecordCPU(d, -1, -1)
	}); n != 0 {
		t.Errorf("recording allocates %v times a call; want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() {
		r.Record(d)
		h.Interval(&s)
		_ = s.Quantile(0.99) + s.Mean() + s.Max()
		for range s.Buckets() {
		}
	}); n != 0 {
		t.Errorf("Interval into a reused Snapshot allocates %v times; want 0", n)
	}
}

// TestWorkerBurstsAndIdleGaps drives the README's worker, which waits on a
// channel between requests, with bursts of requests separated by idle
// gaps, and a reporter that takes an Interval in each gap and others
// during the bursts. An Interval in a gap holds exactly the requests
// completed since the last one; one during a burst holds at least those
// completed before it was called and at most those begun by its
// return; and over all of them every request is counted once.
func TestWorkerBurstsAndIdleGaps(t *testing.T) {
	h := counter.NewHistogram()
	c := counter.Monotonic()
	requests := make(chan func())
	var begun, completed atomic.Uint64
	var wg sync.WaitGroup
	wg.Go(func() { // the worker, as the README writes it
		r := h.Recorder()
		defer r.Close()
		for handle := range requests {
			start := c.Now()
			handle()
			begun.Add(1)
			r.Record(c.Now().Sub(start))
			completed.Add(1)
		}
	})
	var s counter.Snapshot
	var taken uint64
	interval := func() (lo, hi uint64) {
		lo = completed.Load()
		h.Interval(&s)
		hi = begun.Load()
		taken += s.Count()
		return lo, hi
	}
	work := func() { // a few microseconds of work
		for end := time.Now().Add(time.Duration(rand.IntN(5000))); time.Now().Before(end); {
		}
	}
	var sent uint64
	for burst := range 30 {
		n := 1 + rand.IntN(400)
		sent += uint64(n)
		for i := range n {
			done := make(chan struct{})
			requests <- func() { work(); close(done) }
			if i%97 == 0 {
				if lo, hi := interval(); taken < lo || taken > hi {
					t.Fatalf("burst %d: an Interval during it brought the count to %d; %d requests had completed when it was called and %d begun when it returned", burst, taken, lo, hi)
				}
			}
			<-done
		}
		for completed.Load() < sent {
			runtime.Gosched() // until the last request's Record is done
		}
		time.Sleep(time.Duration(rand.IntN(2000)) * time.Microsecond) // the worker idles on the channel
		if lo, _ := interval(); taken != lo {
			t.Fatalf("burst %d: after an idle gap the Intervals hold %d requests; %d completed", burst, taken, lo)
		}
	}
	close(requests)
	wg.Wait()
	interval()
	if want := completed.Load(); taken != want {
		t.Fatalf("the Intervals hold %d requests; %d completed", taken, want)
	}
}

// TestSnapshotCopyCaughtByVet: a Snapshot refers to its buckets, so a copy
// made with b := a would share them; go vet reports the copy, as the
// Snapshot's doc says. testdata/vetcopy makes one.
func TestSnapshotCopyCaughtByVet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	out, err := exec.Command("go", "vet", "./testdata/vetcopy").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "copies lock value") {
		t.Fatalf("go vet of a Snapshot's copy: %v\n%s\nwant it reported as a copy of a lock value", err, out)
	}
}

// TestSnapshotMergeCopies: Merge into an empty Snapshot is the copy the
// Snapshot's doc gives, and nothing done to the original changes it.
func TestSnapshotMergeCopies(t *testing.T) {
	h := counter.NewHistogram()
	for d := range counter.Tickdelta(1000) {
		h.Record(d * 1000)
	}
	var a, b counter.Snapshot
	h.Interval(&a)
	b.Merge(&a)
	p90, n, most := b.Quantile(0.9), b.Count(), b.Max()
	if p90 != a.Quantile(0.9) || n != a.Count() || most != a.Max() {
		t.Fatalf("a merged copy: p90 %d, count %d, max %d; want %d, %d, %d", p90, n, most, a.Quantile(0.9), a.Count(), a.Max())
	}
	h.Record(7)
	h.Interval(&a) // reuses a
	if b.Quantile(0.9) != p90 || b.Count() != n || b.Max() != most {
		t.Fatalf("a copy changed with the Snapshot it was copied from: p90 %d, count %d, max %d; want %d, %d, %d",
			b.Quantile(0.9), b.Count(), b.Max(), p90, n, most)
	}
	if a.Count() != 1 || a.Quantile(0.9) != 7 {
		t.Fatalf("the reused Snapshot: count %d, p90 %d; want 1 and 7", a.Count(), a.Quantile(0.9))
	}
}

// TestCloseUnderBackToBackIntervals has eight goroutines make Recorders,
// record 500 spans into each (past the spans a new Recorder spills, so that
// each takes a tally) and close them, while a reporter takes Intervals
// back to back, so that nearly every Close finds one running. Every span
// arrives exactly once, and the heap stays small: Close adds its tallies
// itself and leaves only the writer for an Interval to take off the list,
// and a Recorder stays reachable until its Close returns, so that the
// cleanup of a dropped one cannot close its writer meanwhile (it once did,
// and lost the Recorder's tally).
func TestCloseUnderBackToBackIntervals(t *testing.T) {
	runs := 10
	if testing.Short() {
		runs = 2
	}
	for run := range runs {
		h := counter.NewHistogram()
		var stop atomic.Bool
		var recorded [8]uint64
		var wg sync.WaitGroup
		for w := range recorded {
			wg.Go(func() {
				for n := 0; !stop.Load() || n < 3; n++ {
					r := h.Recorder()
					for k := range 500 {
						r.Record(counter.Tickdelta(1000 + k*w*37))
					}
					r.Close()
					recorded[w] += 500
				}
			})
		}
		var got uint64
		var s counter.Snapshot
		for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
			h.Interval(&s)
			got += s.Count()
		}
		stop.Store(true)
		wg.Wait()
		h.Interval(&s)
		got += s.Count()
		var want uint64
		for _, r := range recorded {
			want += r
		}
		if got != want {
			t.Fatalf("run %d: the Intervals hold %d spans; want %d", run, got, want)
		}
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > 64<<20 {
			t.Fatalf("run %d: the heap holds %d MB after %d spans in Recorders of 500; want at most 64", run, ms.HeapAlloc>>20, want)
		}
	}
}
