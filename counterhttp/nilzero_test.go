package counterhttp_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/counterhttp"
	"github.com/tickstamp/counter/internal/zerocall"
)

// TestNilAndZero calls Handler with nil and zero values: each is refused
// with a panic that says "counterhttp: " and names the call, never a
// run-time error.
func TestNilAndZero(t *testing.T) {
	values := []zerocall.Value{
		zerocall.Make(func() *counter.Family {
			f, err := counter.NewFamily([]string{"method", "route", "status"}, 0)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}),
		zerocall.Make(counter.Monotonic),
		zerocall.Make[http.Handler](func() http.Handler { return http.NotFoundHandler() }),
		zerocall.Make(func() []counterhttp.Option { return nil }),
		zerocall.Make(func() func(context.Context) counter.Exemplar {
			return func(context.Context) counter.Exemplar { return counter.Exemplar{} }
		}),
	}
	zerocall.Run(t, "counterhttp: ", values, []zerocall.Func{
		{Fn: counterhttp.Handler, Valid: map[string]string{
			"zero c":   "the zero Counter reads the counter as well as any other (its doc); spans are ticks, converted by the exporter",
			"nil opts": "no options: Handler records spans alone",
		}},
		{Fn: counterhttp.Exemplars},
	})
}
