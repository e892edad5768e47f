package counter

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tickstamp/counter/internal/race"
)

// shardCount returns how many shards h has.
func (h *Histogram) shardCount() int { return len(h.shards.Load().shards) }

// listedShards returns how many of h's shards its collector lists as of
// its last Interval: all but those whose tally an Interval gave back and
// that have recorded nothing since.
func (h *Histogram) listedShards() int {
	h.sweeping.Lock()
	defer h.sweeping.Unlock()
	n := 0
	for _, s := range h.shards.Load().shards {
		if s.idle < idleIntervals {
			n++
		}
	}
	return n
}

// TestShardsOneGoroutineKeepsOne: a goroutine that records alone keeps one
// shard, whether it takes the Intervals between its records itself or a
// reporter takes them back to back meanwhile, holding the shards' locks
// in turn (and adding one only for an Interval that held them past a
// record's patience); and every span is in one Interval.
func TestShardsOneGoroutineKeepsOne(t *testing.T) {
	n := 1_000_000
	if race.Enabled {
		n = 100_000
	}
	t.Run("Intervals between", func(t *testing.T) {
		h := NewHistogram()
		var s, total Snapshot
		for i := range n {
			h.Record(Tickdelta(i))
			if i%1000 == 999 {
				h.Interval(&s)
				total.Merge(&s)
			}
		}
		if got := h.shardCount(); got != 1 || total.Count() != uint64(n) {
			t.Errorf("%d shards and %d spans; want 1 and %d", got, total.Count(), n)
		}
	})
	t.Run("a reporter meanwhile", func(t *testing.T) {
		h := NewHistogram()
		var done atomic.Bool
		var reporter sync.WaitGroup
		var total Snapshot
		intervals, slow := 0, 0
		reporter.Go(func() {
			var s Snapshot
			for !done.Load() {
				start := time.Now()
				h.Interval(&s)
				if time.Since(start) >= intervalPatience {
					slow++
				}
				total.Merge(&s)
				intervals++
			}
		})
		for i := range n {
			h.Record(Tickdelta(i))
		}
		done.Store(true)
		reporter.Wait()
		var s Snapshot
		h.Interval(&s)
		total.Merge(&s)
		t.Logf("%d Intervals meanwhile, %d of them as long as a record's patience", intervals, slow)
		// A record that finds its lock held by one Interval for
		// intervalPatience adds a lock (its thread is likely stopped): only
		// an Interval that long, which a loaded machine or an emulator
		// makes now and then, adds one.
		if got := h.shardCount(); got > 1+slow || total.Count() != uint64(n) {
			t.Errorf("%d shards and %d spans; want at most %d (one, and one for each Interval of %v or more) and %d", got, total.Count(), 1+slow, intervalPatience, n)
		}
	})
}

// hammer has g goroutines record into h at once, as fast as they can,
// until done reports true, which it asks between records of the first
// goroutine; it fails t unless an Interval then holds every span.
func hammer(t *testing.T, h *Histogram, g int, done func() bool) {
	t.Helper()
	var wg sync.WaitGroup
	var stop atomic.Bool
	var spans atomic.Uint64
	start := make(chan struct{})
	for w := range g {
		wg.Go(func() {
			<-start
			i := 0
			for ; !stop.Load(); i++ {
				h.Record(Tickdelta(1000 + (i*7919+w)%1_000_000))
				if w == 0 && i%1024 == 0 && done() {
					stop.Store(true)
				}
			}
			spans.Add(uint64(i))
		})
	}
	close(start)
	wg.Wait()
	var s Snapshot
	if h.Interval(&s); s.Count() != spans.Load() {
		t.Fatalf("an Interval holds %d spans; want %d", s.Count(), spans.Load())
	}
}

// TestShardsFollowContention: goroutines that record into one Histogram at
// once, more of them than CPUs, add shards; 64 on a few CPUs add far fewer
// than the bound of 4·GOMAXPROCS in a second of it (logged: a record adds
// one only where it finds every lock held, and on a few CPUs few are held
// at once).
func TestShardsFollowContention(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: goroutines collide only where the scheduler stops one holding a lock")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Run("8 goroutines", func(t *testing.T) {
		runtime.GOMAXPROCS(8)
		h := NewHistogram()
		deadline := time.Now().Add(10 * time.Second)
		hammer(t, h, 8, func() bool { return h.shardCount() > 1 || time.Now().After(deadline) })
		if n := h.shardCount(); n < 2 {
			t.Errorf("8 goroutines at GOMAXPROCS 8 for 10 s: %d shard; want them to add some", n)
		}
	})
	t.Run("64 goroutines", func(t *testing.T) {
		runtime.GOMAXPROCS(64)
		h := NewHistogram()
		end := time.Now().Add(time.Second)
		hammer(t, h, 64, func() bool { return time.Now().After(end) })
		n := h.shardCount()
		t.Logf("64 goroutines at GOMAXPROCS 64 on %d CPUs for 1 s: %d shards of at most %d", runtime.NumCPU(), n, h.most)
		if n > h.most/4 && runtime.NumCPU() <= 4 {
			t.Errorf("64 goroutines at GOMAXPROCS 64 on %d CPUs: %d shards; want at most a quarter of the bound, %d", runtime.NumCPU(), n, h.most/4)
		}
	})
}

// TestShardGivesItsTallyBack: a shard that records nothing for
// idleIntervals Intervals gives its tally back, leaving its collector's
// list; its next record takes a tally again, and every span is in one
// Interval.
func TestShardGivesItsTallyBack(t *testing.T) {
	h := NewHistogram()
	var s Snapshot
	for round := range 3 {
		h.Record(5)
		h.Record(7)
		h.Interval(&s)
		if s.Count() != 2 || h.c.Listed() != 1 {
			t.Fatalf("round %d: %d spans, %d writers listed; want 2 and 1", round, s.Count(), h.c.Listed())
		}
		for i := 1; i < idleIntervals; i++ {
			h.Interval(&s)
			if h.c.Listed() != 1 {
				t.Fatalf("round %d: after %d idle Intervals %d writers listed; want 1", round, i, h.c.Listed())
			}
		}
		h.Record(9) // an Interval before the tally would be given back
		if h.Interval(&s); s.Count() != 1 {
			t.Fatalf("round %d: %d spans; want 1", round, s.Count())
		}
		for range idleIntervals + 1 { // the Interval after the sweep's Close retires the shard
			h.Interval(&s)
		}
		if h.c.Listed() != 0 || h.listedShards() != 0 || h.shardCount() != 1 {
			t.Fatalf("round %d: after %d idle Intervals %d writers listed (%d shards, %d listed); want none of 1", round, idleIntervals, h.c.Listed(), h.shardCount(), h.listedShards())
		}
	}
}

// TestShardsComeAndGo: goroutines that record in bursts, adding shards,
// between which their shards give their tallies back, while a reporter
// takes Intervals a few tens of microseconds apart, lose no span.
func TestShardsComeAndGo(t *testing.T) {
	bursts, per := 100, 20_000
	if race.Enabled {
		bursts, per = 40, 2000
	}
	h := NewHistogram()
	var done atomic.Bool
	var reporter sync.WaitGroup
	var total Snapshot
	var intervals atomic.Int64
	reporter.Go(func() {
		var s Snapshot
		for !done.Load() {
			h.Interval(&s)
			total.Merge(&s)
			intervals.Add(1)
			time.Sleep(20 * time.Microsecond) // no shard is added while an Interval runs
		}
	})
	for b := range bursts {
		var wg sync.WaitGroup
		for w := range 1 + b%8 {
			wg.Go(func() {
				for i := range per {
					h.Record(Tickdelta(i + w))
				}
			})
		}
		wg.Wait()
		if b%4 == 3 {
			// Long enough for every shard to give its tally back.
			for i := intervals.Load(); intervals.Load() < i+idleIntervals+2; {
				runtime.Gosched()
			}
			if n := h.listedShards(); n != 0 {
				t.Fatalf("burst %d: %d of %d shards listed after %d idle Intervals; want none", b, n, h.shardCount(), idleIntervals+1)
			}
		}
	}
	done.Store(true)
	reporter.Wait()
	var s Snapshot
	h.Interval(&s)
	total.Merge(&s)
	want := uint64(0)
	for b := range bursts {
		want += uint64((1 + b%8) * per)
	}
	t.Logf("%d shards, %d listed", h.shardCount(), h.listedShards())
	if total.Count() != want {
		t.Fatalf("the Intervals hold %d spans; want %d", total.Count(), want)
	}
}

// TestShardClaimMovesToItsUser: a goroutine that finds no shard of its
// own takes a free one's claim, so that its next records find it first,
// as one whose stack moved (a new key) must rather than share its old
// claim with a goroutine on another CPU.
func TestShardClaimMovesToItsUser(t *testing.T) {
	h := NewHistogram()
	h.lockFor(1).mu.Unlock() // key 1 claims the first shard, and records no more
	s := h.lockFor(2)
	s.mu.Unlock()
	if o := s.owner.Load(); o != 2 || h.shardCount() != 1 {
		t.Fatalf("key 2 took a shard claimed by %d, of %d; want its own claim of the one shard", o, h.shardCount())
	}
	if got := h.lockFor(2); got != s {
		t.Fatalf("key 2's next record took another shard")
	} else {
		got.mu.Unlock()
	}
}

// TestRecordWaitsForNoInterval holds a Histogram's only lock as an
// Interval whose thread the operating system stopped would (the Interval
// running, its lock taken): a record from another goroutine does not wait
// for it, but adds a lock after a few yields, and both spans are in the
// next Interval.
func TestRecordWaitsForNoInterval(t *testing.T) {
	h := NewHistogram()
	h.Record(1)
	s := h.shards.Load().shards[0]
	h.collecting.Add(1)
	if !s.mu.TryLock() {
		t.Fatal("the only lock is held")
	}
	done := make(chan struct{})
	go func() {
		h.Record(2)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a record waited for an Interval holding the lock")
	}
	s.mu.Unlock()
	h.collecting.Add(-1)
	if n := h.shardCount(); n != 2 {
		t.Fatalf("%d locks; want 2: the record added one", n)
	}
	var snap Snapshot
	h.Interval(&snap)
	if snap.Count() != 2 {
		t.Fatalf("%d spans; want 2", snap.Count())
	}
}
