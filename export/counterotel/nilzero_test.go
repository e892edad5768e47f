package counterotel_test

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterotel"
	"github.com/tickstamp/counter/internal/zerocall"
)

// TestNilAndZero calls every exported function and method of the package
// with nil and zero values: each is refused with an error, or with a panic
// that says "counterotel: " and names the call, never a run-time error,
// except where the row says nil or zero is valid.
func TestNilAndZero(t *testing.T) {
	values := []zerocall.Value{
		zerocall.Make(func() string { return "request.duration" }),
		zerocall.Make(func() counter.TickRate { return rate }),
		zerocall.Make[export.Source](func() export.Source { return counter.NewHistogram() }),
		zerocall.Make(func() *counter.Family {
			f, err := counter.NewFamily([]string{"route"}, 0)
			if err != nil {
				panic(err)
			}
			return f
		}),
		zerocall.Make[export.FamilySource](func() export.FamilySource {
			f, err := counter.NewFamily([]string{"route"}, 0)
			if err != nil {
				panic(err)
			}
			return f
		}),
		zerocall.Make(func() []attribute.KeyValue { return []attribute.KeyValue{attribute.String("host", "a")} }),
		zerocall.Make(func() *counterotel.Producer { return counterotel.NewProducer() }),
		zerocall.Make(func() []counterotel.Option {
			return []counterotel.Option{counterotel.WithMaxSize(counterotel.DefaultMaxSize)}
		}),
		zerocall.Make(func() metric.TemporalitySelector { return metric.DefaultTemporalitySelector }),
		zerocall.Make[context.Context](context.Background),
		zerocall.Make(func() *counter.Anchor {
			a, err := counter.NewAnchor(counter.Monotonic())
			if err != nil {
				panic(err)
			}
			return a
		}),
	}
	// refused returns the error of a Producer made with the option that
	// results holds.
	refused := func(results []any) error {
		return counterotel.NewProducer(results[0].(counterotel.Option)).Register("x", counter.NewHistogram(), rate)
	}
	zeroProducer := "the zero Producer is one, with no option (Producer's doc)"
	noAttrs := "no attributes"
	zerocall.Run(t, "counterotel: ", values, []zerocall.Func{
		{Fn: counterotel.NewProducer, Valid: map[string]string{"nil opts": "no options"}},
		{Fn: counterotel.Exemplar, Valid: map[string]string{"nil ctx": "a nil ctx has no span: the zero Exemplar (its doc)"}},
		{Fn: counterotel.WithAnchor, Later: refused, Valid: map[string]string{"nil a": "no anchor: an exemplar's time is the Produce's (its doc)"}},
		{Fn: counterotel.WithMaxScale},
		{Fn: counterotel.WithMaxSize},
		{Fn: counterotel.WithTemporalitySelector, Valid: map[string]string{"nil sel": "a nil sel is the default, cumulative (its doc)"}},
		{Fn: (*counterotel.Producer).Describe, Valid: map[string]string{"zero p": zeroProducer}},
		{Fn: (*counterotel.Producer).Produce, Valid: map[string]string{"zero p": zeroProducer}},
		{Fn: (*counterotel.Producer).Register, Valid: map[string]string{"zero p": zeroProducer, "nil attrs": noAttrs}},
		{Fn: (*counterotel.Producer).RegisterFamily, Valid: map[string]string{"zero p": zeroProducer, "nil attrs": noAttrs}},
		{Fn: (*counterotel.FamilyError).Error, Valid: map[string]string{"zero e": "the zero FamilyError says it has no Err"}},
		{Fn: (*counterotel.FamilyError).Unwrap, Valid: map[string]string{"nil e": "a nil *FamilyError wraps nothing", "zero e": "nor does one without its Err"}},
	})
}
