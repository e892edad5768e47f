package counter

// A Pair is the two reads that open and close a span, for [Counter.Floor].
type Pair uint8

const (
	// NowNow is a span opened and closed by [Counter.Now].
	NowNow Pair = iota
	// BeginEnd is a span opened by [Counter.Begin] and closed by
	// [Counter.End].
	BeginEnd
)

// FloorSpans is how many empty spans make a floor: [Counter.Floor] takes
// that many, and so does countertest's Bench.
const FloorSpans = 10000

// Floor fills dst with the distribution of FloorSpans empty spans of the
// pair p, read back to back on the calling goroutine: what a span of that
// pair reads with no code between its reads. Every span of that pair holds
// the same cost of the reads themselves, in whole steps of the counter (0
// where the counter steps less often than it is read), so a span's time in
// the code alone is the span less this floor: [Snapshot.QuantileLess] takes
// the floor's median. A value of p other than the two named measures NowNow.
// Floor takes as long as FloorSpans pairs of reads. It allocates nothing
// where dst's buckets reach its spans: into a Snapshot that held a floor
// before, unless a span is shorter or longer than every span it held.
func (c Counter) Floor(p Pair, dst *Snapshot) {
	if dst == nil {
		panic("counter: Counter.Floor: a nil dst; pass a *Snapshot to fill")
	}
	dst.Reset()
	if p == BeginEnd {
		for range FloorSpans {
			t0 := c.Begin()
			dst.addSpan(c.End().Sub(t0))
		}
		return
	}
	for range FloorSpans {
		t0 := c.Now()
		dst.addSpan(c.Now().Sub(t0))
	}
}
