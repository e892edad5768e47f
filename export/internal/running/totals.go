// Package running holds what the exporters in export/ keep of the spans
// they have taken beside their own buckets. It is internal: the modules
// under export/ share it, and no user needs it.
package running

import (
	"math"
	"math/bits"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
)

// Totals are the figures of the Snapshots added to them, without their
// buckets: count, exact sum, least and greatest span, and the spans counted
// apart. The zero Totals hold no span.
type Totals struct {
	count      uint64
	hi, lo     uint64 // the exact sum, 128 bits
	min, max   counter.Tickdelta
	neg, moved uint64
}

// Add adds the figures of s: t's are then those of the Snapshot that s and
// every Snapshot added before merge into.
func (t *Totals) Add(s *counter.Snapshot) {
	t.neg += s.Negative()
	t.moved += s.Migrated()
	n := s.Count()
	if n == 0 {
		return
	}
	if t.count == 0 {
		t.min, t.max = s.Min(), s.Max()
	} else {
		t.min, t.max = min(t.min, s.Min()), max(t.max, s.Max())
	}
	t.count += n
	hi, lo := s.Sum128()
	var carry uint64
	t.lo, carry = bits.Add64(t.lo, lo, 0)
	t.hi += hi + carry
}

// Count, Min, Max, Negative and Migrated are those of [counter.Snapshot],
// of the spans added.
func (t *Totals) Count() uint64          { return t.count }
func (t *Totals) Min() counter.Tickdelta { return t.min }
func (t *Totals) Max() counter.Tickdelta { return t.max }
func (t *Totals) Negative() uint64       { return t.neg }
func (t *Totals) Migrated() uint64       { return t.moved }

// Seconds returns the sum of the spans added in seconds at rate r, as
// [export.SumSeconds] returns it for the Snapshot they merge into: exact
// but for the conversion where the sum fits a Tickdelta, and otherwise the
// mean, rounded to a tick, times the count.
func (t *Totals) Seconds(r counter.TickRate) float64 {
	if t.hi == 0 && t.lo < math.MaxInt64 {
		return export.Seconds(counter.Tickdelta(t.lo), r)
	}
	// As Snapshot.Mean: hi < count, as every span is below 2⁶³.
	q, rem := bits.Div64(t.hi, t.lo, t.count)
	if rem >= t.count-rem {
		q++
	}
	return export.Seconds(counter.Tickdelta(q), r) * float64(t.count)
}
