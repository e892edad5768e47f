// Package counterotel exports [counter.Histogram]s to OpenTelemetry: a
// [Producer] that a reader of the OpenTelemetry SDK
// (go.opentelemetry.io/otel/sdk/metric) collects beside its own
// instruments, registered on it with metric.WithProducer.
//
// # What is exported
//
// Each name given to [Producer.Register] is one metric, an exponential
// histogram of float64 seconds (unit "s"), with one data point for each
// registration of that name, told apart by its attributes, and the
// description [Producer.Describe] gives it ([Producer.RegisterFamily] adds
// a point for each series of a [counter.Family]: see Families). A data
// point holds the spans that its registration's [export.Source] handed
// over: Count, Min and Max exactly (Min and Max converted with
// [export.Seconds], and left undefined where the point holds no span), Sum
// as [export.SumSeconds] gives it for the Snapshot those spans would merge
// into, the spans of 0 ticks in ZeroCount (ZeroThreshold 0), and every
// other span in the positive bucket, at the point's Scale, that holds its
// value of [export.Values] in seconds, the value in the Snapshot of the
// Interval that took it. Positive buckets run from the first that holds a
// span to the last, empty ones between included.
//
// Negative spans and spans whose thread changed CPU, which a Snapshot
// counts apart, are two monotonic sums of int64 beside the histogram, named
// name+".negative" and name+".migrated", in unit "{span}", with the same
// attributes: every span recorded is in exactly one of the three. A sum
// has a point for a registration once it counts one of its spans, as the
// SDK's counters have one for a set of attributes once it is measured: a
// cumulative sum from the first such span on, a delta sum in each Produce
// that takes one. A sum with no point is not exported, so that spans that
// are all positive and stay on their CPU export a histogram alone.
//
// # Scale and size
//
// A point holds at most a maximum size of positive buckets,
// [DefaultMaxSize] = 160 unless [WithMaxSize] sets another, as the
// OpenTelemetry SDK's exponential histograms do. Its buckets start at a
// maximum scale ([DefaultMaxScale] = 7 unless [WithMaxScale] sets another),
// and where a value's bucket would take them past the maximum size they
// are lowered by as few scales as make room, bucket i at scale s being
// bucket i>>1 at scale s−1. This is the SDK's rule: so a point's Scale is
// the finest, up to the maximum, at which all its values fit, and the SDK's
// exponential histogram with the same maximum size and scale and the same
// temporality, fed the same values, has the same Scale and buckets, but
// where a value is within a rounding error of a bucket's bound. A
// cumulative point's scale never rises again; a delta point's starts at
// the maximum at each Produce, and a point without a positive span has
// the maximum scale. Read each point's scale from its Scale field (scale
// in OTLP): points of one metric may differ. At scale s, 2^s buckets cover
// each doubling: the default 160 cover 1.25 doublings at scale 7, and 10
// at scale 4, as from a microsecond to a millisecond.
//
// The default maximum scale is 7, not the SDK's 20: a Snapshot's buckets
// are 128 a doubling, scale 7's, and [export.Values] counts all the spans
// of one of them but the smallest and the largest at one value, so a finer
// scale splits none of them apart. It only narrows the bucket around each
// value, which tightens the bound below to no better than
// [counter.QuantileError], and halves the spread that a maximum size
// covers. WithMaxScale takes −10, the SDK's least, to 8, the finest
// [export.Exponential] numbers.
//
// # Precision
//
// Each span is counted at a value within [counter.QuantileError] = 1/256
// of it, relatively, and a larger value is never in a lower bucket; so the
// k-th smallest value of a point is within QuantileError of its k-th
// smallest span. At scale s the bucket i holds the seconds in (bⁱ, bⁱ⁺¹]
// with b = 2^(2^−s). A quantile that a backend reads from the exported
// buckets as any point of the bucket of the k-th value (its lower bound,
// its upper, or between) is therefore within (1+QuantileError)·b−1 of the
// k-th smallest span, relatively, to within a rounding error of the
// bucket's bounds:
//
//	scale   bound
//	  8     0.0066
//	  7     0.0094
//	  6     0.0148
//	  5     0.0259
//	  4     0.0484
//	  3     0.0948
//
// Scale 7 is the coarsest whose bound is under one part in a hundred. The
// bound holds where the buckets reach the backend as they are: a pipeline
// that merges them to a lower scale widens it as the table does.
//
// # Temporality
//
// The SDK does not tell a Producer which temporality its reader asks for:
// give [NewProducer] the reader's selector with [WithTemporalitySelector],
// the one given to the reader or the exporter's Temporality method. Without
// it, every point is cumulative. Each Produce asks the selector, for
// metric.InstrumentKindHistogram for the histograms and
// metric.InstrumentKindCounter for the sums.
//
// A cumulative point holds every span its registration has taken, from
// Register (StartTime) to the Produce (Time), with the Min and Max of all
// time. A delta point holds the spans taken since the previous Produce,
// from that Produce's time (Register's, for the first) to this one's, with
// their own Min and Max; a histogram point that holds none has Count 0 and
// no Min and Max, and is still reported.
//
// # Exemplars
//
// A span recorded with an exemplar, such as
// h.RecordExemplar(d, counterotel.Exemplar(ctx)) in a request traced by
// OpenTelemetry, reaches the histogram point that holds it as one of its
// Exemplars: the trace and span ids, the value in seconds as Min and Max
// convert it, and the time of the exemplar's At by the Anchor of
// [WithAnchor], or, where there is none or At is 0, of the Produce that
// took it. A delta point has the exemplars of the spans it holds that
// [counter.Snapshot.Exemplars] keeps: of each doubling of spans (doublings
// 2¹⁰ apart share one), the slowest recorded with one. A cumulative point
// has, for each such doubling, the exemplar of the latest Produce that took
// one in it, so the slowest of the latest Produce that took any is among
// them. Either has at most ten, from the fastest span to the slowest, and
// none where no span had one. Each series of a Family, and its overflow
// series, keeps its own.
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
//     temporality, each reader sees only the spans since the other's last
//     Produce (cumulative points are right for both). To export one
//     Histogram to two readers, make two Producers and register one Tap of
//     a Feed of it with each.
//   - A Family is shared in the same way, through an [export.FamilyFeed]
//     and an [export.FamilyTap] for each reader.
//
// A second reader that an exporter can see is refused: Register and
// RegisterFamily return an error wrapping [export.ErrSecondReader] for a
// Histogram, Tap, Family or FamilyTap that a Feed, a FamilyFeed, another
// exporter or another registration reads. A registration reads its source
// until the Producer is garbage-collected, or for a Tap or FamilyTap until
// its Close.
//
// Spans a Source had recorded before Register are in the first Produce.
//
// # Families
//
// [Producer.RegisterFamily] registers a [counter.Family]: each of its
// series is a data point of the metric name, and of the sums beside it,
// as one registration of a Source is, with the registration's attributes
// and a string attribute for each of the family's labels, whose key is the
// label's name and whose value is the series' value. The family's overflow
// series, which takes the sets of values past its limit, is the point with
// the registration's attributes and otel.metric.overflow=true, the
// attribute the OpenTelemetry SDK gives its own overflow point, and no
// label's attribute.
//
// A Producer keeps a Family's series as long as the Family does: each
// series' histogram point is reported by every Produce from the first
// that sees it, with a Scale and a start of its own, in the order the
// Family's Interval visits the series and the overflow series last. A
// series' points start at the time of the Produce before the first that
// saw it, or of RegisterFamily where none did; spans recorded before
// RegisterFamily are in the first Produce. A Produce takes the spans of
// every series with one [counter.Family.Interval], and gives their points
// one Time. A series that the Family forgets ([counter.Family.ForgetIdle],
// off by default, as the SDK forgets a delta collection's idle sets) has
// no point from the first Produce whose Interval does not visit it, and
// the Producer keeps nothing of it; where its values come back, their
// point starts anew, counts and start time.
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
// From RegisterFamily on, only the Producer should call the Family's
// Interval or that of any of its series. The Family's second reader is
// refused; a series' second reader, its Histogram read on its own besides,
// is not (a Histogram does not know its Family), and splits that series'
// spans.
//
// # Cost
//
// A Produce costs one Interval of each registered Source (for a Family,
// one Family.Interval for all its series, and a look-up of each by its
// values) and, for each series, work in
// proportion to the buckets of its Interval's Snapshot, a bucket index and
// an add for each of their values, and to the buckets of its point, which
// it copies into what it returns, as it copies the point's exemplars: the
// caller keeps that, and no later Produce changes it. A series keeps its
// count, exact sum, extremes and sums of spans counted apart, and its
// cumulative buckets, at most the maximum size of 8-byte counts whatever
// the range of its spans, and ten exemplars from the first span with one;
// the Producer keeps one Snapshot for its Sources' Intervals, one set of
// buckets for delta points, and for each registration a table of 128
// buckets that places most values without converting them. Produce,
// Register and RegisterFamily may be called from any goroutine; they take
// turns.
package counterotel
