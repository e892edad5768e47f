//go:build handoverstep

package handover

import (
	"math"
	"strings"
	"testing"
)

// A stepCase is one record, made through the writer's real code: Record,
// or RecordKind for the kinds Record does not take.
type stepCase struct {
	name string
	k    Kind  // what the record counts
	d    int64 // its span
	// before are the records made first, through both paths; no Interval
	// was taken before them.
	before []rec
	// prepare readies the writer after before: fills a bucket, or closes
	// the writer. full is the bucket it filled, -1 for none.
	prepare func(w *Writer) (full int)
	// record makes the record.
	record func(w *Writer)
}

// A rec is a record made before or after the one a case stops; ex says it
// carries an exemplar (exOf(d)), through RecordExemplar.
type rec struct {
	k  Kind
	d  int64
	ex bool
}

// exOf is the exemplar of a record of span d in these tests: its words
// all differ with d, so that a slot torn between two records shows.
func exOf(d int64) *Exemplar {
	u := uint64(d)
	return &Exemplar{u, ^u, u*3 + 1, u ^ 0x5555}
}

// addTo adds r to dst, as the reader should: its exemplar too.
func (r rec) addTo(dst *Dist) {
	dst.Add(r.k, r.d)
	if r.ex {
		dst.AddExemplar(r.d, exOf(r.d))
	}
}

// kindWide is no record: a rec of it, first in a list, gives the writer a
// tally whose window is the whole range, as a writer whose spans had spread
// over it would have, so that a record of any span takes Record's path
// where it would with no window.
const kindWide Kind = 1 << 10

// kindWideEx is kindWide with a tally that keeps exemplars, as a writer
// that has recorded one holds.
const kindWideEx Kind = 1<<10 + 1

// on makes r into w, through Record for a span and RecordKind otherwise.
func (r rec) on(w *Writer) {
	switch {
	case r.k == kindWide || r.k == kindWideEx:
		w.c.attach(w, KindSpan, 0, false)
		t := &Tally{min: math.MaxInt64, max: -1}
		t.fit(0, NumBuckets, false)
		if r.k == kindWideEx {
			t.keepExemplars()
		}
		w.cur.Store(t)
	case r.ex:
		w.RecordExemplar(r.d, exOf(r.d))
	case r.k == KindSpan:
		w.Record(r.d)
	default:
		w.RecordKind(r.d, r.k)
	}
}

// usual are the records before most cases: spans of 500 to 2,000 ticks
// through both paths, and a negative and a migrated span.
var usual = []rec{{KindSpan, 500, false}, {KindUnknown, 600, false}, {KindNegative, -1, false}, {KindMigrated, 9, false}, {KindSpan, 2000, false}}

// wideUsual and wideCarrying are usual and carrying into a tally of the
// whole range.
var (
	wideUsual    = append([]rec{{kindWide, 0, false}}, usual...)
	wideCarrying = append([]rec{{kindWideEx, 0, false}}, carrying...)
)

// usualEx are usual with exemplars: spans of 500 to 2,000 ticks, of which
// 500 and 2,000 are the slowest of their groups ([256, 512) and
// [1024, 2048)) and 1,200 is not, 600 and 700 without one in [512, 1024),
// and one of 2⁴⁰ + 7.
var usualEx = []rec{{KindSpan, 500, true}, {KindSpan, 1200, true}, {KindUnknown, 600, false}, {KindNegative, -1, false},
	{KindSpan, 2000, true}, {KindSpan, 700, false}, {KindSpan, 1<<40 + 7, true}}

// wideUsualEx is usualEx into a tally of the whole range that keeps
// exemplars.
var wideUsualEx = append([]rec{{kindWideEx, 0, false}}, usualEx...)

// carrying are records whose sum is 2⁶⁴−1, so that a span carries into hi.
var carrying = []rec{{KindSpan, math.MaxInt64, false}, {KindUnknown, math.MaxInt64 - 1, false}, {KindMigrated, 9, false}, {KindSpan, 2, true}}

// after is the record made after the one a case stops: it begins a later
// record, so that the reader must find the stopped record's stores in the
// tally, not in its journal. It is neither a new minimum nor a new maximum,
// so that it hides neither store of the record before it.
var after = rec{KindSpan, 1000, false}

func record(d int64) func(*Writer)             { return func(w *Writer) { w.Record(d) } }
func recordKind(d int64, k Kind) func(*Writer) { return func(w *Writer) { w.RecordKind(d, k) } }

// carries reports whether the case's record carries an exemplar: the
// cases named for one.
func (tc stepCase) carries() bool { return strings.HasPrefix(tc.name, "exemplar") }

// exemplarSpans returns the spans of the exemplars s keeps, for a message.
func exemplarSpans(s *Dist) []int64 {
	var ds []int64
	for d, e := range s.Exemplars() {
		if e != *exOf(d) {
			d = -d // torn: the words are not d's
		}
		ds = append(ds, d)
	}
	return ds
}

func recordEx(d int64) func(*Writer) { return func(w *Writer) { w.RecordExemplar(d, exOf(d)) } }
func none(*Writer) int               { return -1 }

// stepCases take every path of a record: Record where the span fits;
// Record then put, where the sum carries, the span is negative, the bucket
// is full (a fresh tally goes in front) or the writer is closed (it
// attaches a tally); put alone for the other kinds. Each is taken with a
// span that is a new maximum and one that is a new minimum, so that every
// store of the table changes what the reader must find.
var stepCases = []stepCase{
	{"span, a new max", KindSpan, 1 << 36, wideUsual, none, record(1 << 36)},
	{"span, a new min", KindSpan, 100, wideUsual, none, record(100)},
	{"span of 0", KindSpan, 0, wideUsual, none, record(0)},
	{"span above the window", KindSpan, 1 << 36, usual, none, record(1 << 36)},
	{"span below the window", KindSpan, 100, usual, none, record(100)},
	// The sum of before is 2⁶⁴−1, so that the span carries into hi.
	{"span whose sum carries, a new max", KindSpan, math.MaxInt64, wideCarrying, none, record(math.MaxInt64)},
	{"span whose sum carries, a new min", KindSpan, 1 << 40, wideCarrying, none, record(1 << 40)},
	{"negative through Record", KindNegative, -3, usual, none, record(-3)},
	{"span into a full bucket", KindSpan, 1000, usual, fillBucketOf(1000, false), record(1000)},
	{"span into a full wide bucket", KindSpan, 1000, usual, fillBucketOf(1000, true), record(1000)},
	{"span into a closed writer", KindSpan, 1000, usual, closeWriter, record(1000)},
	{"unknown CPU, a new max", KindUnknown, 1 << 36, wideUsual, none, recordKind(1<<36, KindUnknown)},
	{"unknown CPU, a new min", KindUnknown, 77, wideUsual, none, recordKind(77, KindUnknown)},
	{"unknown CPU, outside the window", KindUnknown, 77, usual, none, recordKind(77, KindUnknown)},
	{"negative", KindNegative, -3, usual, none, recordKind(-3, KindNegative)},
	{"migrated", KindMigrated, 5, usual, none, recordKind(5, KindMigrated)},
	{"migrated, negative", KindMigrated, -5, usual, none, recordKind(-5, KindMigrated)},

	// Spans with an exemplar (ex): the slowest of their group, which the
	// tally keeps, through both paths; one slower than none of its group,
	// whose exemplar is not kept; and the paths a tally that keeps none
	// yet, a closed writer, a full bucket and a carry take.
	{"exemplar, a new max", KindSpan, 1 << 36, wideUsualEx, none, recordEx(1 << 36)},
	{"exemplar, the slowest of its group", KindSpan, 900, wideUsualEx, none, recordEx(900)},
	{"exemplar, not kept", KindSpan, 1150, wideUsualEx, none, recordEx(1150)},
	{"exemplar, a new min", KindSpan, 100, wideUsualEx, none, recordEx(100)},
	{"exemplar, above the window", KindSpan, 1 << 36, usualEx, none, recordEx(1 << 36)},
	{"exemplar, into a tally that keeps none", KindSpan, 1 << 36, wideUsual, none, recordEx(1 << 36)},
	{"exemplar whose sum carries", KindSpan, math.MaxInt64, wideCarrying, none, recordEx(math.MaxInt64)},
	{"exemplar into a full bucket", KindSpan, 1000, usualEx, fillBucketOf(1000, false), recordEx(1000)},
	{"exemplar into a full wide bucket", KindSpan, 1000, usualEx, fillBucketOf(1000, true), recordEx(1000)},
	{"exemplar into a closed writer", KindSpan, 1000, usualEx, closeWriter, recordEx(1000)},
	{"exemplar of a negative span", KindNegative, -3, usualEx, none, recordEx(-3)},
}

// fillBucketOf returns a prepare that fills the bucket of span d in the
// writer's tally to the most its count holds, as that many spans would:
// 255 in a narrow tally, and 2³²−1 where wide says, after the tally is
// replaced with a wide copy, as a writer replaces it once a count passes
// 255.
func fillBucketOf(d int64, wide bool) func(*Writer) int {
	return func(w *Writer) int {
		t := w.cur.Load()
		if wide && !t.wide {
			from, to := t.window()
			cp := &Tally{min: math.MaxInt64, max: -1}
			cp.fit(from, to, true)
			cp.copyFrom(t)
			cp.setGen(t.gen())
			w.cur.Store(cp)
			t = cp
		}
		p := placeOf(KindSpan, d)
		_, most, _ := t.countOf(p)
		t.setCount(p, most)
		t.touched |= touchBit(uint64(p) - t.off)
		t.min, t.max = min(t.min, d), max(t.max, d) // as the spans would
		return p
	}
}

// closeWriter closes the writer and takes the Intervals that retire it,
// into retiredBefore, so that its record attaches a tally again; a writer
// listed for good (with a lock) stays.
func closeWriter(w *Writer) int {
	w.Close()
	var s Dist
	for range 2 {
		w.c.Interval(&s)
		retiredBefore.Merge(&s)
	}
	retired = true
	return -1
}

// retired says that the prepare of the case running took the Intervals
// that retired its writer, and retiredBefore holds what they took: the
// records before, which are then in none of the case's Intervals.
var (
	retired       bool
	retiredBefore Dist
)

// stepsOf returns how many steps the record of tc makes.
func stepsOf(tc stepCase) int {
	c := NewCollector(NoBarrier)
	w := c.NewWriter()
	for _, r := range tc.before {
		r.on(w)
	}
	tc.prepare(w)
	n := 0
	OnStep = func() { n++ }
	defer func() { OnStep = nil }()
	tc.record(w)
	return n
}

// keptAlone reports whether the record of tc keeps its exemplar where no
// Interval runs: every case with one but the span not kept and the
// negative one.
func keptAlone(tc stepCase) bool {
	c := NewCollector(NoBarrier)
	w := c.NewWriter()
	for _, r := range tc.before {
		r.on(w)
	}
	tc.prepare(w)
	tc.record(w)
	return w.jexTag == w.seq|exKept
}

// TestRecordAtEachStore stops a writer after each store of a record in
// turn (and after its load of the tally), as the operating system may, and
// takes an Interval there; then lets it run to each later store and takes
// another, with the reader's view of the writer as it found it or as an
// older one (a scan may load a seq from before the record began, and take
// the tally again); then finishes the record, takes a third, makes one more
// record and takes two more. The record after is also made before the
// third Interval, and the first two are also taken only after it, so that
// the reader finds the stopped record in its tally alone. The record is in exactly one of the
// Intervals, whole: its count, its sum, its bounds and its kind's count are
// all in that one or none is; the records before it are all in the first,
// the one after it in the fourth; and a record that had made every store
// before the first Interval is in it.
func TestRecordAtEachStore(t *testing.T) {
	for _, tc := range stepCases {
		want := tc.carries() && !strings.HasSuffix(tc.name, "not kept") && tc.d >= 0
		if got := keptAlone(tc); got != want {
			t.Fatalf("%s: the record keeps its exemplar: %v; want %v", tc.name, got, want)
		}
		n := stepsOf(tc)
		if n < 6 {
			t.Fatalf("%s: the record made %d steps; want a step after each store of the table", tc.name, n)
		}
		// A stop at n+1 is after the record, and after the record after
		// it where that is made early (late).
		for a := 0; a <= n+1; a++ {
			for b := a; b <= n+1; b++ {
				for _, older := range []bool{false, true} {
					for _, late := range []bool{false, true} {
						for _, locked := range []bool{false, true} {
							for _, distrust := range []bool{false, true} {
								distrustDone = distrust
								stopAt(t, tc, n, a, b, older, late, locked)
							}
							distrustDone = false
						}
					}
				}
			}
		}
	}
}

// stopAt runs one case of TestRecordAtEachStore: stops after a steps and
// after b, older saying whether the second Interval's scan finds the writer
// as it was before the record, and late whether the record after it is made
// before the third Interval (so that the reader finds the stopped record in
// its tally alone) or after. Where locked, the writer is listed with a lock
// (ListLocked), which it holds throughout each record, as a Histogram's
// shard does: the Intervals at the stops find it held and take the tally
// as any writer's, and the ones after the record take it holding the lock,
// whole.
func stopAt(t *testing.T, tc stepCase, n, a, b int, older, late, locked bool) {
	t.Helper()
	c := NewCollector(NoBarrier)
	w := c.NewWriter()
	var lock uint32
	writing := false // the writer holds the lock
	if locked {
		w = new(Writer)
		c.ListLocked(w, &lock)
	}
	// held makes a record with f, holding the lock where locked.
	held := func(f func()) {
		if !locked {
			f()
			return
		}
		lock, writing = 1, true
		f()
		lock, writing = 0, false
	}
	var before Dist
	for _, r := range tc.before {
		held(func() { r.on(w) })
		if r.k != kindWide && r.k != kindWideEx {
			r.addTo(&before)
		}
	}
	retired = false
	retiredBefore.Reset()
	full := tc.prepare(w)
	if retired {
		if !retiredBefore.Equal(&before) {
			t.Fatalf("%s: the Intervals that retired the writer hold count %d; want the %d records before", tc.name, retiredBefore.count, before.count)
		}
		if !locked && w.cur.Load() != closed {
			t.Fatalf("%s: the writer is not retired after Close and two Intervals", tc.name)
		}
		before.Reset()
	}
	if full >= 0 {
		_, most, _ := w.cur.Load().countOf(full)
		filled := uint64(most) - before.countOf(full)
		before.cover(uint64(full), uint64(full)+1)
		before.addAt(full-int(before.off), filled)
		before.count += filled
	}
	// wholes counts the tallies taken holding the lock: none while the
	// record holds it.
	wholes := 0
	OnTrace = func(e Event) {
		if e == EventSwapWhole {
			if writing {
				t.Fatalf("%s: a tally taken holding the lock while the writer held it", tc.name)
			}
			wholes++
		}
	}
	defer func() { OnTrace = nil }()
	var s [5]Dist
	took := [2]bool{}
	afterMade, afterIn := false, -1
	take := func(i int) {
		c.Interval(&s[i])
		if afterMade && afterIn < 0 {
			afterIn = i
		}
	}
	k := 0
	at := func() {
		if k == a && !took[0] {
			took[0] = true
			take(0)
			if older {
				w.flight.seen = unseen
			}
		}
		if k == b && !took[1] {
			took[1] = true
			take(1)
		}
	}
	at()
	OnStep = func() { k++; at() }
	held(func() { tc.record(w) })
	OnStep = nil
	// Whether the tally the record wrote kept its exemplar: the slowest of
	// its group there, which it is not where an earlier record of the
	// tally, taken by an earlier Interval, was slower (see Dist.Exemplars).
	kept := tc.carries() && w.jexTag == w.seq|exKept
	if late {
		held(func() { after.on(w) })
		afterMade = true
	}
	// The stops the record did not reach (n+1, or a path shorter than
	// stepsOf's where an Interval emptied the tally) come now.
	for i, done := range took {
		if !done {
			take(i)
		}
	}
	take(2)
	if !late {
		held(func() { after.on(w) })
		afterMade = true
	}
	take(3)
	take(4)

	in := -1
	for i := range s {
		var without Dist // what Interval i holds without the record
		if i == 0 {
			without.Merge(&before)
		}
		if i == afterIn {
			after.addTo(&without)
		}
		var within Dist
		within.Merge(&without)
		rec{tc.k, tc.d, kept}.addTo(&within)
		switch {
		case s[i].Equal(&without):
			continue
		case in < 0 && s[i].Equal(&within):
			in = i
			continue
		}
		t.Fatalf("%s, stopped after %d and %d of %d steps (older %v, late %v, locked %v, done distrusted %v): Interval %d holds count %d, sum %d:%d, min %d, max %d, negative %d, migrated %d, unknown %d, exemplars %v; want the record whole in one",
			tc.name, a, b, n, older, late, locked, distrustDone, i, s[i].count, s[i].hi, s[i].lo, s[i].min, s[i].max, s[i].negative, s[i].migrated, s[i].unknownCPU, exemplarSpans(&s[i]))
	}
	if in < 0 {
		t.Fatalf("%s, stopped after %d and %d of %d steps (older %v, late %v, locked %v, done distrusted %v): the record is in no Interval", tc.name, a, b, n, older, late, locked, distrustDone)
	}
	if locked != (wholes > 0) {
		t.Fatalf("%s, stopped after %d and %d of %d steps (older %v, late %v, locked %v, done distrusted %v): %d tallies taken holding the lock",
			tc.name, a, b, n, older, late, locked, distrustDone, wholes)
	}
	if a == n && in != 0 {
		t.Fatalf("%s: a record that had made every store is in Interval %d; want the first", tc.name, in)
	}
}

// TestBarrierBetweenSwapsAndJournals checks the reader's side of the
// protocol on the Collector that runs: in every Interval that takes a
// tally, one barrier passes, after the last swap and before the first read
// of a journal that follows a swap; an Interval that takes nothing passes
// none.
func TestBarrierBetweenSwapsAndJournals(t *testing.T) {
	c := NewCollector(NoBarrier)
	ws := []*Writer{c.NewWriter(), c.NewWriter(), c.NewWriter()}
	var events []Event
	OnTrace = func(e Event) { events = append(events, e) }
	defer func() { OnTrace = nil }()
	for round := range 6 {
		for i, w := range ws {
			if (round+i)%3 != 0 {
				w.Record(int64(round*10 + i))
			}
		}
		if round == 2 {
			// A record in flight at the Interval: stopped after its seq.
			OnStep = func() { OnStep = nil; checkInterval(t, c, &events, round) }
			ws[0].Record(7)
		}
		checkInterval(t, c, &events, round)
		checkInterval(t, c, &events, round) // nothing new: takes nothing
	}
}

// checkInterval takes an Interval of c and checks its events.
func checkInterval(t *testing.T, c *Collector, events *[]Event, round int) {
	t.Helper()
	*events = (*events)[:0]
	var s Dist
	c.Interval(&s)
	swaps, barriers := 0, 0
	unordered := false // a swap not yet followed by a barrier
	for _, e := range *events {
		switch e {
		case EventSwap:
			swaps++
			unordered = true
		case EventBarrier:
			barriers++
			unordered = false
		case EventJournal:
			if unordered {
				t.Fatalf("round %d: a journal read after a swap with no barrier between: %v", round, *events)
			}
		}
	}
	if want := min(swaps, 1); barriers != want {
		t.Fatalf("round %d: %d swaps and %d barriers: %v; want %d barriers", round, swaps, barriers, *events, want)
	}
}

// TestWidenedBetweenSwapAndJournal makes a writer put tallies in front of
// the one the reader installed, widening its window, four times between the
// reader's swap and its read of the writer's journal: the last record then
// writes the fourth tally in front, and the reader must not take it for the
// tally it swapped out, which a generation counted at each tally installed
// (modulo 4) would make it. Each record is in exactly one Interval.
func TestWidenedBetweenSwapAndJournal(t *testing.T) {
	for widenings := range 7 {
		c := NewCollector(NoBarrier)
		w := c.NewWriter()
		var want Dist
		rec := func(d int64) {
			w.Record(d)
			want.Add(KindSpan, d)
		}
		rec(1000)
		rec(1001)
		done := false
		OnTrace = func(e Event) {
			if e == EventSwap && !done {
				done = true
				for k := range widenings {
					rec(int64(1) << (20 + 6*k))
				}
			}
		}
		var got, s Dist
		for range 3 {
			c.Interval(&s)
			got.Merge(&s)
		}
		OnTrace = nil
		if !got.Equal(&want) {
			t.Fatalf("%d tallies put in front between the swap and the journal: the Intervals hold count %d, sum %d, max %d; want %d, %d, %d",
				widenings, got.count, got.lo, got.max, want.count, want.lo, want.max)
		}
	}
}

// TestIntervalsPassOneBarrier: Intervals of several Collectors whose
// writers all recorded pass one barrier for all, after every swap and
// before every journal read, and each Collector's Interval holds exactly
// its own writer's records.
func TestIntervalsPassOneBarrier(t *testing.T) {
	cs := make([]*Collector, 5)
	for i := range cs {
		cs[i] = NewCollector(NoBarrier)
		w := cs[i].NewWriter()
		for d := range int64(i + 1) {
			w.Record(1000 * d)
		}
	}
	var events []Event
	OnTrace = func(e Event) { events = append(events, e) }
	defer func() { OnTrace = nil }()
	var dst Dist
	var counts []uint64
	Intervals(cs, &dst, func(i int) { counts = append(counts, dst.Count()) })
	barriers, lastSwap, firstJournal := 0, -1, len(events)
	for k, e := range events {
		switch e {
		case EventBarrier:
			barriers++
		case EventSwap:
			lastSwap = k
		case EventJournal:
			firstJournal = min(firstJournal, k)
		}
	}
	if barriers != 1 {
		t.Fatalf("%d barriers for %d Collectors; want 1", barriers, len(cs))
	}
	for k, e := range events {
		if e == EventBarrier && (k < lastSwap || k > firstJournal) {
			t.Fatalf("the barrier is event %d; want it after the last swap (%d) and before the first journal (%d)", k, lastSwap, firstJournal)
		}
	}
	for i, n := range counts {
		if n != uint64(i+1) {
			t.Fatalf("Collector %d's Interval holds %d records; want %d", i, n, i+1)
		}
	}
}

// TestRetireRacesARecord makes a retired writer record at each of the two
// steps of its retirement: after attached is cleared and before its cur is
// closed (the record puts a tally in front of the bare one, and the writer
// stays listed), and after (the record attaches it again, and the next
// Interval lists it). Every record is in exactly one Interval, and the
// writer is listed wherever it holds a tally.
func TestRetireRacesARecord(t *testing.T) {
	for _, at := range []Event{EventRetiring, EventRetired} {
		c := NewCollector(NoBarrier)
		w := c.NewWriter()
		var want, got, s Dist
		rec := func(d int64) {
			w.Record(d)
			want.Add(KindSpan, d)
		}
		rec(1000)
		w.Close()
		raced := false
		OnTrace = func(e Event) {
			if e == at && !raced {
				raced = true
				rec(2000)
			}
		}
		for range 4 {
			c.Interval(&s)
			got.Merge(&s)
		}
		OnTrace = nil
		if !raced {
			t.Fatalf("%v: no Interval retired the writer", at)
		}
		if !got.Equal(&want) {
			t.Fatalf("%v: the Intervals hold count %d, sum %d; want %d, %d", at, got.count, got.lo, want.count, want.lo)
		}
		rec(3000)
		c.Interval(&s)
		if s.Count() != 1 || s.Max() != 3000 {
			t.Fatalf("%v: a record after the race is not in the next Interval (count %d, max %d)", at, s.Count(), s.Max())
		}
	}
}

// TestIdleWriterWithARecordInFlight stops a writer's record before its
// mark while five Intervals run, so that the writer looks idle to them
// (no record begins) with a tally held aside for the record: the writer
// must stay listed until the record is known, and the record is then in
// exactly one Interval, with every other.
func TestIdleWriterWithARecordInFlight(t *testing.T) {
	for stop := 1; stop <= 4; stop++ {
		c := NewCollector(NoBarrier)
		w := c.NewWriter()
		var want, got, s Dist
		for d := range int64(5) {
			w.Record(1000 + d)
			want.Add(KindSpan, 1000+d)
		}
		k := 0
		OnStep = func() {
			if k++; k == stop {
				for range 5 {
					c.Interval(&s)
					got.Merge(&s)
				}
			}
		}
		w.Record(1002) // in the window of the tally the Intervals took
		OnStep = nil
		want.Add(KindSpan, 1002)
		for range 4 {
			c.Interval(&s)
			got.Merge(&s)
		}
		if !got.Equal(&want) {
			t.Fatalf("stopped after %d steps: the Intervals hold count %d, sum %d; want %d, %d", stop, got.count, got.lo, want.count, want.lo)
		}
	}
}

// copyFrom makes t, which is empty, not installed and of a window that
// holds full's, hold what full holds: its counts and their marks, its
// figures, its slots, and the tallies it was put in front of, as a test
// replaces a writer's tally between two of its records.
func (t *Tally) copyFrom(full *Tally) {
	if full.size() > 0 { // a window of none may lie anywhere
		d := full.off - t.off
		switch {
		case !t.wide:
			copy(t.small[d:], full.small)
		case full.wide:
			copy(t.counts[d:], full.counts)
		default:
			for j, c := range full.small {
				t.counts[d+uint64(j)] = uint32(c)
			}
		}
	}
	t.lo, t.hi, t.min, t.max = full.lo, full.hi, full.min, full.max
	t.negative, t.migrated, t.unknownCPU = full.negative, full.migrated, full.unknownCPU
	for j := range t.size() {
		if c, _, _ := t.countOf(int(t.off + j)); c != 0 {
			t.touched |= touchBit(j)
		}
	}
	if full.ex != nil {
		t.keepExemplars()
		*t.ex = *full.ex
	}
	t.prev = full.prev
}

// TestRecordEndsBetweenBarrierAndCollect stops a record after its seq,
// lets an Interval load that seq and swap the tally, and resumes the
// record at the Interval's barrier, so that it loads the tally installed,
// bare, and ends, done and all, before the Interval reads the writer. A
// bare tally takes no record, not even a negative span counted apart, so
// the record begins another and counts into a tally it puts in front,
// which the next Interval takes; were it to count into the bare tally, the
// Interval would find it ended with no record begun since, and the next
// would not take the tally. The record is in exactly one Interval.
func TestRecordEndsBetweenBarrierAndCollect(t *testing.T) {
	c := NewCollector(NoBarrier)
	w := c.NewWriter()
	for d := range int64(3) {
		w.Record(1000 + d)
	}
	stopped, resume, ended := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		k := 0
		OnStep = func() {
			if k++; k == 1 {
				close(stopped)
				<-resume
			}
		}
		w.RecordKind(-3, KindNegative)
		OnStep = nil
		close(ended)
	}()
	<-stopped
	OnTrace = func(e Event) {
		if e == EventBarrier {
			OnTrace = nil
			close(resume)
			<-ended
		}
	}
	var got, s Dist
	for range 3 {
		c.Interval(&s)
		got.Merge(&s)
	}
	OnTrace = nil
	if got.Count() != 3 || got.Negative() != 1 {
		t.Fatalf("the Intervals hold %d spans and %d negative; want 3 and 1", got.Count(), got.Negative())
	}
}
