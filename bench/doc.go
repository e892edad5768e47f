// Package bench holds side-by-side benchmarks of counter against its peers,
// the command that draws the README's figure of them, and a test of the
// two exporters at once.
//
//   - BenchmarkRecord and BenchmarkRecordParallel time recording one span,
//     from one goroutine and from several, into counter's Histogram and
//     Recorder, HdrHistogram, Prometheus's classic and native histograms,
//     DDSketch and VictoriaMetrics's Histogram; BenchmarkSeriesEightWriters
//     times eight goroutines at GOMAXPROCS 8 recording into one series,
//     for A/B runs of two builds.
//   - BenchmarkExemplar times a record with an exemplar, kept and not,
//     beside one without, against client_golang's ObserveWithExemplar and
//     the OpenTelemetry SDK's Record in a sampled span's context.
//   - BenchmarkMemory measures the memory of a Histogram with one Recorder
//     and of an HdrHistogram; BenchmarkMemorySeries what a series of each
//     system holds once it has recorded the spans and been collected.
//   - TestFamily2000Memory, a test, measures 2,000 series written by 64
//     goroutines at GOMAXPROCS 64 and collected once, ours against
//     client_golang's HistogramVec (native and classic buckets) and the
//     OpenTelemetry SDK's exponential histogram, in one run, and fails
//     where ours holds more than 8 MB.
//   - BenchmarkExportPrometheus and BenchmarkExportOTel time a collection
//     of one histogram against client_golang's and the OpenTelemetry
//     SDK's own, and BenchmarkExportPrometheusFamily and
//     BenchmarkExportOTelFamily a collection of a Family of 200 series
//     against a HistogramVec and 200 attribute sets.
//   - BenchmarkRequest times the instrumentation of one request, two
//     clock reads and a record labelled by method and route, with a Family
//     against time.Now with Prometheus's HistogramVec and with the
//     OpenTelemetry SDK's histogram, on one goroutine and on two;
//     BenchmarkRequestMiddleware serves a request through counterhttp's
//     Handler and through promhttp's InstrumentHandlerDuration.
//   - BenchmarkCollectWhileRecording times collecting a Histogram's
//     interval, and writing a Prometheus histogram, while two goroutines
//     record into it.
//   - BenchmarkHarness sets countertest.Bench beside loov/hrtime's
//     hrtesting.
//   - TestFamilyFeedBothExporters shares one Family between counterprom
//     and counterotel through an export.FamilyFeed, and checks that each
//     gets every span: this is the one module that has both.
//   - BenchmarkRead sets each of Counter's reads beside its instructions
//     alone and beside a call of its stub with no Go code around it, from
//     internal/bare, whose assembly internal/bare/baregen writes.
//   - TestExemplarEndToEnd, a test, follows the trace of a slow request
//     from a service traced by otelhttp and timed by counterhttp to its
//     exemplar in an OpenMetrics scrape and in an OTLP export, both over
//     127.0.0.1.
//   - The command figure draws the README's figure: each way of converting
//     a span to time.Duration, and its error across the range of spans
//     (cd bench && go run ./figure > figure/conversion-error.svg).
//
// It is a module of its own, so that the peers, and otelhttp, are in no
// go.mod of the library or of its exporters. BENCHMARKS.md, at the repository's root,
// gives the figures and the machine that made them. From the repository's
// root, this command reproduces them:
//
//	cd bench && go test -run '^$' -bench . -count 10 -benchmem . | tee /tmp/bench.txt && go run golang.org/x/perf/cmd/benchstat@latest /tmp/bench.txt
package bench
