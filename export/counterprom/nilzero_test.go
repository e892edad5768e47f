package counterprom_test

import (
	"errors"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterprom"
	"github.com/tickstamp/counter/internal/zerocall"
)

// register returns the error a registry's Register returns for c, less
// the registry's words around it: how a Collector reports what is wrong
// with it, New and NewFamily never failing.
func register(c prometheus.Collector) error {
	err := prometheus.NewRegistry().Register(c)
	if inner := errors.Unwrap(err); inner != nil {
		return inner // "descriptor ... is invalid: %w"
	}
	return err
}

// collectError returns the error of the first invalid metric that c's
// Collect sends, nil where every metric is valid.
func collectError(c prometheus.Collector) error {
	ch := make(chan prometheus.Metric, 64)
	c.Collect(ch)
	close(ch)
	for m := range ch {
		if err := m.Write(new(dto.Metric)); err != nil {
			return err
		}
	}
	return nil
}

// TestNilAndZero calls every exported function and method of the package
// with nil and zero values: each is refused with an error (a Collector's
// when it is registered or collected), or with a panic that says
// "counterprom: " and names the call, never a run-time error.
func TestNilAndZero(t *testing.T) {
	r := rate(t)
	opts := counterprom.Opts{Name: "request_duration_seconds"}
	family := func() *counter.Family {
		f, err := counter.NewFamily([]string{"route"}, 0)
		if err != nil {
			panic(err)
		}
		return f
	}
	values := []zerocall.Value{
		zerocall.Make(func() counter.TickRate { return r }),
		zerocall.Make(func() counterprom.Opts { return opts }),
		zerocall.Make[export.Source](func() export.Source { return counter.NewHistogram() }),
		zerocall.Make(family),
		zerocall.Make[export.FamilySource](func() export.FamilySource { return family() }),
		zerocall.Make(func() *counterprom.Collector { return counterprom.New(counter.NewHistogram(), r, opts) }),
		zerocall.Make(func() *counterprom.FamilyCollector { return counterprom.NewFamily(family(), r, opts) }),
		zerocall.Make(func() chan<- *prometheus.Desc { return make(chan *prometheus.Desc, 8) }),
		zerocall.Make(func() chan<- prometheus.Metric { return make(chan prometheus.Metric, 8) }),
	}
	registered := func(out []any) error { return register(out[0].(prometheus.Collector)) }
	// A nil or zero Collector reports on the channel, as one of wrong
	// options does: a panic in Describe would be on the registry's own
	// goroutine, where nothing recovers it.
	describe := func(nilOne, zero prometheus.Collector) map[string]func() error {
		return map[string]func() error{
			"nil c":  func() error { return register(nilOne) },
			"zero c": func() error { return register(zero) },
		}
	}
	collect := func(nilOne, zero prometheus.Collector) map[string]func() error {
		return map[string]func() error{
			"nil c":  func() error { return collectError(nilOne) },
			"zero c": func() error { return collectError(zero) },
		}
	}
	// The zero Anchor in Opts, which Opts's own zero case leaves nil.
	zeroAnchor := counterprom.Opts{Name: "request_duration_seconds", Anchor: new(counter.Anchor)}
	zerocall.Run(t, "counterprom: ", values, []zerocall.Func{
		{Fn: counterprom.New, Later: registered, Custom: map[string]func() error{
			"zero opts.Anchor": func() error { return register(counterprom.New(counter.NewHistogram(), r, zeroAnchor)) },
		}},
		{Fn: counterprom.NewFamily, Later: registered, Custom: map[string]func() error{
			"zero opts.Anchor": func() error { return register(counterprom.NewFamily(family(), r, zeroAnchor)) },
		}},
		{Fn: (*counterprom.Collector).Describe, Custom: describe((*counterprom.Collector)(nil), new(counterprom.Collector))},
		{Fn: (*counterprom.Collector).Collect, Custom: collect((*counterprom.Collector)(nil), new(counterprom.Collector))},
		{Fn: (*counterprom.FamilyCollector).Describe, Custom: describe((*counterprom.FamilyCollector)(nil), new(counterprom.FamilyCollector))},
		{Fn: (*counterprom.FamilyCollector).Collect, Custom: collect((*counterprom.FamilyCollector)(nil), new(counterprom.FamilyCollector))},
	}, "export: ")
}
