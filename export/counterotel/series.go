package counterotel

import (
	"slices"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/internal/running"
)

// A series is what a Producer keeps of one data point of a name's
// histogram and of each of its sums: the spans taken for it since it
// began, from a registration's Source or from one series of a registered
// Family, as figures (total) and as a point's buckets (cumulative), both
// of a size that the spans' range does not change.
type series struct {
	attrs      attribute.Set
	start      time.Time      // its cumulative points' StartTime
	last       time.Time      // the previous Produce's time, or start
	total      running.Totals // every span taken since start
	cumulative expBuckets     // the buckets of every span taken since start
	exemplars  *exemplarSlots // its cumulative points' exemplars; nil until an Interval has one
}

// newSeries returns an empty series with the attributes attrs that begins
// at start. p.mu is held, and p.init was called.
func (p *Producer) newSeries(attrs attribute.Set, start time.Time) *series {
	sr := &series{attrs: attrs, start: start, last: start}
	sr.cumulative.reset(&p.layout)
	return sr
}

// A batch is the points one Produce returns, as it appends them, and the
// temporality of each kind.
type batch struct {
	histDelta, sumDelta bool
	hists               []metricdata.ExponentialHistogramDataPoint[float64]
	negs, migs          []metricdata.DataPoint[int64]
}

// take adds in, the Interval of sr's spans taken before now, in ticks of
// r's rate, to sr's total, buckets and exemplars, and appends sr's points
// at now to b: its histogram point and its sums of negative and migrated
// spans. Each span is counted at its value of export.Values(in); the
// cumulative buckets and exemplars are kept current whatever the
// temporality, so that a selector may change its answer between Produces.
// p.mu is held.
func (p *Producer) take(b *batch, sr *series, in *counter.Snapshot, r *registration, now time.Time) {
	l := &p.layout
	var fresh running.Totals // in's figures, for delta points
	fresh.Add(in)
	sr.total.Add(in)
	if b.histDelta {
		p.delta.reset(l)
	}
	for v, n := range export.Values(in) {
		if v <= 0 {
			sr.cumulative.zero += n
			if b.histDelta {
				p.delta.zero += n
			}
			continue
		}
		i := r.places.index(v)
		sr.cumulative.add(i, n, l)
		if b.histDelta {
			p.delta.add(i, n, l)
		}
	}

	var buf, sorted [slots]kept
	ex := p.taken(in, now, &buf)
	if len(ex) > 0 {
		if sr.exemplars == nil {
			sr.exemplars = new(exemplarSlots)
		}
		sr.exemplars.keep(ex)
	}

	tot, bk, start := &sr.total, &sr.cumulative, sr.start
	if b.histDelta {
		tot, bk, start = &fresh, &p.delta, sr.last
	} else if sr.exemplars != nil {
		ex = sr.exemplars.sorted(&sorted)
	}
	dp := point(sr.attrs, tot, bk, start, now, r.rate)
	dp.Exemplars = exemplarsOf(ex, r.rate)
	b.hists = append(b.hists, dp)

	tot, start = &sr.total, sr.start
	if b.sumDelta {
		tot, start = &fresh, sr.last
	}
	// A sum has a point once it counts a span, as the SDK's counters have
	// one for a set of attributes once it is measured: a cumulative sum
	// from its series' first such span on, a delta sum for each Produce
	// that takes one.
	if n := tot.Negative(); n > 0 {
		b.negs = append(b.negs, metricdata.DataPoint[int64]{
			Attributes: sr.attrs, StartTime: start, Time: now, Value: toInt64(n),
		})
	}
	if n := tot.Migrated(); n > 0 {
		b.migs = append(b.migs, metricdata.DataPoint[int64]{
			Attributes: sr.attrs, StartTime: start, Time: now, Value: toInt64(n),
		})
	}
	sr.last = now
}

// point returns the histogram point, from start to now, of the spans whose
// figures are tot and whose buckets are bk, with counts of its own.
func point(attrs attribute.Set, tot *running.Totals, bk *expBuckets, start, now time.Time, rate counter.TickRate) metricdata.ExponentialHistogramDataPoint[float64] {
	dp := metricdata.ExponentialHistogramDataPoint[float64]{
		Attributes: attrs,
		StartTime:  start,
		Time:       now,
		Count:      tot.Count(),
		Scale:      bk.scale,
		ZeroCount:  bk.zero,
	}
	if len(bk.counts) > 0 {
		dp.PositiveBucket = metricdata.ExponentialBucket{Offset: bk.offset, Counts: slices.Clone(bk.counts)}
	}
	if dp.Count > 0 {
		dp.Sum = tot.Seconds(rate)
		dp.Min = metricdata.NewExtrema(export.Seconds(tot.Min(), rate))
		dp.Max = metricdata.NewExtrema(export.Seconds(tot.Max(), rate))
	}
	return dp
}
