package counter

import (
	"errors"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// Tests of Family.ForgetIdle: its refusal, which series it forgets and
// when, the limit it frees, the spans recorded into a forgotten series'
// Histogram (kept for as many Intervals again, then lost, as its doc says),
// and all of it under With, Record and Interval at once.

// TestForgetIdleRefusal: a negative count is refused with an error
// wrapping ErrLimit that names the call, and changes nothing; 0 is taken.
func TestForgetIdleRefusal(t *testing.T) {
	f := mustFamily(t, []string{"a"}, 0)
	if err := f.ForgetIdle(3); err != nil {
		t.Fatal(err)
	}
	err := f.ForgetIdle(-1)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("ForgetIdle(-1) = %v; want an error wrapping ErrLimit", err)
	}
	if want := "counter: Family.ForgetIdle(-1): a negative count of Intervals; give 0 to forget no series"; err.Error() != want {
		t.Errorf("ForgetIdle(-1):\n%s\nwant\n%s", err, want)
	}
	if n := f.forget.Load(); n != 3 {
		t.Errorf("after a refusal the count is %d; want 3, as before", n)
	}
	if err := f.ForgetIdle(0); err != nil || f.forget.Load() != 0 {
		t.Errorf("ForgetIdle(0) = %v, count %d; want nil, 0", err, f.forget.Load())
	}
}

// TestFamilyForgetsIdleSeries: with ForgetIdle(2), a series without a span
// in its last two Intervals, those before the call included, is forgotten
// at the end of the second: both visit it, empty, and none after; Len no
// longer counts it, and its place under the limit goes to a new set, which
// had gone to the overflow series before. A series that holds a span, or
// a span counted apart, in one of any two Intervals stays, and so does
// the overflow series, idle or not. Without ForgetIdle, nothing is
// forgotten.
func TestFamilyForgetsIdleSeries(t *testing.T) {
	f := mustFamily(t, []string{"k"}, 4) // three members and the overflow
	a, b, c := f.With("a"), f.With("b"), f.With("c")
	if o := f.With("d"); o != f.overflow.Load() {
		t.Fatal("the fourth set is not in the overflow series")
	}
	for range 5 {
		visitAll(f) // idle, but forgetting is off
	}
	if f.Len() != 4 {
		t.Fatalf("Len = %d with forgetting off; want 4", f.Len())
	}
	if err := f.ForgetIdle(2); err != nil {
		t.Fatal(err)
	}
	// a records a span, and b one counted apart, in alternate Intervals:
	// never two in a row without one. c has been idle for five.
	for i := range 6 {
		if i%2 == 0 {
			a.Record(1)
			r := b.Recorder()
			r.RecordCPU(5, 0, 1)
			r.Close()
		}
		v := visitAll(f)
		want := [][]string{{"a"}, {"b"}, nil}
		if i == 0 {
			want = [][]string{{"a"}, {"b"}, {"c"}, nil}
		}
		if !slices.EqualFunc(v.values, want, slices.Equal) {
			t.Fatalf("Interval %d visited %q; want %q", i, v.values, want)
		}
		if n := f.Len(); n != 3 {
			t.Errorf("after Interval %d Len = %d; want 3", i, n)
		}
	}
	// c's place is free: a new set gets a series of its own, visited by
	// the two Intervals after its last span, and by none after them.
	e := f.With("e")
	if e == f.overflow.Load() || e == c {
		t.Fatal("a new set after c was forgotten gets the overflow series, or c's")
	}
	e.Record(3)
	for i, want := range [][][]string{
		{{"a"}, {"b"}, {"e"}, nil}, // e's span
		{{"a"}, {"b"}, {"e"}, nil}, // e idle once
		{{"a"}, {"b"}, {"e"}, nil}, // e idle twice, then forgotten
		{{"a"}, {"b"}, nil},
	} {
		a.Record(1)
		b.Record(1)
		if v := visitAll(f); !slices.EqualFunc(v.values, want, slices.Equal) {
			t.Errorf("Interval %d after e's span visited %q; want %q", i, v.values, want)
		}
	}
	if n := len(f.table.Load().slots); n > max(8, 4*f.limit) {
		t.Errorf("the table has %d slots; the doc says at most %d", n, max(8, 4*f.limit))
	}
}

// TestFamilyForgottenSpans: spans recorded into a forgotten series'
// Histogram, through Record or a Recorder kept from before, are visited
// under its values, after the members and before the overflow series, up
// to the n-th Interval after it was forgotten, ForgetIdle's n; an
// Interval that finds it empty does not visit it. With of its values in
// that time takes it back: the same Histogram, a member again, counted by
// Len. Once it has been idle for n Intervals again it is dropped, and a
// span recorded into it is lost, as the doc warns; With of its values then
// makes a new series.
func TestFamilyForgottenSpans(t *testing.T) {
	const n = 2
	f := mustFamily(t, []string{"k"}, 0)
	if err := f.ForgetIdle(n); err != nil {
		t.Fatal(err)
	}
	f.overflowSeries()
	// tick takes an Interval, a series "other" holding a span in each.
	tick := func() seen {
		f.With("other").Record(1)
		return visitAll(f)
	}
	a := f.With("a")
	r := a.Recorder()
	for range n {
		tick()
	}
	if f.Len() != 2 {
		t.Fatalf("Len = %d after a was idle for %d Intervals; want 2, other and the overflow series", f.Len(), n)
	}

	// Empty Intervals of it do not visit it; late spans, through the
	// Histogram and the Recorder, in the n-th Interval after it was
	// forgotten, are visited.
	for range n - 1 {
		if v := tick(); countOf(v.values, "a") != 0 {
			t.Fatalf("visited %q: a, empty and forgotten", v.values)
		}
	}
	a.Record(10)
	r.Record(20)
	v := tick()
	if want := [][]string{{"other"}, {"a"}, nil}; !slices.EqualFunc(v.values, want, slices.Equal) || v.counts[1] != 2 {
		t.Fatalf("visited %q with %d spans; want %q, a with its 2 late spans", v.values, v.counts, want)
	}
	if f.Len() != 2 {
		t.Errorf("Len = %d; want 2: a forgotten series is not counted", f.Len())
	}
	// After n Intervals without a span again, it is dropped, and its
	// spans are lost.
	for i := range n {
		if v := tick(); countOf(v.values, "a") != 0 {
			t.Fatalf("Interval %d after the late spans visited a, empty", i)
		}
	}
	a.Record(30)
	r.Record(40)
	r.Close()
	for range 2 {
		if v := tick(); !slices.Equal(v.counts, []uint64{1, 0}) {
			t.Fatalf("visited %q with %d spans; want other's alone: a's last spans are lost, as the doc says", v.values, v.counts)
		}
	}
	if again := f.With("a"); again == a {
		t.Error("With after a was dropped took its Histogram back; want a new series")
	}
	// (The new a, idle, is forgotten in the Intervals below.)

	// Taken back within the window: the same Histogram, a member again,
	// last in the order, whose count of idle Intervals starts afresh.
	b := f.With("b")
	for range n + 1 { // forgotten at the end of the n-th, then idle once more
		tick()
	}
	if got := f.With("b"); got != b {
		t.Fatal("With of a series forgotten lately made a new one; want it taken back")
	}
	v = tick()
	if want := [][]string{{"other"}, {"b"}, nil}; !slices.EqualFunc(v.values, want, slices.Equal) {
		t.Errorf("visited %q; want %q", v.values, want)
	}
	if f.Len() != 3 {
		t.Errorf("Len = %d after b was taken back and idle once; want 3, b a member still", f.Len())
	}
	b.Record(60)
	if v := tick(); !slices.EqualFunc(v.values, [][]string{{"other"}, {"b"}, nil}, slices.Equal) || v.counts[1] != 1 {
		t.Errorf("visited %q with %d spans; want b with 1", v.values, v.counts)
	}
}

// TestFamilyForgetsWhileIntervalRuns: with ForgetIdle(2), a series taken
// back, or made, while an Interval runs is not forgotten at its end,
// however long it was idle, and counts its idle Intervals from then: the
// next two Intervals visit it, once each, and forget it. One forgotten and
// not taken back is dropped after two Intervals more.
func TestFamilyForgetsWhileIntervalRuns(t *testing.T) {
	f := mustFamily(t, []string{"k"}, 0)
	if err := f.ForgetIdle(2); err != nil {
		t.Fatal(err)
	}
	f.With("c")
	a := f.With("a")
	f.overflowSeries() // so that each Interval has a series to visit
	visitAll(f)
	visitAll(f) // a and c forgotten
	f.Interval(func(values []string, _ *Snapshot) {
		if values != nil {
			t.Errorf("visited %q, empty and forgotten", values)
			return
		}
		if got := f.With("a"); got != a {
			t.Error("With during the Interval did not take a back")
		}
		f.With("b")
	})
	f.mu.Lock()
	members, forgotten := len(f.members), len(f.forgotten)
	f.mu.Unlock()
	if members != 2 || forgotten != 1 {
		t.Errorf("%d members and %d series read as forgotten; want a and b, and c", members, forgotten)
	}
	for i := range 2 {
		v := visitAll(f)
		if want := [][]string{{"a"}, {"b"}, nil}; !slices.EqualFunc(v.values, want, slices.Equal) {
			t.Errorf("Interval %d after a was taken back visited %q; want %q", i, v.values, want)
		}
	}
	// a and b, idle twice, are forgotten now; c is dropped.
	f.mu.Lock()
	defer f.mu.Unlock()
	var got [][]string
	for _, m := range f.forgotten {
		got = append(got, m.values)
	}
	if want := [][]string{{"a"}, {"b"}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("read as forgotten: %q; want %q, c dropped", got, want)
	}
}

// countOf returns how many of visited are [value].
func countOf(visited [][]string, value string) int {
	n := 0
	for _, v := range visited {
		if slices.Equal(v, []string{value}) {
			n++
		}
	}
	return n
}

// TestFamilyForgetConcurrent has writers record through With and Get
// into sets that come and go, more than the limit holds at once, while a
// reader takes Intervals with ForgetIdle(1): the Family forgets series,
// takes some back and makes new ones in their place, and Len stays within
// the limit. The writers record a batch of spans for each Interval, and
// may be one batch ahead, so that they record while Intervals run; after
// each Interval the reader waits for each writer to finish the With and
// Record it had begun, as a service's handler does long before a series
// is forgotten twice over. So no span is lost, and the Intervals hold
// every span recorded, exactly. The race detector checks the table, the
// members and their counts.
func TestFamilyForgetConcurrent(t *testing.T) {
	const writers, each, limit = 4, 8_000, 8
	const batch = 20 // the spans a writer records for each Interval
	f := mustFamily(t, []string{"w", "set"}, limit)
	if err := f.ForgetIdle(1); err != nil {
		t.Fatal(err)
	}
	var (
		busy      [writers]atomic.Bool  // between a With and its Record
		recorded  [writers]atomic.Int64 // the spans each writer recorded
		intervals atomic.Int64
	)
	made := make([]map[*Histogram]bool, writers) // the series each writer got
	var wg sync.WaitGroup
	for w := range writers {
		made[w] = map[*Histogram]bool{}
		wg.Go(func() {
			for i := range each {
				for intervals.Load()+1 < int64(i/batch) {
					runtime.Gosched()
				}
				// A window of four sets that moves on every 100 spans.
				set := strconv.Itoa(i/100 + i%4)
				busy[w].Store(true)
				var h *Histogram
				if i%3 == 0 {
					h, _ = f.Get(strconv.Itoa(w), set)
				} else {
					h = f.With(strconv.Itoa(w), set)
				}
				h.Record(Tickdelta(1 + i%1000))
				busy[w].Store(false)
				recorded[w].Add(1)
				made[w][h] = true
			}
		})
	}
	var total uint64
	for k := int64(1); ; k++ {
		v := visitAll(f)
		total += sum(v.counts)
		intervals.Store(k)
		if n := f.Len(); n > limit {
			t.Errorf("Len = %d; past the limit of %d", n, limit)
		}
		// Wait for each writer to finish the With and Record under way,
		// so that its next With finds the table this Interval left, and
		// to record this Interval's batch.
		over := true
		for w := range busy {
			for busy[w].Load() || recorded[w].Load() < min(k*batch, each) {
				runtime.Gosched()
			}
			over = over && recorded[w].Load() == each
		}
		if over {
			break
		}
	}
	wg.Wait()
	total += sum(visitAll(f).counts)
	series := 0
	for w := range writers {
		series += len(made[w])
	}
	if want := uint64(writers * each); total != want {
		t.Errorf("the Intervals held %d spans; want the %d recorded", total, want)
	}
	// Each writer's sets had series of their own in turn, as others were
	// forgotten: far more than the limit at once.
	t.Logf("%d Intervals; %d Histograms handed out for %d sets", intervals.Load(), series, writers*(each/100+3))
	if series <= 4*limit {
		t.Errorf("%d Histograms handed out; want many more than the limit, %d, as series are forgotten and made", series, limit)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range f.forgotten {
		if !m.gone || slices.Contains(f.members, m) {
			t.Errorf("series %q is both forgotten and a member", m.values)
		}
	}
}
