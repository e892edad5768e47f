package counterotel_test

import (
	"testing"

	"github.com/tickstamp/counter/internal/mutate"
)

// mutations are changes to buckets.go, series.go, family.go, producer.go
// and exemplar.go that each break a rule of the package doc or of the code's
// comments, which some test must catch.
// A mutation is a mutate.Mutation, listed without field names.
type mutation mutate.Mutation

var mutations = []mutation{
	{"fit lets one bucket more", "buckets.go",
		"for (hi>>k)-(lo>>k) >= l.maxSize {", "for (hi>>k)-(lo>>k) > l.maxSize {"},
	{"fit lowers the scale one too far", "buckets.go",
		"for (hi>>k)-(lo>>k) >= l.maxSize {", "for (hi>>k)-(lo>>k) >= l.maxSize-1 {"},
	{"a bucket is shifted once too often", "buckets.go",
		"i >>= uint32(l.exp.Scale()-b.scale) & 31", "i >>= uint32(l.exp.Scale()-b.scale+1) & 31"},
	{"a bucket is not shifted to the window's scale", "buckets.go",
		"i >>= uint32(l.exp.Scale()-b.scale) & 31", "i >>= 0"},
	{"a bucket outside the window is not shifted to its scale", "buckets.go",
		"b.addOutside(i>>(l.exp.Scale()-b.scale), n, l)", "b.addOutside(i, n, l)"},
	{"a bucket inside the window is counted one off", "buckets.go",
		"b.counts[j] += n", "b.counts[max(j-1, 0)] += n"},
	{"downscale misplaces the offset", "buckets.go",
		"lo := b.offset >> k\n", "lo := (b.offset + 1) >> k\n"},
	{"downscale leaves the scale", "buckets.go",
		"b.counts, b.offset, b.scale = b.counts[:n], lo, b.scale-k", "b.counts, b.offset = b.counts[:n], lo"},
	{"a new bucket is not shifted after a downscale", "buckets.go",
		"i, lo, hi = i>>k, lo>>k, hi>>k", "lo, hi = lo>>k, hi>>k"},
	{"widen leaves old counts in new buckets", "buckets.go",
		"clear(b.counts[shift+old:])", ""},
	{"widen leaves old counts below the window", "buckets.go",
		"clear(b.counts[:shift])", ""},
	{"widen makes room past maxSize", "buckets.go",
		"min(max(n, 2*cap(b.counts)), int(maxSize))", "max(n, 2*cap(b.counts))"},
	{"reset keeps the scale", "buckets.go",
		"*b = expBuckets{scale: l.maxScale, counts: b.counts[:0]}", "*b = expBuckets{scale: b.scale, counts: b.counts[:0]}"},
	{"reset keeps the zeros", "buckets.go",
		"*b = expBuckets{scale: l.maxScale, counts: b.counts[:0]}", "*b = expBuckets{scale: l.maxScale, counts: b.counts[:0], zero: b.zero}"},
	{"a delta Produce leaves its Interval out of the cumulative buckets", "series.go",
		"sr.cumulative.add(i, n, l)", "if !b.histDelta {\n\t\t\tsr.cumulative.add(i, n, l)\n\t\t}"},
	{"a delta Produce keeps the previous series' buckets", "series.go",
		"\tif b.histDelta {\n\t\tp.delta.reset(l)\n\t}", ""},
	{"a delta point has no zeros", "series.go",
		"\t\t\t\tp.delta.zero += n\n", ""},
	{"a value is placed at the wrong rate", "buckets.go",
		"m.exp.Index(export.Seconds(v, m.rate))", "m.exp.Index(2 * export.Seconds(v, m.rate))"},
	{"a middle is placed a doubling off", "buckets.go",
		"m.first[u>>shift-128] + int32(shift-1)<<m.exp.Scale()", "m.first[u>>shift-128] + int32(shift)<<m.exp.Scale()"},
	{"a value that is not a middle is placed as one", "buckets.go",
		"if u&(1<<shift-1) == 1<<(shift-1) {", "if true {"},
	{"a cumulative point's figures are the Interval's", "series.go",
		"tot, bk, start := &sr.total, &sr.cumulative, sr.start", "tot, bk, start := &fresh, &sr.cumulative, sr.start"},
	{"a point's counts are the series' own", "series.go",
		"Counts: slices.Clone(bk.counts)", "Counts: slices.Clip(bk.counts)"},
	{"a sum that counts no span has a point", "series.go",
		"if n := tot.Negative(); n > 0 {", "if n := tot.Negative(); n >= 0 {"},
	{"a sum's points start at the histogram's first", "producer.go",
		"DataPoints: b.migs[migFrom:to:to]", "DataPoints: b.migs[from:to:to]"},
	{"the negative sum's points start at the histogram's first", "producer.go",
		"DataPoints: b.negs[negFrom:to:to]", "DataPoints: b.negs[from:to:to]"},
	{"a sum without a point is exported", "producer.go",
		"if to := len(b.negs); to > negFrom {", "if to := len(b.negs); to >= negFrom {"},
	{"a family's new series starts at the Produce that sees it", "family.go",
		"p.newSeries(fr.seriesAttrs(values), fr.last)", "p.newSeries(fr.seriesAttrs(values), now)"},
	{"a family's later series start at its registration", "family.go",
		"\tfr.last = now\n", "\n"},
	{"a family's series take the spans of the series before", "family.go",
		"\t\t\tsr = fr.members[i]\n\t\t\ti++\n", "\t\t\tsr = fr.members[max(i-1, 0)]\n\t\t\ti++\n"},
	{"the overflow point is not marked", "family.go",
		"p.newSeries(fr.overflowAttrs(), fr.last)", "p.newSeries(fr.attrs, fr.last)"},
	{"each label's attribute has another label's key", "family.go",
		"attribute.String(fr.labels[i], v)", "attribute.String(fr.labels[len(values)-1-i], v)"},
	{"a registration's value of any type may be a series'", "family.go",
		"kv.Value.Type() != attribute.STRING || ", ""},
	{"a family's attribute of any type may be another's series'", "family.go",
		"if v.Type() != attribute.STRING {", "if v.Type() == attribute.EMPTY {"},
	{"a cumulative point's exemplars are the Interval's", "series.go",
		"} else if sr.exemplars != nil {", "} else if false {"},
	{"a delta point's exemplars are the cumulative ones", "series.go",
		"\t} else if sr.exemplars != nil {", "\t}\n\tif sr.exemplars != nil {"},
	{"a delta Produce keeps no exemplar for later cumulative points", "series.go",
		"if len(ex) > 0 {", "if len(ex) > 0 && !b.histDelta {"},
	{"the spans below 128 ticks are a doubling each", "exemplar.go",
		"max(bits.Len64(uint64(d))-7, 0) % slots", "bits.Len64(uint64(d)) % slots"},
	{"doublings 2¹⁰ apart do not share a slot", "exemplar.go",
		"max(bits.Len64(uint64(d))-7, 0) % slots", "min(max(bits.Len64(uint64(d))-7, 0), slots-1)"},
	{"a slot keeps the slower exemplar, not the newer", "exemplar.go",
		"\t\tx[slotOf(k.d)] = k\n", "\t\tif x[slotOf(k.d)].d < k.d {\n\t\t\tx[slotOf(k.d)] = k\n\t\t}\n"},
	{"a cumulative point's exemplars are in the slots' order", "exemplar.go",
		"i > 0 && buf[i-1].d > k.d", "i > 0 && false"},
	{"an exemplar's At is not converted by the anchor", "exemplar.go",
		"if p.anchor != nil && e.At != 0 {", "if false {"},
	{"an At of 0 is converted by the anchor", "exemplar.go",
		"if p.anchor != nil && e.At != 0 {", "if p.anchor != nil {"},
	{"the span id is the trace id's", "exemplar.go",
		"copy(id[16:], k.e.SpanID[:])", "copy(id[16:], k.e.TraceID[:])"},
	{"an exemplar's value is in nanoseconds", "exemplar.go",
		"Value: export.Seconds(k.d, rate)", "Value: 1e9 * export.Seconds(k.d, rate)"},
	{"a zero span id is exported", "exemplar.go",
		"if k.e.SpanID != ([8]byte{}) {", "if true {"},
	{"WithAnchor takes the zero Anchor", "producer.go",
		"if a != nil && reflect.ValueOf(a).Elem().IsZero() {", "if a != nil && reflect.ValueOf(a).Elem().IsZero() && a == nil {"},
}

// TestMutations runs the tests of the points on each mutation: each must
// fail, and the package as it is must pass (internal/mutate).
func TestMutations(t *testing.T) {
	mutate.Run(t, `^(TestExpBuckets|TestLimits|TestAgainstSDK|TestTemporality|TestTemporalitySwitch|TestDefaultLimits|TestNothingRecorded|TestFamily|TestFamilyErrors|TestNegativeAndMigrated|TestSeveralRegistrations|TestProduceKeepsNothing|TestExemplarSlots|TestExemplarTemporality|TestExemplarFamily|TestExemplarAnchor|TestExemplarWithoutSpanID)$`, mutations)
}
