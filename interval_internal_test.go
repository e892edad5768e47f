package counter

import (
	"math/bits"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// barriersHere are the barriers Interval can pass on this machine and
// build, each forced in turn by the tests below.
func barriersHere() []barrier {
	if !plainStores {
		return []barrier{noBarrier}
	}
	if processBarrier() == membarrierBarrier {
		return []barrier{membarrierBarrier, stopTheWorld}
	}
	return []barrier{stopTheWorld}
}

// envCount returns the count the environment variable name sets, or def
// where it is unset; a test that finds anything else than a count of at
// least 1,000 fails.
func envCount(t testing.TB, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1000 {
		t.Fatalf("%s=%q: want a count of at least 1000", name, v)
	}
	return n
}

func (b barrier) String() string {
	return [...]string{"none", "membarrier", "stop the world"}[b]
}

// TestIntervalExactUnderEachBarrier has four goroutines record flat out,
// two through Recorders and two through Histogram.Record, spans, negative
// spans, migrated spans and spans of an unknown CPU, while a reporter takes
// Intervals back to back, under each barrier this machine has. Before each
// Interval the reporter loads how many records each writer has finished,
// and after it the snapshots so far must hold at least that many; at the
// end they hold every record exactly once, with exact sums and bounds.
// COUNTER_BARRIER_SPANS sets the records of each writer.
func TestIntervalExactUnderEachBarrier(t *testing.T) {
	per := 200_000
	if raceBuild {
		per = 20_000
	}
	per = envCount(t, "COUNTER_BARRIER_SPANS", per)
	// span returns writer w's i-th record: a span, or every 97th a negative
	// span, every 89th a migrated one and every 83rd one of an unknown CPU.
	span := func(w, i int) (d Tickdelta, from, to int) {
		d = Tickdelta((i*7919+w*104729)%3_000_000) << (i % 5 * 8)
		switch {
		case i%97 == 0:
			return -d - 1, 0, 0
		case i%89 == 0:
			return d, 0, 1
		case i%83 == 0:
			return d, -1, -1
		}
		return d, 0, 0
	}
	for _, b := range barriersHere() {
		t.Run(b.String(), func(t *testing.T) {
			h := newHistogram(b)
			var finished [4]atomic.Int64
			var writers sync.WaitGroup
			for w := range 4 {
				writers.Add(1)
				go func() {
					defer writers.Done()
					r := h.Recorder()
					defer r.Close()
					for i := range per {
						d, from, to := span(w, i)
						switch {
						case w >= 2:
							h.Record(d) // a shard knows no CPUs
						case from == to && from >= 0:
							r.Record(d)
						default:
							r.RecordCPU(d, from, to)
						}
						if i%64 == 63 {
							finished[w].Store(int64(i + 1))
						}
					}
					finished[w].Store(int64(per))
				}()
			}
			var total, s Snapshot
			seen := func() uint64 { return total.Count() + total.Negative() + total.Migrated() }
			intervals := 0
			for {
				var before int64
				for w := range finished {
					before += finished[w].Load()
				}
				h.Interval(&s)
				total.Merge(&s)
				intervals++
				if got := seen(); got < uint64(before) {
					t.Fatalf("after %d Intervals the snapshots hold %d records; %d had finished before the last began", intervals, got, before)
				}
				if before == int64(4*per) {
					break
				}
			}
			writers.Wait()
			h.Interval(&s)
			total.Merge(&s)

			var want Snapshot
			for w := range 4 {
				for i := range per {
					d, from, to := span(w, i)
					switch {
					case d < 0 && (w >= 2 || from == to):
						want.add(kindNegative, d)
					case w >= 2:
						want.add(kindSpan, d)
					case from != to:
						want.add(kindMigrated, d)
					case from < 0:
						want.add(kindUnknown, d)
					default:
						want.add(kindSpan, d)
					}
				}
			}
			t.Logf("%d records over %d Intervals", seen(), intervals)
			if total.counts != want.counts || total.count != want.count || total.lo != want.lo || total.hi != want.hi ||
				total.min != want.min || total.max != want.max || total.negative != want.negative ||
				total.migrated != want.migrated || total.unknownCPU != want.unknownCPU {
				t.Fatalf("the snapshots add up to count %d, sum %d:%d, min %d, max %d, negative %d, migrated %d, unknown %d;\\nwant %d, %d:%d, %d, %d, %d, %d, %d",
					total.count, total.hi, total.lo, total.min, total.max, total.negative, total.migrated, total.unknownCPU,
					want.count, want.hi, want.lo, want.min, want.max, want.negative, want.migrated, want.unknownCPU)
			}
		})
	}
}

// A store is one store of a record, as rec's doc lists them, or its load
// of the tally.
type store func()

// steps returns the stores a record of kind and span d makes into w, in
// order, as record and put make them where the tally takes the span: a
// copy of their sequence that TestStepsAreTheRecord holds to them, so
// that a test can stop a writer between any two.
func steps(w *rec, kind uint64, slow bool, d Tickdelta) []store {
	var t *tally
	var c, x uint32
	var lo, hi uint64
	count := func() *uint32 { return t.count(kind, d) }
	first := w.seq | 3 + 2
	if slow {
		first += 2
	}
	out := []store{
		func() { publish64(&w.seq, first) },
		func() { publishDelta(&w.jd, d) },
	}
	if slow {
		out = append(out, func() { publish64(&w.jkind, kind) })
	}
	out = append(out,
		func() {
			t = w.cur.Load() // a load, not a store: the writer may stop before or after it
			c = *count() + 1
			var carry uint64
			lo, carry = bits.Add64(t.lo, uint64(d), 0)
			hi, x = t.hi+carry, t.unknownCPU+1
		},
		func() { publish64(&w.jlo, lo) },
	)
	if slow {
		out = append(out, func() { publish64(&w.jhi, hi) }, func() { publish64(&w.jx, uint64(x)) })
	}
	out = append(out,
		func() { publish64(&w.jmark, mark(c, t, first)) },
		func() { publish32(count(), c) },
	)
	if kind <= kindUnknown {
		out = append(out, func() { publish64(&t.lo, lo) })
		if slow {
			out = append(out, func() { publish64(&t.hi, hi) })
		}
		out = append(out,
			func() {
				if d > t.max {
					publishDelta(&t.max, d)
				}
			},
			func() {
				if d < t.min {
					publishDelta(&t.min, d)
				}
			})
		if kind == kindUnknown {
			out = append(out, func() { publish32(&t.unknownCPU, x) })
		}
	}
	return out
}

// The records of the step tests: each kind, and a span whose sum carries.
var stepCases = []struct {
	name string
	kind uint64
	slow bool // the record is put's, as for a span whose sum carries
	d    Tickdelta
}{
	{"span", kindSpan, false, 1000},
	{"span whose sum carries", kindSpan, true, 1 << 40},
	{"unknown CPU", kindUnknown, true, 77},
	{"negative", kindNegative, true, -3},
	{"migrated", kindMigrated, true, 5},
}

// TestStepsAreTheRecord checks that steps makes the stores record and put
// make: the same journal and tally after each of a few records.
func TestStepsAreTheRecord(t *testing.T) {
	for _, tc := range stepCases {
		h := newHistogram(noBarrier)
		a, b := h.Recorder(), h.Recorder()
		for _, r := range []*Recorder{a, b} {
			r.Record(500)
			r.Record(2000)
		}
		for range 3 {
			for _, st := range steps(a.w, tc.kind, tc.slow, tc.d) {
				st()
			}
			switch {
			case !tc.slow:
				b.w.record(tc.d)
			default:
				if b.w.put(tc.d, tc.kind) != nil {
					t.Fatalf("%s: put found the tally full", tc.name)
				}
			}
			ja := [...]uint64{a.w.seq, uint64(a.w.jd), a.w.jkind, a.w.jlo, a.w.jhi, a.w.jx, a.w.jmark}
			jb := [...]uint64{b.w.seq, uint64(b.w.jd), b.w.jkind, b.w.jlo, b.w.jhi, b.w.jx, b.w.jmark}
			ta, tb := a.w.cur.Load(), b.w.cur.Load()
			if !tc.slow {
				ja[2], jb[2] = 0, 0 // a span's record leaves jkind, jhi and jx alone
				ja[4], jb[4], ja[5], jb[5] = 0, 0, 0, 0
			}
			if ja != jb || ta.counts != tb.counts || ta.lo != tb.lo || ta.hi != tb.hi || ta.min != tb.min || ta.max != tb.max ||
				ta.negative != tb.negative || ta.migrated != tb.migrated || ta.unknownCPU != tb.unknownCPU {
				t.Fatalf("%s: steps left journal %v and tally lo %d, max %d; the record %v, %d, %d", tc.name, ja, ta.lo, ta.max, jb, tb.lo, tb.max)
			}
		}
	}
}

// TestInFlightRecordAtEachStore stops a writer after each store of a
// record in turn, as the operating system may, and takes an Interval
// there; then lets it run to each later store and takes another, with the
// scan's view of the writer as it found it or as an older one (a scan may
// load a seq from before the record began, and take the tally again); then
// finishes the record and takes two more. The record is in exactly one of
// the snapshots, whole: its count, its sum, its bounds and its kind's count
// are all in that one or none is, and the spans recorded before it are all
// in the first.
func TestInFlightRecordAtEachStore(t *testing.T) {
	for _, tc := range stepCases {
		n := len(steps(new(rec), tc.kind, tc.slow, tc.d))
		for a := 0; a <= n; a++ {
			for b := a; b <= n; b++ {
				for _, older := range []bool{false, true} {
					inFlightCase(t, tc.name, tc.kind, tc.slow, tc.d, a, b, older)
				}
			}
		}
	}
}

// inFlightCase runs one case of TestInFlightRecordAtEachStore: stops after
// a stores and after b, older saying whether the second Interval's scan
// finds the writer as it was before the record.
func inFlightCase(t *testing.T, name string, kind uint64, slow bool, d Tickdelta, a, b int, older bool) {
	t.Helper()
	h := newHistogram(noBarrier)
	r := h.Recorder()
	var before Snapshot
	first := []Tickdelta{500, 2000, 1 << 35}
	if d == 1<<40 {
		// The sum comes to 2⁶⁴−1, so that the span carries.
		first = []Tickdelta{maxTickdelta, maxTickdelta, 1}
	}
	for _, d := range first {
		r.Record(d)
		before.record(d)
	}
	all := steps(r.w, kind, slow, d)
	var s [4]Snapshot
	for _, st := range all[:a] {
		st()
	}
	h.Interval(&s[0])
	if older {
		r.w.seen = unseen
	}
	for _, st := range all[a:b] {
		st()
	}
	h.Interval(&s[1])
	for _, st := range all[b:] {
		st()
	}
	h.Interval(&s[2])
	h.Interval(&s[3])

	var with, one Snapshot
	with.Merge(&before)
	with.add(kind, d)
	one.add(kind, d)
	in := -1
	for k := range s {
		switch {
		case k == 0 && s[0] == before, k > 0 && s[k].empty():
			continue
		case in < 0 && (k == 0 && s[0] == with || k > 0 && s[k] == one):
			in = k
			continue
		}
		t.Fatalf("%s, stopped after %d and %d of %d stores (older %v): snapshot %d holds count %d, sum %d:%d, max %d, negative %d, migrated %d, unknown %d; want the record whole in one",
			name, a, b, len(all), older, k, s[k].count, s[k].hi, s[k].lo, s[k].max, s[k].negative, s[k].migrated, s[k].unknownCPU)
	}
	if in < 0 {
		t.Fatalf("%s, stopped after %d and %d of %d stores (older %v): the record is in no snapshot", name, a, b, len(all), older)
	}
	if a == len(all) && in != 0 {
		t.Fatalf("%s: a finished record is in snapshot %d; want the first", name, in)
	}
}

// TestDroppedRecordersAreFreed creates and drops Recorders that each record
// a few spans, never closed, and takes Intervals meanwhile, as a service
// that takes a Recorder per request would: every span arrives, and once the
// garbage collector has run, the heap is back within 1 MB of where it
// started. COUNTER_DROPPED sets how many (10,000; CI drops 100,000).
func TestDroppedRecordersAreFreed(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 100,000 Recorders")
	}
	h := NewHistogram()
	var s, total Snapshot
	h.Interval(&s) // the Histogram's own memory, before the baseline
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := heap()
	n := envCount(t, "COUNTER_DROPPED", 10_000)
	for i := range n {
		r := h.Recorder()
		r.Record(Tickdelta(i))
		r.Record(Tickdelta(i) + 1)
		r.Record(-1)
		if i%1000 == 999 {
			h.Interval(&s)
			total.Merge(&s)
			runtime.GC() // as a service's heap grows, the collector runs
		}
	}
	listed := func() int {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.recs) - len(h.shards)
	}
	deadline := time.Now().Add(30 * time.Second)
	for listed() > 0 && time.Now().Before(deadline) {
		runtime.GC() // finds the Recorders unreachable; their cleanups run after
		time.Sleep(time.Millisecond)
	}
	h.Interval(&s)
	total.Merge(&s)
	if left := listed(); left != 0 {
		t.Fatalf("%d dropped Recorders still listed after 30 s of collections", left)
	}
	if total.Count() != 2*uint64(n) || total.Negative() != uint64(n) {
		t.Fatalf("the snapshots hold %d spans and %d negative; want %d and %d", total.Count(), total.Negative(), 2*n, n)
	}
	grown := int64(heap()) - int64(base)
	t.Logf("heap %+d bytes after %d dropped Recorders", grown, n)
	if grown > 1<<20 {
		t.Fatalf("the heap grew by %d bytes; want at most 1 MB", grown)
	}
}
