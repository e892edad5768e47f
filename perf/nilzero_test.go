package perf_test

import (
	"errors"
	"testing"

	"github.com/tickstamp/counter/internal/zerocall"
	"github.com/tickstamp/counter/perf"
)

// openZero opens a counter of the zero Options, which are valid (their
// doc: the calling thread's events in user space), and closes it. A
// refusal of the kernel's (an *OpenError: no perf_event_open here, or no
// permission) says nothing of the Options, which the call got past.
func openZero(open func() (func() error, error)) error {
	closeIt, err := open()
	if err == nil {
		return closeIt()
	}
	if _, ok := errors.AsType[*perf.OpenError](err); ok {
		return nil
	}
	return err
}

// TestNilAndZero calls every exported function and method of the package
// with nil and zero values: each is refused with an error, or with a panic
// that says "perf: " and names the call, never a run-time error, except
// where the row says nil or zero is valid.
func TestNilAndZero(t *testing.T) {
	values := []zerocall.Value{
		zerocall.Make(func() perf.Options { return perf.Options{} }),
		zerocall.Make(func() perf.Event { return perf.TaskClock }),
		zerocall.Make(func() []perf.Event { return []perf.Event{perf.TaskClock} }),
	}
	zeroOpts := map[string]func() error{
		"zero opts": func() error {
			return openZero(func() (func() error, error) {
				c, err := perf.Open(perf.Options{}, perf.TaskClock)
				return func() error { return c.Close() }, err
			})
		},
	}
	zeroGroupOpts := map[string]func() error{
		"zero opts": func() error {
			return openZero(func() (func() error, error) {
				g, err := perf.OpenGroup(perf.Options{}, perf.TaskClock)
				return func() error { return g.Close() }, err
			})
		},
	}
	zeroOptsValid := map[string]string{"zero opts": "the zero Options count the calling thread in user space (Options' doc)"}
	zeroReading := map[string]string{"zero r": "the zero Reading counted nothing"}
	zerocall.Run(t, "perf: ", values, []zerocall.Func{
		{Fn: perf.Open, Valid: zeroOptsValid, Custom: zeroOpts},
		{Fn: perf.OpenGroup, Valid: zeroOptsValid, Custom: zeroGroupOpts},

		{Fn: (*perf.Counter).Close},
		{Fn: (*perf.Counter).Disable},
		{Fn: (*perf.Counter).Enable},
		{Fn: (*perf.Counter).Event, Valid: map[string]string{"zero c": "the zero Counter counts the zero Event, no event"}},
		{Fn: (*perf.Counter).Read},
		{Fn: (*perf.Counter).ReadCountAndTime},
		{Fn: (*perf.Counter).Reset},

		{Fn: (*perf.Group).Close},
		{Fn: (*perf.Group).Disable},
		{Fn: (*perf.Group).Enable},
		{Fn: (*perf.Group).Events, Valid: map[string]string{"zero g": "the zero Group counts no events"}},
		{Fn: (*perf.Group).Read},
		{Fn: (*perf.Group).Reset},

		{Fn: (*perf.OpenError).Error, Valid: map[string]string{"zero e": "the zero OpenError names the zero Event"}},
		{Fn: (*perf.OpenError).Unwrap, Valid: map[string]string{"nil e": "a nil *OpenError wraps nothing", "zero e": "nor does one without the kernel's answer"}},

		{Fn: perf.Event.Hardware},
		{Fn: perf.Event.String},
		{Fn: perf.GroupReading.Reading},
		{Fn: perf.Reading.Multiplexed, Valid: zeroReading},
		{Fn: perf.Reading.Scaled, Valid: zeroReading},
		{Fn: perf.Scope.String},
	})
}
