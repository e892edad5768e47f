package countertest_test

import (
	"errors"
	"testing"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/countertest"
	"github.com/tickstamp/counter/internal/zerocall"
)

// TestNilAndZero calls every exported function and method of the package
// with nil and zero values: each is refused with an error, or with a panic
// that says "countertest: " and names the call, never a run-time error,
// except where the row says nil or zero is valid.
func TestNilAndZero(t *testing.T) {
	rate, err := counter.NewTickRate(1e9)
	if err != nil {
		t.Fatal(err)
	}
	values := []zerocall.Value{
		zerocall.Make(func() counter.TickRate { return rate }),
		zerocall.Make(func() func() { return func() {} }),
	}
	zeroClock := map[string]string{"zero m": "the zero ManualClock reads 0 ticks at the zero TickRate (its doc)"}
	zerocall.Run(t, "countertest: ", values, []zerocall.Func{
		{Fn: countertest.Bench,
			Skip: map[string]string{"zero b": "a testing.B is the testing package's to make: none but new(testing.B) is zero, which no benchmark is given"},
			Custom: map[string]func() error{
				// A benchmark reports through its b: Bench refuses a nil
				// body by failing the benchmark, which then has no result.
				"nil body": func() error {
					if r := testing.Benchmark(func(b *testing.B) { countertest.Bench(b, nil) }); r.N == 0 {
						return errors.New("countertest: Bench failed the benchmark of a nil body")
					}
					return nil
				},
			}},
		{Fn: countertest.NewManualClock, Valid: map[string]string{"zero rate": "NewManualClock takes the rate as given, as counter.New does"}},
		{Fn: (*countertest.ManualClock).Advance, Valid: zeroClock},
		{Fn: (*countertest.ManualClock).AdvanceTicks, Valid: zeroClock},
		{Fn: (*countertest.ManualClock).Now, Valid: zeroClock},
		{Fn: (*countertest.ManualClock).Rate, Valid: zeroClock},
		{Fn: (*countertest.ManualClock).Set, Valid: zeroClock},
	})
}
