package counter

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/tickstamp/counter/internal/race"
)

// Tests of Family: its refusals, one series per set of values from any
// goroutine, the limit and its overflow series as the OpenTelemetry SDK
// counts them, Interval's order and exact counts, and the promises of its
// docs (no allocation, turns, the locks of a series, the memory figure).

// seen is what a Family's Interval visited: each series' values (nil for
// the overflow series) and count, in the order visited.
type seen struct {
	values [][]string
	counts []uint64
}

// visitAll runs f.Interval and returns what it visited.
func visitAll(f *Family) seen {
	var v seen
	f.Interval(func(values []string, s *Snapshot) {
		v.values = append(v.values, slices.Clone(values))
		v.counts = append(v.counts, s.Count())
	})
	return v
}

func mustFamily(t testing.TB, labels []string, limit int) *Family {
	t.Helper()
	f, err := NewFamily(labels, limit)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestNewFamilyRefusals(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels []string
		limit  int
		want   error
		says   string // a part of the message
	}{
		{"nil labels", nil, 0, ErrLabels, "at least one label name"},
		{"no labels", []string{}, 0, ErrLabels, "at least one label name"},
		{"empty name", []string{"method", "", "status"}, 0, ErrLabels, `label name 2 of ["method", "", "status"] is empty`},
		{"name twice", []string{"method", "route", "method"}, 0, ErrLabels, `"method" is given twice`},
		{"negative limit", []string{"method"}, -1, ErrLimit, "limit of -1 series is negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := NewFamily(tc.labels, tc.limit)
			if f != nil || !errors.Is(err, tc.want) {
				t.Fatalf("NewFamily = %v, %v; want nil, an error wrapping %v", f, err, tc.want)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "counter: ") || !strings.Contains(msg, tc.says) {
				t.Errorf("error %q; want it to say %q", msg, tc.says)
			}
		})
	}
}

// TestNewFamilyLimit: limit 0 is the OpenTelemetry SDK's default of 2000;
// any other is kept.
func TestNewFamilyLimit(t *testing.T) {
	for _, tc := range []struct{ limit, want int }{{0, 2000}, {1, 1}, {7, 7}} {
		if f := mustFamily(t, []string{"a"}, tc.limit); f.limit != tc.want {
			t.Errorf("NewFamily limit %d: got %d; want %d", tc.limit, f.limit, tc.want)
		}
	}
}

// TestFamilyLabels: Labels is a copy, of a copy NewFamily took.
func TestFamilyLabels(t *testing.T) {
	in := []string{"method", "route"}
	f := mustFamily(t, in, 0)
	in[0] = "changed"
	got := f.Labels()
	if want := []string{"method", "route"}; !slices.Equal(got, want) {
		t.Fatalf("Labels = %q; want %q", got, want)
	}
	got[1] = "changed"
	if got := f.Labels(); got[1] != "route" {
		t.Errorf("Labels = %q after its result was changed; want it unchanged", got)
	}
}

// TestFamilyWith: the same values get the same series, other values (also
// ones that join into the same string) another, and the Family keeps a
// copy of the values.
func TestFamilyWith(t *testing.T) {
	f := mustFamily(t, []string{"a", "b"}, 0)
	buf := []byte("ab")
	v := string(buf[:1])
	h := f.With(v, "bc")
	if f.With("a", "bc") != h {
		t.Error("With the same values gave another series")
	}
	for _, other := range [][]string{{"ab", "c"}, {"a", "b"}, {"bc", "a"}, {"", "abc"}} {
		if f.With(other...) == h {
			t.Errorf("With%q gave the series of [a bc]", other)
		}
	}
	if f.Len() != 5 {
		t.Errorf("Len = %d; want 5", f.Len())
	}
	m := f.members[0]
	if unsafe.StringData(m.values[0]) == unsafe.StringData(v) {
		t.Error("the Family keeps the caller's string, not a copy")
	}
}

// TestFamilyWithConcurrent: goroutines that make the same sets at once, in
// different orders, get the same series for each, and every span is in
// its set's series.
func TestFamilyWithConcurrent(t *testing.T) {
	const goroutines, sets = 16, 100
	f := mustFamily(t, []string{"method", "route", "status"}, 0)
	got := make([][]*Histogram, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			got[g] = make([]*Histogram, sets)
			for _, i := range rand.Perm(sets) {
				h := f.With("GET", "/r"+strconv.Itoa(i), "200")
				h.Record(Tickdelta(i))
				got[g][i] = h
			}
		})
	}
	wg.Wait()
	for g := range goroutines {
		for i := range sets {
			if got[g][i] != got[0][i] {
				t.Fatalf("goroutine %d got another series for set %d than goroutine 0", g, i)
			}
		}
	}
	if f.Len() != sets {
		t.Errorf("Len = %d; want %d", f.Len(), sets)
	}
	v := visitAll(f)
	if len(v.values) != sets {
		t.Fatalf("Interval visited %d series; want %d", len(v.values), sets)
	}
	for k, values := range v.values {
		if v.counts[k] != goroutines || len(values) != 3 {
			t.Errorf("series %q holds %d spans; want %d", values, v.counts[k], goroutines)
		}
	}
}

// TestFamilyLimit: as the OpenTelemetry SDK counts, the first limit−1 sets
// get series of their own and every later set the one overflow series,
// made at its first use, so that the Family holds limit series at most,
// found in a table of at most max(8, 4·limit) slots;
// Interval visits the series in the order made, the overflow last with nil
// values, each with exactly its spans, and visits empty ones too.
func TestFamilyLimit(t *testing.T) {
	for _, limit := range []int{1, 2, 5, 100} {
		t.Run(strconv.Itoa(limit), func(t *testing.T) {
			f := mustFamily(t, []string{"n"}, limit)
			sets := limit + 3
			hs := make([]*Histogram, sets)
			for i := range sets {
				if f.Len() > limit {
					t.Fatalf("Len = %d after %d sets; want at most %d", f.Len(), i, limit)
				}
				hs[i] = f.With(strconv.Itoa(i))
				for range i {
					hs[i].Record(Tickdelta(i))
				}
			}
			if f.Len() != limit {
				t.Errorf("Len = %d; want %d", f.Len(), limit)
			}
			if n := len(f.table.Load().slots); n > max(8, 4*limit) {
				t.Errorf("the table has %d slots; the doc says at most %d", n, max(8, 4*limit))
			}
			own := limit - 1
			for i := range sets {
				if i < own && slices.Contains(hs[:i], hs[i]) {
					t.Errorf("set %d shares a series; want its own", i)
				}
				if i >= own && hs[i] != hs[own] {
					t.Errorf("set %d is not in the overflow series", i)
				}
				if again := f.With(strconv.Itoa(i)); again != hs[i] {
					t.Errorf("set %d: With again gave another series", i)
				}
			}
			var want seen
			var overflow uint64
			for i := range sets {
				if i < own {
					want.values = append(want.values, []string{strconv.Itoa(i)})
					want.counts = append(want.counts, uint64(i))
				} else {
					overflow += uint64(i)
				}
			}
			want.values = append(want.values, nil)
			want.counts = append(want.counts, overflow)
			got := visitAll(f)
			if !slices.EqualFunc(got.values, want.values, slices.Equal) || !slices.Equal(got.counts, want.counts) {
				t.Errorf("Interval visited %q with %d spans; want %q with %d", got.values, got.counts, want.values, want.counts)
			}
			got = visitAll(f)
			if len(got.values) != limit || slices.ContainsFunc(got.counts, func(n uint64) bool { return n != 0 }) {
				t.Errorf("second Interval visited %q with %d spans; want %d empty series", got.values, got.counts, limit)
			}
		})
	}
}

// TestFamilyLimitConcurrent: goroutines making distinct sets at once past
// the limit leave exactly limit series, and no span is lost.
func TestFamilyLimitConcurrent(t *testing.T) {
	const goroutines, each, limit = 8, 20, 10
	f := mustFamily(t, []string{"g", "i"}, limit)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				f.With(strconv.Itoa(g), strconv.Itoa(i)).Record(1)
			}
		})
	}
	wg.Wait()
	if f.Len() != limit {
		t.Errorf("Len = %d; want %d", f.Len(), limit)
	}
	v := visitAll(f)
	var total uint64
	for k, n := range v.counts {
		total += n
		if v.values[k] != nil && n != 1 {
			t.Errorf("series %q holds %d spans; want 1", v.values[k], n)
		}
	}
	if len(v.values) != limit || v.values[limit-1] != nil || total != goroutines*each {
		t.Errorf("Interval visited %d series, the last %q, with %d spans; want %d, the overflow, with %d", len(v.values), v.values[len(v.values)-1], total, limit, goroutines*each)
	}
}

// TestFamilyWrongCount: With given values not as many as the labels
// panics, and Get returns the same refusal, wrapping ErrLabels and naming
// the call, the values and the labels; neither makes a series. Past the
// limit Get gives the overflow series and no error.
func TestFamilyWrongCount(t *testing.T) {
	f := mustFamily(t, []string{"method", "route", "status"}, 3)
	for _, tc := range []struct {
		values []string
		want   string // the message of With's panic; Get's says Get
	}{
		{nil, `counter: Family.With(): 0 values for the 3 labels ["method", "route", "status"]: give one value for each label, in that order`},
		{[]string{"GET"}, `counter: Family.With("GET"): 1 value for the 3 labels ["method", "route", "status"]: give one value for each label, in that order`},
		{[]string{"GET", "/"}, `counter: Family.With("GET", "/"): 2 values for the 3 labels ["method", "route", "status"]: give one value for each label, in that order`},
		{[]string{"GET", "/", "200", "x"}, `counter: Family.With("GET", "/", "200", "x"): 4 values for the 3 labels ["method", "route", "status"]: give one value for each label, in that order`},
	} {
		t.Run(strconv.Itoa(len(tc.values)), func(t *testing.T) {
			h, err := f.Get(tc.values...)
			if h != nil || !errors.Is(err, ErrLabels) {
				t.Fatalf("Get%q = %v, %v; want nil, an error wrapping ErrLabels", tc.values, h, err)
			}
			if got, want := err.Error(), strings.Replace(tc.want, "Family.With(", "Family.Get(", 1); got != want {
				t.Errorf("Get%q: error\n%s\nwant\n%s", tc.values, got, want)
			}
			err = panicOf(func() { f.With(tc.values...) })
			if !errors.Is(err, ErrLabels) {
				t.Fatalf("With%q: panic %v; want an error wrapping ErrLabels", tc.values, err)
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("With%q: panic\n%s\nwant\n%s", tc.values, got, tc.want)
			}
		})
	}
	if f.Len() != 0 {
		t.Errorf("Len = %d after refused Gets and Withs; want 0", f.Len())
	}
	a := f.With("GET", "/", "200")
	b := f.With("GET", "/", "404")
	o := f.With("GET", "/", "500")
	if a == o || b == o || a == b || f.Len() != 3 {
		t.Errorf("sets 200, 404 and 500 in the overflow: %v, %v, %v, Len %d; want false, false, true, Len 3", a == o, b == o, true, f.Len())
	}
	if h, err := f.Get("PUT", "/", "200"); h != o || err != nil {
		t.Errorf("Get past the limit = %p, %v; want the overflow series %p, nil", h, err, o)
	}
	if err := panicOf(func() { f.With("PUT", "/") }); !errors.Is(err, ErrLabels) {
		t.Errorf("With of 2 values past the limit: panic %v; want an error wrapping ErrLabels", err)
	}
}

// panicOf returns the error that call panics with; nil where it returns,
// and an error that says so where it panics with something else.
func panicOf(call func()) (err error) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case error:
			err = r
		default:
			err = fmt.Errorf("a panic with %T %v, not an error", r, r)
		}
	}()
	call()
	return nil
}

// TestFamilyNoAllocation: With and Get allocate nothing for a set that has
// a series, variadic call included, nor for the overflow series once made;
// Interval nothing after its first calls, with ForgetIdle too where it
// forgets nothing.
func TestFamilyNoAllocation(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector makes calls allocate")
	}
	f := mustFamily(t, []string{"method", "route", "status"}, 3)
	method, route := "GET", "/users"
	f.With(method, route, "200")
	f.With(method, route, "404")
	f.With(method, route, "500") // the overflow series
	var sink *Histogram
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"With", func() { sink = f.With(method, route, "200") }},
		{"Get", func() { sink, _ = f.Get(method, route, "200") }},
		{"With past the limit", func() { sink = f.With(method, route, "503") }},
	} {
		if n := testing.AllocsPerRun(1000, tc.f); n != 0 {
			t.Errorf("%s allocates %v times; want 0", tc.name, n)
		}
	}
	_ = sink
	visit := func([]string, *Snapshot) {}
	round := func() {
		for _, status := range []string{"200", "404", "500"} {
			f.With(method, route, status).Record(3)
		}
		f.Interval(visit)
	}
	for range 3 {
		round()
	}
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Errorf("Record and Interval allocate %v times a round; want 0", n)
	}
	if err := f.ForgetIdle(1); err != nil { // each series holds a span in each round
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Errorf("with ForgetIdle, Record and Interval allocate %v times a round that forgets nothing; want 0", n)
	}
}

// TestFamilyWithTakesNoLock: With finds a series that exists, the
// overflow series too, while another goroutine holds the Family's lock.
func TestFamilyWithTakesNoLock(t *testing.T) {
	for _, limit := range []int{1, 3} {
		f := mustFamily(t, []string{"a", "b"}, limit)
		want := []*Histogram{f.With("x", "y"), f.With("x", "z"), f.With("x", "w"), f.With("x", "u")}
		f.mu.Lock()
		got := make(chan []*Histogram)
		go func() { got <- []*Histogram{f.With("x", "y"), f.With("x", "z"), f.With("x", "v"), f.With("x", "u")} }()
		select {
		case g := <-got:
			if !slices.Equal(g, want) {
				t.Errorf("limit %d: With under the lock gave other series", limit)
			}
		case <-time.After(10 * time.Second):
			f.mu.Unlock()
			t.Fatalf("limit %d: With waits for the Family's lock", limit)
		}
		f.mu.Unlock()
	}
}

// TestFamilyIntervalTurns: Intervals called at once take turns, sharing
// the one scratch Snapshot (the race detector checks they do), and each
// span recorded is in exactly one of them.
func TestFamilyIntervalTurns(t *testing.T) {
	const writers, each, sets = 4, 2000, 5
	f := mustFamily(t, []string{"set"}, 0)
	var total [2]uint64
	var wg, readers sync.WaitGroup
	done := make(chan struct{})
	for r := range 2 {
		readers.Go(func() {
			for {
				select {
				case <-done:
					total[r] += sum(visitAll(f).counts)
					return
				default:
					total[r] += sum(visitAll(f).counts)
				}
			}
		})
	}
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				f.With(strconv.Itoa((w + i) % sets)).Record(Tickdelta(i))
			}
		})
	}
	wg.Wait()
	close(done)
	readers.Wait()
	if got := total[0] + total[1] + sum(visitAll(f).counts); got != writers*each {
		t.Errorf("the Intervals held %d spans in all; want %d", got, writers*each)
	}
}

func sum(counts []uint64) uint64 {
	var n uint64
	for _, c := range counts {
		n += c
	}
	return n
}

// TestFamilySeriesMadeDuringInterval: a series made by visit itself is
// visited from the next call on.
func TestFamilySeriesMadeDuringInterval(t *testing.T) {
	f := mustFamily(t, []string{"set"}, 0)
	f.With("a").Record(1)
	var first [][]string
	f.Interval(func(values []string, s *Snapshot) {
		first = append(first, slices.Clone(values))
		f.With("b").Record(2)
	})
	if !slices.EqualFunc(first, [][]string{{"a"}}, slices.Equal) {
		t.Errorf("first Interval visited %q; want [[a]]", first)
	}
	if v := visitAll(f); !slices.EqualFunc(v.values, [][]string{{"a"}, {"b"}}, slices.Equal) || !slices.Equal(v.counts, []uint64{0, 1}) {
		t.Errorf("second Interval visited %q with %d spans; want [[a] [b]] with [0 1]", v.values, v.counts)
	}
}

// TestFamilySeriesReadDirectly: a series' own Interval takes its spans,
// which the Family's Interval then does not have: each span goes to one.
func TestFamilySeriesReadDirectly(t *testing.T) {
	f := mustFamily(t, []string{"set"}, 0)
	h := f.With("a")
	for range 3 {
		h.Record(7)
	}
	s := new(Snapshot)
	h.Interval(s)
	if s.Count() != 3 {
		t.Fatalf("the series' own Interval holds %d spans; want 3", s.Count())
	}
	if v := visitAll(f); v.counts[0] != 0 {
		t.Errorf("the Family's Interval holds %d spans the series' own took; want 0", v.counts[0])
	}
	h.Record(7)
	if v := visitAll(f); v.counts[0] != 1 {
		t.Errorf("the Family's Interval holds %d spans; want 1", v.counts[0])
	}
}

// TestFamilyLocks: a series adds locks as NewHistogram's do, at most
// 4·GOMAXPROCS as the series was made, rounded up to a power of two, at
// least 8 and at most 1024, and has none before its first record.
func TestFamilyLocks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range []struct{ procs, want int }{{1, 8}, {2, 8}, {3, 16}, {5, 32}, {64, 256}, {1500, 1024}} {
		runtime.GOMAXPROCS(tc.procs)
		f := mustFamily(t, []string{"set"}, 0)
		for _, h := range []*Histogram{f.With("a"), f.overflowSeries()} {
			if h.most != tc.want || h.shardCount() != 0 {
				t.Errorf("GOMAXPROCS %d: at most %d locks, %d before a record; want %d and 0", tc.procs, h.most, h.shardCount(), tc.want)
			}
			for _, key := range []uintptr{0, 1, 12345, ^uintptr(0)} {
				h.lockFor(key).mu.Unlock()
			}
		}
	}
}

// TestFamilyMemoryFigure holds the size of a lock that Family's doc
// states, rounded to ten bytes: its allocation, which Go rounds up to a
// size class, and its place among the Histogram's shards.
func TestFamilyMemoryFigure(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's allocations are not the program's")
	}
	want := "locks of about " + strconv.Itoa((lockBytes()+5)/10*10) + " bytes"
	src, err := os.ReadFile("histogram_family.go")
	if err != nil {
		t.Fatal(err)
	}
	if doc := strings.ReplaceAll(string(src), "\n// ", " "); !strings.Contains(doc, want) {
		t.Errorf("histogram_family.go does not say %q", want)
	}
}

// TestFamilyTable: find compares the values of members whose hashes are
// equal, and misses values no member has; the table it probes wraps round.
func TestFamilyTable(t *testing.T) {
	tab := &familyTable{slots: make([]atomic.Pointer[member], 8)}
	const hash = 7 // the last slot: probes wrap round to the first
	var ms []*member
	for i := range 4 {
		m := &member{hash: hash, values: []string{"v" + strconv.Itoa(i)}}
		tab.insert(m)
		ms = append(ms, m)
	}
	for _, m := range ms {
		if got := tab.find(hash, m.values); got != m {
			t.Errorf("find%q = %v; want its member", m.values, got)
		}
	}
	if got := tab.find(hash, []string{"v9"}); got != nil {
		t.Errorf("find of absent values = %v; want nil", got)
	}
	if got := tab.find(hash+1, []string{"v0"}); got != nil {
		t.Errorf("find with another hash = %v; want nil", got)
	}
}

// TestZeroFamily: With on a nil or zero Family panics, and Get returns an
// error wrapping ErrLabels, each with a message that says what to do.
func TestZeroFamily(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    *Family
	}{{"nil", nil}, {"zero", new(Family)}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, values := range [][]string{nil, {"a"}} {
				func() {
					defer func() {
						if r, _ := recover().(string); !strings.HasPrefix(r, "counter: ") || !strings.Contains(r, "NewFamily") {
							t.Errorf("With%q: panic %q; want one that names NewFamily", values, r)
						}
					}()
					tc.f.With(values...)
				}()
				h, err := tc.f.Get(values...)
				if h != nil || !errors.Is(err, ErrLabels) || !strings.Contains(err.Error(), "NewFamily") {
					t.Errorf("Get%q = %v, %v; want nil and an error wrapping ErrLabels that names NewFamily", values, h, err)
				}
			}
		})
	}
}

// BenchmarkFamilyWith looks up a set of three values that has a series.
func BenchmarkFamilyWith(b *testing.B) {
	f := mustFamily(b, []string{"method", "route", "status"}, 0)
	for i := range 100 {
		f.With("GET", "/r"+strconv.Itoa(i), "200")
	}
	method, route, status := "GET", "/r42", "200"
	b.ReportAllocs()
	var h *Histogram
	for b.Loop() {
		h = f.With(method, route, status)
	}
	_ = h
}

// BenchmarkFamilyWithParallel looks up sets of three values that have
// series from GOMAXPROCS goroutines at once.
func BenchmarkFamilyWithParallel(b *testing.B) {
	f := mustFamily(b, []string{"method", "route", "status"}, 0)
	for i := range 100 {
		f.With("GET", "/r"+strconv.Itoa(i), "200")
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		method, route, status := "GET", "/r42", "200"
		var h *Histogram
		for pb.Next() {
			h = f.With(method, route, status)
		}
		_ = h
	})
}

// TestFamilyIntervalSurvivesAPanickingVisit: a visit that panics (and a
// caller that recovers, as net/http does) leaves no series' Interval held,
// and the spans of the series it did not reach go to the next Interval.
func TestFamilyIntervalSurvivesAPanickingVisit(t *testing.T) {
	f, err := NewFamily([]string{"a"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.With("x").Record(1)
	f.With("y").Record(2)
	func() {
		defer func() { _ = recover() }()
		f.Interval(func([]string, *Snapshot) { panic("boom") })
	}()
	done := make(chan uint64)
	go func() {
		var n uint64
		f.Interval(func(_ []string, s *Snapshot) { n += s.Count() })
		done <- n
	}()
	select {
	case n := <-done:
		if n != 1 {
			t.Fatalf("the Interval after a panicking visit holds %d spans; want 1, the series it did not reach", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Family.Interval hangs after a visit panicked")
	}
}

// TestFamilyVisitMayRecord: a visit may record, into a Recorder of a series
// not yet visited that was closed meanwhile, and it neither waits for the
// Interval that calls it nor loses the span.
func TestFamilyVisitMayRecord(t *testing.T) {
	f, err := NewFamily([]string{"a"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.With("x").Record(1)
	r := f.With("y").Recorder()
	for range 100 { // past the spans a new Recorder spills
		r.Record(5)
	}
	done := make(chan uint64)
	go func() {
		var n uint64
		f.Interval(func(v []string, s *Snapshot) {
			n += s.Count()
			if v[0] == "x" {
				r.Close()
				r.Record(7)
			}
		})
		f.Interval(func(_ []string, s *Snapshot) { n += s.Count() })
		done <- n
	}()
	select {
	case n := <-done:
		if n != 102 {
			t.Fatalf("two Intervals hold %d spans; want 102", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a visit that records into a closed Recorder of a later series waits for the Interval that calls it")
	}
}
