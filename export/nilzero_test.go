package export_test

import (
	"testing"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/internal/zerocall"
)

// byTheFeedChange marks the cases of export/feed.go, which issue 50's
// one-reader change rewrites, NewFeed's signature with it; what each does
// today is in the case's name and the row.
const byTheFeedChange = "export/feed.go is the one-reader change's (issue 50, items 1 and 3)"

// TestNilAndZero calls every exported function and method of the package
// with nil and zero values: each is refused with an error, or with a panic
// that says "export: " and names the call, never a run-time error, except
// where the row says nil or zero is valid or leaves it to another change.
func TestNilAndZero(t *testing.T) {
	rate, err := counter.NewTickRate(1e9)
	if err != nil {
		t.Fatal(err)
	}
	values := []zerocall.Value{
		zerocall.Make(func() counter.TickRate { return rate }),
		zerocall.Make(func() *counter.Snapshot { return new(counter.Snapshot) }),
		zerocall.Make(counter.NewHistogram),
		zerocall.Make[export.Source](func() export.Source { return counter.NewHistogram() }),
	}
	zeroExp := map[string]string{"zero e": "the zero Exponential is scale 0, base 2 (its doc)"}
	zeroRate := "0 at the zero TickRate (the doc)"
	zerocall.Run(t, "export: ", values, []zerocall.Func{
		{Fn: export.CheckSource},
		{Fn: export.NewExponential},
		{Fn: export.Seconds, Valid: map[string]string{"zero r": zeroRate}},
		{Fn: export.SumSeconds, Valid: map[string]string{"zero s": "an empty Snapshot sums to 0", "zero r": zeroRate}},
		{Fn: export.Values, Valid: map[string]string{"zero s": "an empty Snapshot has no values"}},
		{Fn: export.Exponential.Index, Valid: zeroExp},
		{Fn: export.Exponential.Lower, Valid: zeroExp},
		{Fn: export.Exponential.Scale, Valid: zeroExp},

		// Today NewFeed takes a nil or zero h, and its Tap then panics
		// with the Histogram's message.
		{Fn: export.NewFeed, Skip: map[string]string{"nil h": byTheFeedChange, "zero h": byTheFeedChange}},
		{Fn: (*export.Feed).Tap,
			Runtime: map[string]string{"nil f": byTheFeedChange},
			Skip:    map[string]string{"zero f": byTheFeedChange}},
		// Today a zero Tap reads as empty and closes, and a nil dst
		// panics with the Snapshot's message.
		{Fn: (*export.Tap).Close,
			Runtime: map[string]string{"nil t": byTheFeedChange},
			Skip:    map[string]string{"zero t": byTheFeedChange}},
		{Fn: (*export.Tap).Interval,
			Runtime: map[string]string{"nil t": byTheFeedChange, "all nil": byTheFeedChange},
			Skip:    map[string]string{"zero t": byTheFeedChange, "nil dst": byTheFeedChange, "zero dst": byTheFeedChange + ": a valid Tap needs NewFeed"}},
	})
}
