package counterotel

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// A series is what a Producer keeps of one data point of a name's
// histogram and of each of its sums: the spans taken for it since it
// began, from a registration's Source or from one series of a registered
// Family, as figures (total) and as a point's buckets (cumulative), both
// of a size that the spans' range does not change.
type series struct {
	attrs      attribute.Set
	start      time.Time     // its cumulative points' StartTime
	last       time.Time     // the previous Produce's time, or start
	total      export.Totals // every span taken since start
	cumulative tally         // the buckets of every span taken since start
}

// newSeries returns an empty series with the attributes attrs that begins
// at start. p.mu is held, and p.init was called.
func (p *Producer) newSeries(attrs attribute.Set, start time.Time) *series {
	sr := &series{attrs: attrs, start: start, last: start}
	sr.cumulative.reset(&p.layout)
	return sr
}

// placesOf returns the Producer's places of the rate r, made at its first
// use. p.mu is held.
func (p *Producer) placesOf(r counter.TickRate) *export.Memo[int32] {
	pl := p.places[r]
	if pl == nil {
		if p.places == nil {
			p.places = map[counter.TickRate]*export.Memo[int32]{}
		}
		pl = newPlaces(r, &p.layout)
		p.places[r] = pl
	}
	return pl
}

// A batch is the points one Produce returns, as it appends them, and the
// temporality of each kind.
type batch struct {
	histDelta, sumDelta bool
	hists               []metricdata.ExponentialHistogramDataPoint[float64]
	negs, migs          []metricdata.DataPoint[int64]
	// counts is where the histogram points' counts are cut from.
	counts room
}

// A room hands out zero counts for the histogram points of one Produce,
// cut from blocks that it makes, each twice as long as the one before
// (the first as long as the first point needs), up to maxBlock counts, or
// as long as a point needs where that is more: so that n points of w
// buckets take about log₂(n) blocks up to maxBlock·8 bytes and n·w/maxBlock
// after, not n slices, and the blocks are at most twice the points'
// counts and one block more. Each block is the caller's, kept as long as
// any point cut from it is.
type room struct {
	free []uint64 // zero
	last int      // the length of the last block made
}

// maxBlock is the most counts a room makes a block of for points that
// need fewer: 32 KB, the largest of Go's small size classes.
const maxBlock = 4096

// take returns n zero counts, cut from r's block, or a new one where the
// block has fewer left.
func (r *room) take(n int) []uint64 {
	if n > len(r.free) {
		r.last = max(n, min(2*r.last, maxBlock))
		r.free = make([]uint64, r.last)
	}
	c := r.free[:n:n]
	r.free = r.free[n:]
	return c
}

// begin readies p to take an Interval of sr's spans, in ticks of rate,
// whose buckets the Interval may hand to placeTaken ([export.Direct])
// before take takes the rest: it empties the delta tally, where b's
// histogram points are deltas. p.mu is held.
func (p *Producer) begin(b *batch, sr *series, rate counter.TickRate) {
	p.cur.sr, p.cur.pl, p.cur.delta = sr, p.placesOf(rate), b.histDelta
	if b.histDelta {
		p.delta.reset(&p.layout)
	}
}

// placeTaken places the buckets of tk, a writer's tally of the Interval
// that begin readied p for, in the series' tallies, as take places the
// buckets of the Snapshot it takes: p.direct calls it with the tallies it
// takes straight from a Histogram's writers. p.mu is held.
func (p *Producer) placeTaken(tk *export.Taken) {
	if !p.cur.delta {
		p.cur.sr.cumulative.addTaken(tk, &p.layout, p.cur.pl)
		return
	}
	for k, n := range tk.Buckets() { // to both tallies
		p.cur.sr.cumulative.place(k, n, &p.layout, p.cur.pl)
		p.delta.place(k, n, &p.layout, p.cur.pl)
	}
}

// take adds in, the spans of sr taken by an Interval before now, in ticks
// of rate, to sr's total, and appends sr's points at now to b: its
// histogram point and its sums of negative and migrated spans. in is
// p.scratch or a Snapshot of the caller's; begin readied p for it, and
// any of its buckets that p.direct handed to placeTaken are
// placed already. p.mu is held.
func (p *Producer) take(b *batch, sr *series, in *counter.Snapshot, rate counter.TickRate, now time.Time) {
	sr.total.Add(in)
	pl := p.placesOf(rate)
	sr.cumulative.add(in, &p.layout, pl) // at once where the Interval is empty
	b.hists = append(b.hists, metricdata.ExponentialHistogramDataPoint[float64]{})
	dp := &b.hists[len(b.hists)-1]
	s, start, t := &sr.total, sr.start, &sr.cumulative
	var inTotals export.Totals // in's figures, for delta points
	inTotals.Add(in)
	if b.histDelta {
		s, start, t = &inTotals, sr.last, &p.delta
		t.add(in, &p.layout, pl)
	}
	p.point(dp, sr.attrs, s, t, start, rate, now, &b.counts)
	s, start = &sr.total, sr.start
	if b.sumDelta {
		s, start = &inTotals, sr.last
	}
	// A sum has a point once it counts a span, as the SDK's counters have
	// one for a set of attributes once it is measured: a cumulative sum
	// from its series' first such span on, a delta sum for each Produce
	// that takes one.
	if n := s.Negative(); n > 0 {
		b.negs = append(b.negs, metricdata.DataPoint[int64]{
			Attributes: sr.attrs, StartTime: start, Time: now, Value: toInt64(n),
		})
	}
	if n := s.Migrated(); n > 0 {
		b.migs = append(b.migs, metricdata.DataPoint[int64]{
			Attributes: sr.attrs, StartTime: start, Time: now, Value: toInt64(n),
		})
	}
	sr.last = now
}

// point sets dp to the histogram point of the spans whose figures are s
// and whose buckets t counts, from start to now. p.mu is held.
func (p *Producer) point(dp *metricdata.ExponentialHistogramDataPoint[float64], attrs attribute.Set, s *export.Totals, t *tally, start time.Time, rate counter.TickRate, now time.Time, room *room) {
	*dp = metricdata.ExponentialHistogramDataPoint[float64]{
		Attributes: attrs,
		StartTime:  start,
		Time:       now,
		Count:      s.Count(),
	}
	t.point(dp, s.Min(), s.Max(), &p.layout, rate, room)
	if dp.Count > 0 {
		dp.Sum = s.Seconds(rate)
		dp.Min = metricdata.NewExtrema(export.Seconds(s.Min(), rate))
		dp.Max = metricdata.NewExtrema(export.Seconds(s.Max(), rate))
	}
}
