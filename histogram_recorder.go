package counter

import (
	"runtime"

	"github.com/tickstamp/counter/internal/handover"
)

// A Recorder counts spans into its [Histogram] from one goroutine at a time,
// with plain loads and stores: no atomic read-modify-write, no lock, no
// fence and no allocation where the span fits its tally. (That is on amd64;
// on arm64 its stores are store-releases, and elsewhere and in race builds
// Go's atomic stores.) A Recorder's spans take one of the Histogram's
// locks, as [Histogram.Record] does, until it has recorded 64 and an
// Interval has begun since it was made, or it has recorded 4,096; then it
// takes a tally of its own. So a Recorder made for a request and dropped
// within an Interval costs its 400 bytes of state and no more, and the
// Interval nothing. A negative or migrated span, a
// span of an unknown CPU, a span outside the tally's window or whose bucket
// is full, and the first span after an Interval take a slower path, which
// takes the Recorder's spare tally, one of the Histogram's or a new one;
// none of it waits for an Interval, nor an Interval for it.
// [Histogram.Interval] takes what it has recorded without its help, whatever
// its goroutine is doing, so a goroutine may record and then block, sleep or
// end. A Recorder keeps one tally of counts over the buckets its spans
// lately covered, which Interval takes each time the Recorder has recorded
// since the last Interval ([Histogram] gives its memory as a formula). The
// zero Recorder is not usable: get one from [Histogram.Recorder].
//
// A Recorder must not be used by two goroutines at once; one goroutine may
// pass it to another through a channel, a mutex or anything else that orders
// the two. Two at once are a data race, which -race reports; without it,
// the Recorder's figures go wrong silently and by no bound. A record is
// plain loads and stores of a count, the sum and the extremes, so two at
// once keep one span of the two (the sum, which every record writes, loses
// most). And the two share the journal by which [Histogram.Interval] takes
// a tally mid-record, so an Interval may finish one's record with the
// other's span or count, or reuse a tally that one of them still writes: a
// span counted in another bucket or Interval, or lost, or a bucket's count
// made up. Go promises nothing more of a racy program, not even that it
// does not crash.
//
// [Recorder.Close] gives it up at once; in both cases its spans go to the
// next Interval, and the Interval after that takes it off the Histogram's
// list. One that is dropped without Close, or simply records nothing for
// two Intervals, is taken off the list as well, so that the garbage
// collector frees a dropped Recorder as soon as it finds it unreachable.
type Recorder struct {
	// w is apart from the Recorder so that the Histogram, which holds w,
	// does not keep a dropped Recorder reachable.
	w *handover.Writer
}

// Recorder returns a new Recorder that counts into h. It allocates the
// Recorder's state alone, about 400 bytes; the Recorder takes a tally, a
// spare one h already has or a new one, as its doc says.
func (h *Histogram) Recorder() *Recorder {
	h.mustBeUsable("Recorder")
	w := h.c.NewWriter()
	r := &Recorder{w}
	// A Recorder that is dropped before it takes a tally (its first spans
	// go to a lock of h's: handover.Spill) needs no cleanup: its writer is
	// on no list. One is registered when it takes one.
	w.OnAttach(func() { runtime.AddCleanup(r, (*handover.Writer).Close, w) })
	return r
}

// Record counts the span d; a negative d is counted apart, as
// [Snapshot.Negative].
func (r *Recorder) Record(d Tickdelta) {
	r.writer().Record(int64(d))
	// r stays reachable until the record has ended: the cleanup that
	// closes a dropped Recorder's writer must not run while its last
	// record is in flight, nor while Close runs
	// (TestCloseUnderBackToBackIntervals).
	runtime.KeepAlive(r)
}

// RecordCPU counts a span d whose first read came from CPU from and whose
// last from CPU to, as [Counter.NowCPU] reports them:
//
//	t0, cpu0 := c.NowCPU()
//	work()
//	t1, cpu1 := c.NowCPU()
//	r.RecordCPU(t1.Sub(t0), cpu0, cpu1)
//
// A span whose CPUs differ, whatever its sign, is counted apart as
// [Snapshot.Migrated] and left out of the distribution: the thread moved
// during it, and the two CPUs' counters may not agree. A span with CPU -1 at
// both ends, where the hardware does not say (NowCPU's doc says where), is
// counted as Record counts it, and also as [Snapshot.UnknownCPU] where it is
// not negative, so that a reader knows migrations could not be seen.
func (r *Recorder) RecordCPU(d Tickdelta, from, to int) {
	w := r.writer()
	switch {
	case from == to && from >= 0:
		w.Record(int64(d))
	case from != to:
		w.RecordKind(int64(d), handover.KindMigrated)
	default:
		w.RecordKind(int64(d), handover.KindUnknown)
	}
	runtime.KeepAlive(r) // as in Record
}

// Close gives the Recorder up: what it recorded goes to the next
// [Histogram.Interval], which gives its tally back at once, and the
// Interval after takes the Recorder off the Histogram's list. Close stores
// one word, and never waits. A Recorder used after Close records as
// before; where it is off the list by then, its first span attaches it
// again, as its first tally did.
func (r *Recorder) Close() {
	if r == nil {
		panic("counter: Recorder.Close: a nil *Recorder; get one from Histogram.Recorder")
	}
	r.writer().Close()
	runtime.KeepAlive(r) // as in Record
}

// writer returns the Recorder's writer, and panics with a message that says
// what is wrong with a zero Recorder.
func (r *Recorder) writer() *handover.Writer {
	if r.w == nil {
		panic("counter: the zero Recorder has no Histogram: get one from Histogram.Recorder")
	}
	return r.w
}
