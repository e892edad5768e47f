package counter_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/zerocall"
)

// hotPath is why a nil receiver of a record is left to Go's nil-pointer
// panic: a check would add a branch to every record.
const hotPath = "a record is the hot path: a nil check would cost every record a branch"

// TestNilAndZero calls every exported function and method of the package
// with nil and zero values: each is refused with an error, or with a panic
// that says "counter: " and names the call, never a run-time error, except
// where the row says nil or zero is valid or leaves it to Go.
func TestNilAndZero(t *testing.T) {
	rate, err := counter.NewTickRate(1e9)
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel() // a Run given it returns at once, where it gets that far
	values := []zerocall.Value{
		zerocall.Make(func() counter.TickRate { return rate }),
		zerocall.Make(func() *counter.TickRate { return new(counter.TickRate) }),
		zerocall.Make(func() counter.Counter { return counter.New(rate) }),
		zerocall.Make[counter.Clock](func() counter.Clock { return counter.Monotonic() }),
		zerocall.Make(func() counter.WatchOptions { return counter.WatchOptions{} }),
		zerocall.Make(func() *counter.Snapshot { return new(counter.Snapshot) }),
		zerocall.Make(counter.NewHistogram),
		zerocall.Make(func() *counter.Recorder { return counter.NewHistogram().Recorder() }),
		zerocall.Make(func() counter.Exemplar { return counter.Exemplar{TraceID: [16]byte{1}, SpanID: [8]byte{2}} }),
		zerocall.Make(func() *counter.Family { return must(counter.NewFamily([]string{"route"}, 0)) }),
		zerocall.Make(func() *counter.Anchor { return must(counter.NewAnchor(counter.Monotonic())) }),
		zerocall.Make(func() *counter.Watch { return must(counter.NewWatch(counter.New(rate), counter.WatchOptions{})) }),
		zerocall.Make[context.Context](func() context.Context { return done }),
		zerocall.Make(func() time.Duration { return 10 * time.Millisecond }),
		zerocall.Make[io.Writer](func() io.Writer { return io.Discard }),
		zerocall.Make(func() []byte { return []byte("1 GHz") }),
		zerocall.Make(func() []string { return []string{"GET"} }),
		zerocall.Make(func() func([]string, *counter.Snapshot) { return func([]string, *counter.Snapshot) {} }),
	}
	zeroRate := "the zero TickRate converts every span to zero (TickRate's doc)"
	zeroCounter := "the zero Counter reads as well as any, at the zero TickRate (Counter's doc)"
	zeroSnapshot := "the zero Snapshot is empty and ready (Snapshot's doc)"
	zeroSummary := "the zero Summary is of no spans"
	zerocall.Run(t, "counter: ", values, []zerocall.Func{
		{Fn: counter.Discover},
		{Fn: counter.DiscoverDetails},
		{Fn: counter.MeasureRate},
		{Fn: counter.Monotonic},
		{Fn: counter.New, Valid: map[string]string{"zero rate": "New checks nothing: the caller vouches for the rate (New's doc)"}},
		{Fn: counter.NewAnchor},
		{Fn: counter.NewFamily},
		{Fn: counter.NewHistogram},
		{Fn: counter.NewTickRate},
		{Fn: counter.NewWatch, Valid: map[string]string{"zero opts": "the zero WatchOptions are the defaults"}},
		{Fn: counter.ParseTickRate},

		{Fn: (*counter.Anchor).Bound},
		{Fn: (*counter.Anchor).Drift},
		{Fn: (*counter.Anchor).Reanchor},
		{Fn: (*counter.Anchor).Run},
		{Fn: (*counter.Anchor).Time},

		{Fn: (*counter.Family).ForgetIdle, Valid: map[string]string{"zero f": "the zero Family has no series to forget"}},
		{Fn: (*counter.Family).Get},
		{Fn: (*counter.Family).Interval},
		{Fn: (*counter.Family).Labels, Valid: map[string]string{"zero f": "the zero Family has no labels, which is how an exporter tells it"}},
		{Fn: (*counter.Family).Len, Valid: map[string]string{"zero f": "the zero Family holds no series"}},
		{Fn: (*counter.Family).With},

		{Fn: (*counter.Histogram).Interval, Valid: map[string]string{"zero dst": zeroSnapshot}},
		{Fn: (*counter.Histogram).Record, Runtime: map[string]string{"nil h": hotPath}},
		{Fn: (*counter.Histogram).RecordExemplar, Runtime: map[string]string{"nil h": hotPath, "all nil": hotPath}, Valid: map[string]string{"zero e": "a zero Exemplar is none: the span is recorded without one (Exemplar's doc)"}},
		{Fn: (*counter.Histogram).Recorder},

		{Fn: (*counter.Recorder).Close},
		{Fn: (*counter.Recorder).Record, Runtime: map[string]string{"nil r": hotPath}},
		{Fn: (*counter.Recorder).RecordCPU, Runtime: map[string]string{"nil r": hotPath}},
		{Fn: (*counter.Recorder).RecordExemplar, Runtime: map[string]string{"nil r": hotPath, "all nil": hotPath}, Valid: map[string]string{"zero e": "a zero Exemplar is none: the span is recorded without one (Exemplar's doc)"}},

		{Fn: (*counter.Snapshot).Buckets, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Count, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Draw, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Exemplars, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Max, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Mean, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Merge, Valid: map[string]string{"zero s": zeroSnapshot, "zero o": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Migrated, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Min, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Negative, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Quantile, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).QuantileLess, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Reset, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).String, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Sum, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Sum128, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).Summary, Valid: map[string]string{"zero s": zeroSnapshot}},
		{Fn: (*counter.Snapshot).UnknownCPU, Valid: map[string]string{"zero s": zeroSnapshot}},

		{Fn: (*counter.TickRate).UnmarshalText, Valid: map[string]string{"zero r": "UnmarshalText overwrites the rate"}},
		{Fn: counter.TickRate.Hertz, Valid: map[string]string{"zero r": zeroRate}},
		{Fn: counter.TickRate.MarshalText, Valid: map[string]string{"zero r": zeroRate}},
		{Fn: counter.TickRate.String, Valid: map[string]string{"zero r": zeroRate}},
		{Fn: counter.TickRate.Ticks, Valid: map[string]string{"zero r": zeroRate}},
		{Fn: counter.Tickdelta.Duration, Valid: map[string]string{"zero r": zeroRate}},
		{Fn: counter.Tickdelta.Nanoseconds, Valid: map[string]string{"zero r": zeroRate}},
		{Fn: counter.Tickdelta.Seconds, Valid: map[string]string{"zero r": zeroRate}},
		{Fn: counter.Tickdelta.String},
		{Fn: counter.Tickstamp.String},
		{Fn: counter.Tickstamp.Sub},

		{Fn: counter.Counter.Begin, Valid: map[string]string{"zero c": zeroCounter}},
		{Fn: counter.Counter.End, Valid: map[string]string{"zero c": zeroCounter}},
		{Fn: counter.Counter.Floor, Valid: map[string]string{"zero c": zeroCounter, "zero dst": zeroSnapshot}},
		{Fn: counter.Counter.Now, Valid: map[string]string{"zero c": zeroCounter}},
		{Fn: counter.Counter.NowCPU, Valid: map[string]string{"zero c": zeroCounter}},
		{Fn: counter.Counter.NowUnordered, Valid: map[string]string{"zero c": zeroCounter}},
		{Fn: counter.Counter.Rate, Valid: map[string]string{"zero c": zeroCounter}},
		{Fn: counter.Counter.Since, Valid: map[string]string{"zero c": zeroCounter}},

		{Fn: counter.Event.String, Valid: map[string]string{"zero e": "the zero Event prints its kind and figures"}},
		{Fn: counter.EventKind.String},
		{Fn: counter.RateSource.String},
		{Fn: counter.Summary.String, Valid: map[string]string{"zero m": zeroSummary}},
		{Fn: counter.WatchState.String},

		{Fn: (*counter.Watch).Refined},
		{Fn: (*counter.Watch).Run},
		{Fn: (*counter.Watch).State},
	})
}

// must returns v, and panics where err is not nil: for the values a
// zerocall.Value makes, which have no t to fail.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
