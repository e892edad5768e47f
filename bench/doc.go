// Package bench holds side-by-side benchmarks of counter against its peers,
// and nothing else: its files are tests.
//
//   - BenchmarkRecord and BenchmarkRecordParallel time recording one span,
//     from one goroutine and from several, into counter's Histogram and
//     Recorder, HdrHistogram, Prometheus's classic and native histograms,
//     DDSketch and VictoriaMetrics's Histogram.
//   - BenchmarkMemory measures the memory of a Histogram with one Recorder
//     and of an HdrHistogram.
//   - BenchmarkCollectWhileRecording times collecting a Histogram's
//     interval, and writing a Prometheus histogram, while two goroutines
//     record into it.
//   - BenchmarkHarness sets countertest.Bench beside loov/hrtime's
//     hrtesting.
//
// It is a module of its own, so that the peers are in no go.mod of the
// library or of its exporters. BENCHMARKS.md, at the repository's root,
// gives the figures and the machine that made them. From the repository's
// root, this command reproduces them:
//
//	cd bench && go test -run '^$' -bench . -count 10 -benchmem . | tee /tmp/bench.txt && go run golang.org/x/perf/cmd/benchstat@latest /tmp/bench.txt
package bench
