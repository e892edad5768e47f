package counterprom_test

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/protobuf/proto"
	"pgregory.net/rapid"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterprom"
)

// TestDirectAgainstTap checks that a Collector of a Histogram, which takes
// the writers' tallies straight from its Interval ([export.Direct]),
// exports what a Collector of a Tap of the same spans exports, which
// takes them through a Snapshot: at each of a run of scrapes, the same
// count, sum, classic and native buckets and schema, with and without a
// bound on the native buckets, of spans recorded through Record and
// through Recorders closed, dropped open, or kept across scrapes, some
// of them negative, some migrated.
func TestDirectAgainstTap(t *testing.T) {
	r := rate(t)
	rapid.Check(t, func(t *rapid.T) {
		opts := counterprom.Opts{Name: "op_seconds", Buckets: bounds}
		if rapid.Bool().Draw(t, "native") {
			opts.NativeHistogramBucketFactor = 1.01
			opts.NativeHistogramMaxBucketNumber = uint32(rapid.SampledFrom([]int{0, 5, 20, 160}).Draw(t, "max"))
		}
		h, ref := counter.NewHistogram(), counter.NewHistogram()
		direct, viaTap := prometheus.NewPedanticRegistry(), prometheus.NewPedanticRegistry()
		direct.MustRegister(counterprom.New(h, r, opts))
		viaTap.MustRegister(counterprom.New(export.NewFeed(ref).Tap(), r, opts))
		kept, keptRef := h.Recorder(), ref.Recorder()
		defer kept.Close()
		defer keptRef.Close()
		for round := range rapid.IntRange(1, 5).Draw(t, "scrapes") {
			lo := rapid.Int64Range(0, 1<<36).Draw(t, "lo")
			for range rapid.IntRange(0, 4).Draw(t, "writers") {
				var w, ww *counter.Recorder
				how := rapid.IntRange(0, 3).Draw(t, "how") // Record, a Recorder closed, dropped, the kept one
				switch how {
				case 1, 2:
					w, ww = h.Recorder(), ref.Recorder()
				case 3:
					w, ww = kept, keptRef
				}
				for range rapid.IntRange(0, 100).Draw(t, "spans") {
					d := counter.Tickdelta(lo + rapid.Int64Range(-2, 1<<rapid.IntRange(0, 30).Draw(t, "width")).Draw(t, "d"))
					migrated := rapid.IntRange(0, 20).Draw(t, "migrated") == 0
					switch {
					case w == nil:
						h.Record(d)
						ref.Record(d)
					case migrated:
						w.RecordCPU(d, 0, 1)
						ww.RecordCPU(d, 0, 1)
					default:
						w.Record(d)
						ww.Record(d)
					}
				}
				if how == 1 {
					w.Close()
					ww.Close()
				}
			}
			for _, name := range []string{"op_seconds", "op_seconds_negative_spans_total", "op_seconds_migrated_spans_total"} {
				got, want := gather(t, direct, name).GetMetric()[0], gather(t, viaTap, name).GetMetric()[0]
				if name == "op_seconds" {
					got.Histogram, want.Histogram = withoutCreated(got.GetHistogram()), withoutCreated(want.GetHistogram())
				} else {
					got.Counter.CreatedTimestamp, want.Counter.CreatedTimestamp = nil, nil
				}
				if !proto.Equal(got, want) {
					t.Fatalf("scrape %d: %s of the Histogram's Collector:\n%v\nof the Tap's:\n%v", round, name, got, want)
				}
			}
		}
	})
}
