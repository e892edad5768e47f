// Package counterotel exports [counter.Histogram]s to OpenTelemetry: a
// [Producer] that a reader of the OpenTelemetry SDK (go.opentelemetry.io/otel/sdk/metric)
// collects with its own instruments, registered on it with
// metric.WithProducer.
//
// # What is exported
//
// Each name given to [Producer.Register] is one metric, an exponential
// histogram of float64 seconds (unit "s"), with one data point for each
// registration of that name, told apart by its attributes, and the
// description [Producer.Describe] gives it. A data point
// holds the spans of its registration's [export.Source]: Count and Min and
// Max exactly as the [counter.Snapshot] has them (Min and Max converted
// with [export.Seconds], and left undefined where the point holds no span),
// Sum as [export.SumSeconds] gives it, the spans of 0 ticks in ZeroCount
// (ZeroThreshold 0), and every other span in the positive bucket, at scale
// [Scale], that holds its value of [export.Values] in seconds. Positive
// buckets run from the one of the smallest positive span to the one of the
// largest, empty ones between included: at most 2^Scale buckets for each
// doubling from the one to the other.
//
// Negative spans and spans whose thread changed CPU, which a Snapshot
// counts apart, are two monotonic sums of int64 beside the histogram, named
// name+".negative" and name+".migrated", in unit "{span}", with the same
// attributes. So every span recorded is in exactly one of the three.
//
// # Precision
//
// At scale 7 the bucket i holds the seconds in (bⁱ, bⁱ⁺¹] with
// b = 2^(2^−7) = 2^(1/128): each bucket's upper bound is b times its lower,
// a relative width of b−1, about 0.0054. Values only moves each span to a
// value [counter.Snapshot.Quantile] reports, the mapping from a value to
// its bucket never decreases, and no span is lost or added; so the k-th
// smallest span of the exported histogram is in the bucket that holds the
// Snapshot's k-th, the value Quantile(q) reports for k = ⌈q·n⌉. A quantile
// that a backend reads from the exported buckets and reports as any point
// of that bucket (its lower bound, its upper, or an interpolation between
// them) is within a relative b−1 = 2^(1/128)−1 of the Snapshot's, under
// one part in a hundred, to within a rounding error of the bucket's
// bounds. The Snapshot's is itself within [counter.QuantileError] = 1/256
// of the exact span, so the backend's is
// within (1+1/256)·2^(1/128)−1, about 0.0094, of the exact span. Scale 6
// would give 2^(1/64)−1, about 0.0109: no bound under one part in a
// hundred. The bound holds only where the buckets reach the backend as they
// are: a pipeline that merges them to a lower scale, to hold fewer buckets,
// widens it to 2^(2^−s)−1 at scale s.
//
// # Temporality
//
// The SDK does not tell a Producer which temporality its reader asks for:
// give [NewProducer] the reader's selector with [WithTemporalitySelector],
// the one given to the reader or the exporter's Temporality method. Without
// it, every point is cumulative. Each Produce asks the selector, for
// metric.InstrumentKindHistogram for the histograms and
// metric.InstrumentKindCounter for the sums of negative and migrated spans.
//
// A registration keeps the total of every span it has taken since
// Register. A cumulative point is that total, from the registration's time
// (StartTime) to the Produce's (Time), and its Min and Max are the smallest
// and largest of all time. A delta point holds the spans taken since the
// previous Produce, from that Produce's time (the registration's, for the
// first) to this one's, with their own Min and Max; a point that holds
// none has Count 0 and no Min and Max, and is still reported.
//
// # One reader for each Source
//
// A Producer takes spans through its Sources' Interval, which hands each
// span to one caller only. So:
//
//   - Where the application also calls Interval on a registered Histogram,
//     for its own reports, the spans that call takes never reach the
//     Producer. Make an [export.Feed] of the Histogram and give the Producer
//     one [export.Tap] and the application another.
//   - A Producer serves one reader. Registered on two with delta
//     temporality, each Produce hands on the spans since the other reader's
//     last Produce, and each reader sees only part of them (cumulative
//     points, from the total, are right for both). To export one Histogram
//     to two readers, make two Producers and register one Tap of a Feed of
//     it with each.
//
// Spans a Source had recorded before Register are in the first Produce.
//
// # Cost
//
// A Produce costs, for each registration, one Interval of its Source, one
// [counter.Snapshot.Merge] into its total (none where the Interval is
// empty), and a walk of the Snapshot's buckets that puts each of
// [export.Values] in its bucket with a table lookup and a comparison or
// two. It allocates what it returns: the slices of metrics and data
// points, and each point's bucket counts, 8 bytes a bucket. Each registration keeps a Snapshot for its
// total, whose memory follows the range of its spans
// ([counter.Snapshot]), and the Producer one more for the Intervals. Produce
// and Register may be called from any goroutine; they take turns.
package counterotel
