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
// description [Producer.Describe] gives it ([Producer.RegisterFamily] adds
// a point for each series of a [counter.Family]: see Families). A data point
// holds the spans of its registration's [export.Source]: Count and Min and
// Max exactly as the [counter.Snapshot] has them (Min and Max converted
// with [export.Seconds], and left undefined where the point holds no span),
// Sum as [export.SumSeconds] gives it, the spans of 0 ticks in ZeroCount
// (ZeroThreshold 0), and every other span in the positive bucket, at the
// point's Scale, that holds its value of [export.Values] in seconds.
// Positive buckets run from the one of the smallest positive value to the
// one of the largest, empty ones between included.
//
// Negative spans and spans whose thread changed CPU, which a Snapshot
// counts apart, are two monotonic sums of int64 beside the histogram, named
// name+".negative" and name+".migrated", in unit "{span}", with the same
// attributes. So every span recorded is in exactly one of the three. A sum
// has a point for a registration once it counts one of its spans, as the
// SDK's counters have one for a set of attributes once it is measured: a
// cumulative sum from the first such span on, a delta sum in each Produce
// that takes one. Where no registration of a name has such a point, the
// sum is not exported at all, so that a service whose spans are all
// positive and stay on their CPU exports its histograms alone, not two
// series of zeros beside each.
//
// # Scale and size
//
// A point holds at most a maximum size of positive buckets,
// [DefaultMaxSize] = 160 unless [WithMaxSize] sets another, as the
// OpenTelemetry SDK's exponential histograms do. Its Scale is the finest,
// up to a maximum scale ([DefaultMaxScale] = 7 unless [WithMaxScale] sets
// another), at which its positive buckets number at most the maximum size.
// This is the SDK's rule: bucket i at scale s is bucket i>>1 at scale s−1,
// and the SDK lowers the scale of a histogram by as little as lets its
// buckets fit. So the SDK's exponential histogram with the same maximum
// size and scale, fed the same values, has the same Scale and buckets, but
// where a value is within a rounding error of a bucket's bound, which the
// SDK finds with a logarithm and this package with a table.
//
// Read each point's scale from its Scale field (scale in OTLP): points of
// one metric may differ, and a point's scale changes from one Produce to
// the next as the spread of its spans does, those since the previous
// Produce for a delta point and all of them for a cumulative one. A point
// without a positive span has the maximum scale. At scale s, 2^s buckets
// cover each doubling: the 160 buckets of the default cover 1.25 doublings
// at scale 7, a narrow peak, and 10 at scale 4, as from a microsecond to a
// millisecond.
//
// The default maximum scale is 7, not the SDK's 20, because a Snapshot's
// buckets are 128 a doubling, scale 7's, and Values counts all the spans
// of one of its buckets but the smallest and the largest at one value: a
// finer scale splits none of them apart. It only narrows the bucket around
// each value, which tightens the bound below to no better than
// [counter.QuantileError], and halves the spread that a maximum size
// covers at each step. WithMaxScale takes −10, the SDK's least, to 8, the
// finest [export.Exponential] numbers.
//
// # Precision
//
// At scale s the bucket i holds the seconds in (bⁱ, bⁱ⁺¹] with
// b = 2^(2^−s): each bucket's upper bound is b times its lower, a relative
// width of b−1. Values only moves each span to a value
// [counter.Snapshot.Quantile] reports, the mapping from a value to its
// bucket never decreases, and no span is lost or added; so the k-th
// smallest span of the exported histogram is in the bucket that holds the
// Snapshot's k-th, the value Quantile(q) reports for k = ⌈q·n⌉. A quantile
// that a backend reads from the exported buckets and reports as any point
// of that bucket (its lower bound, its upper, or an interpolation between
// them) is within a relative 2^(2^−s)−1 of the Snapshot's, to within a
// rounding error of the bucket's bounds. The Snapshot's is itself within
// [counter.QuantileError] = 1/256 of the exact span, so the backend's is
// within (1+1/256)·2^(2^−s)−1 of the exact span, s being the point's
// Scale:
//
//	scale   of the Snapshot's   of the exact span
//	  8         0.0027              0.0066
//	  7         0.0054              0.0094
//	  6         0.0109              0.0148
//	  5         0.0219              0.0259
//	  4         0.0443              0.0484
//	  3         0.0905              0.0948
//
// Scale 7 is the coarsest whose bound is under one part in a hundred.
// The bound holds only where the buckets reach the backend as they
// are: a pipeline that merges them to a lower scale, to hold fewer
// buckets, widens it as the table does.
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
// first) to this one's, with their own Min and Max; a histogram point that
// holds none has Count 0 and no Min and Max, and is still reported (a
// sum's delta point that counts none is not: see What is exported).
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
// # Families
//
// [Producer.RegisterFamily] registers a [counter.Family]: each of its
// series is a data point of the metric name, and of the sums beside it,
// as one registration of a Source is, with the registration's attributes
// and a string attribute for each of the family's labels, whose key is
// the label's name and whose value is the series' value. The family's
// overflow series, which takes the sets of values past its limit, is the
// point with the registration's attributes and otel.metric.overflow=true,
// the attribute the OpenTelemetry SDK gives its own overflow point, and no
// label's attribute. (The SDK's point has that attribute alone: all its
// attributes are those of measurements, as the labels are here.)
//
// A Family keeps its series for its life, and so does the Producer: each
// series' histogram point is reported by every Produce from the first that
// sees it (its sums' points where they count a span), with a total, a
// Scale and a start of its own, as one registration is, and its points
// follow the family's series in the order it made them, the overflow
// series last. A series' points start at the time of the Produce
// before the first that saw it, or of RegisterFamily where none did: that
// is the StartTime of all its cumulative points and of its first delta
// point. A series the previous Produce did not see was made after it took
// the family's spans, and so holds none from before it; as with Register,
// spans recorded before RegisterFamily are in the first Produce. A
// Produce takes the spans of every series of a Family with one
// [counter.Family.Interval], which passes one memory barrier for them all,
// and gives their points one Time, read after it.
//
// No two points of a metric may have the same attributes, and a family's
// points have attributes of any value: so RegisterFamily and Register
// refuse a registration with [ErrDuplicate], in a [*FamilyError], where a
// point of it and a point of a registered family of the same name could
// have the same attributes, whether or not the family has that series
// yet. So a family of the label route, with the attribute service=api, is
// refused beside a registration with the attributes service=api and
// route="/users", or service=api and otel.metric.overflow=true, and beside
// another family with the same attribute and any labels (their overflow
// points would be alike), or with no attribute and the labels service and
// route; it is taken beside one with service=web, or beside a registration
// with service=api and route=42, an integer. Two families of one name
// need attributes that differ.
//
// The section above holds for a Family as for a Source: from
// RegisterFamily on, only the Producer should call the Family's Interval
// or that of any of its series.
//
// # Cost
//
// A Produce costs, for each registration, one Interval of its Source (for a
// Family, one Family.Interval for all its series, each of which then costs
// as a registration does), and work in proportion to the Interval's buckets
// and to the point's, and not to those of the total: a registration keeps
// its total as figures ([export.Totals]: count, exact sum, bounds, the
// spans counted apart) and as its cumulative point's counts of every bucket
// of its total but the first and the last, at most the maximum size of
// them, and adds each bucket of an Interval to them with a lookup of its
// middle's exponential bucket, worked out for its whole doubling at the
// first Produce that placed a bucket of that doubling. The SDK's
// exponential histogram finds that bucket at each span it records; a
// Producer at each Snapshot bucket of each Interval. Where the Source is a
// [counter.Histogram], or a [counter.Family] (each of its series), the
// buckets of the writers' tallies that its Interval takes (those of
// [counter.Histogram.Record] and of each [counter.Recorder]) are placed as
// the Interval takes them, straight from the tally ([export.Direct]),
// without passing through the Snapshot. A delta point's counts
// are made afresh from the Interval, and the cumulative ones are kept
// current too, so that a temporality selector may change its answer between
// Produces.
//
// It allocates what it returns, and nothing a later Produce changes: per
// Produce the slice of ScopeMetrics, of metrics, with room for the
// histograms', and of the histograms' points (one allocation for the three
// where the Producer has one series: one Source registered, or one Family
// of one series); per name the data of its histogram; where a sum has
// points (a span to count), its data, the slice of its points and room for
// its metric, each grown as append grows a slice; the counts of the
// points with a positive span, 8 bytes a bucket, cut from blocks each
// twice as long as the last (the first as long as the first point's
// counts), up to 4,096 counts or a point's length where that is more, so
// that n points of w buckets take about log₂ n blocks while the blocks
// are short of 4,096 counts and one for each 4,096/w points after, not n
// slices, and at most twice their counts' bytes and a block (where the
// Producer has one series and a
// maximum size of at most DefaultMaxSize, its counts are in that one
// allocation); and the first Produce that sees a family's series makes
// what the Producer keeps of it and its attributes.
// The SDK lets a reader's caller hand the same ResourceMetrics to each
// Collect, for the SDK's own instruments to fill again, but a Producer is
// not handed it, and the caller may keep what a Collect returned. Each
// registration, and each series of a family, keeps its total's figures (56
// bytes), its cumulative point's counts (8 bytes a bucket, at most the
// maximum size), whatever the range of its spans, and the buckets of the
// last six values of its ends (96 bytes), and the Producer one
// Snapshot for the Intervals of Sources (a Family has its own), and for
// each rate of its registrations 464 bytes and 512 more for each doubling
// of spans it placed, where it remembers the places of that doubling's
// buckets. Produce, Register and RegisterFamily may be called from any
// goroutine; they take turns.
package counterotel
