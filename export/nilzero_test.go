package export_test

import (
	"testing"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/internal/zerocall"
)

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
		zerocall.Make(func() *export.Tap {
			f, err := export.NewFeed(counter.NewHistogram())
			if err != nil {
				t.Fatal(err)
			}
			return f.Tap()
		}),
		zerocall.Make(func() *counter.Family { return newFamily(t, 0, "route") }),
		zerocall.Make[export.FamilySource](func() export.FamilySource { return newFamily(t, 0, "route") }),
		zerocall.Make(func() *export.FamilyFeed { return mustFamilyFeed(t, newFamily(t, 0, "route")) }),
		zerocall.Make(func() *export.FamilyTap { return mustFamilyFeed(t, newFamily(t, 0, "route")).Tap() }),
		zerocall.Make(func() func([]string, *counter.Snapshot) { return func([]string, *counter.Snapshot) {} }),
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

		{Fn: export.NewFeed},
		{Fn: (*export.Feed).Tap},
		{Fn: (*export.Tap).Close, Valid: map[string]string{"zero t": "the zero Tap has nothing to close (its doc)"}},
		{Fn: (*export.Tap).Interval, Valid: map[string]string{"zero t": "the zero Tap reads as empty (its doc)", "zero dst": "an empty Snapshot is a ready dst"}},

		{Fn: export.CheckFamilySource},
		{Fn: export.NewFamilyFeed},
		{Fn: (*export.FamilyFeed).Tap},
		{Fn: (*export.FamilyTap).Close, Valid: map[string]string{"zero t": "the zero FamilyTap has nothing to close (its doc)"}},
		{Fn: (*export.FamilyTap).Interval, Valid: map[string]string{"zero t": "the zero FamilyTap visits nothing (its doc)"}},
		{Fn: (*export.FamilyTap).Labels, Valid: map[string]string{"zero t": "the zero FamilyTap has no labels, which is how an exporter tells it"}},
	})
}
