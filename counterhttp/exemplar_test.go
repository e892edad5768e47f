package counterhttp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/counterhttp"
	"github.com/tickstamp/counter/internal/race"
)

// traceKey is the context key under which the test's outer middleware puts
// a request's trace id, as a tracing middleware would its span.
type traceKey struct{}

// traced wraps next, putting the request's X-Trace header into its
// context as the trace id.
func traced(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var id [16]byte
		copy(id[:], r.Header.Get("X-Trace"))
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), traceKey{}, id)))
	})
}

// exemplarOf names the trace its context holds, none where it holds none.
func exemplarOf(ctx context.Context) counter.Exemplar {
	id, _ := ctx.Value(traceKey{}).([16]byte)
	return counter.Exemplar{TraceID: id, SpanID: [8]byte{7}}
}

// TestExemplars serves requests on 127.0.0.1 through a tracing middleware
// around Handler with Exemplars: the slowest request's trace names the
// slowest span of its series, with the reading that ended it as At, and
// requests with no trace record none.
func TestExemplars(t *testing.T) {
	f, c := newFamily(t), newCounter()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /work", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("slow") {
			time.Sleep(20 * time.Millisecond)
		}
	})
	srv := httptest.NewServer(traced(counterhttp.Handler(f, c, mux, counterhttp.Exemplars(exemplarOf))))
	t.Cleanup(srv.Close)
	get := func(path, trace string) {
		req, err := http.NewRequest("GET", srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if trace != "" {
			req.Header.Set("X-Trace", trace)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	before := c.Now()
	for i := range 20 {
		get("/work", string(rune('a'+i)))
	}
	get("/work?slow", "the slow request")
	get("/work", "") // untraced
	after := c.Now()
	seen := false
	f.Interval(func(values []string, s *counter.Snapshot) {
		if values[1] != "GET /work" {
			return
		}
		seen = true
		if s.Count() != 22 {
			t.Errorf("%d spans; want 22", s.Count())
		}
		var slowest counter.Exemplar
		var d counter.Tickdelta
		n := 0
		for d, slowest = range s.Exemplars() {
			n++
		}
		var want [16]byte
		copy(want[:], "the slow request")
		if n == 0 || d != s.Max() || slowest.TraceID != want {
			t.Fatalf("the slowest exemplar is %q at %d ticks (of %d); want %q at the max, %d", slowest.TraceID, d, n, want, s.Max())
		}
		if slowest.At < before || slowest.At > after || slowest.SpanID != [8]byte{7} {
			t.Errorf("the exemplar's At %d is outside the requests' [%d, %d], or its span id %x is not the context's", slowest.At, before, after, slowest.SpanID)
		}
	})
	if !seen {
		t.Fatal("no series of the route")
	}
}

// TestExemplarsRefuses: a nil func, and a nil Option, panic with a message.
func TestExemplarsRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func()
		want string
	}{
		{"nil func", func() { counterhttp.Exemplars(nil) }, "counterhttp: Exemplars of a nil func"},
		{"nil option", func() { counterhttp.Handler(newFamily(t), counter.Monotonic(), http.NotFoundHandler(), nil) }, "counterhttp: Handler with a nil Option"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if got := recover(); got != tc.want {
					t.Errorf("panic %v; want %v", got, tc.want)
				}
			}()
			tc.call()
		})
	}
}

// TestExemplarsAllocs: Exemplars adds no allocation to a request.
func TestExemplarsAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector makes some calls allocate")
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) {})
	f, c := newFamily(t), newCounter()
	plain := counterhttp.Handler(f, c, mux)
	with := counterhttp.Handler(f, c, mux, counterhttp.Exemplars(func(context.Context) counter.Exemplar {
		return counter.Exemplar{TraceID: [16]byte{1}}
	}))
	w, r := discard{h: http.Header{}}, httptest.NewRequest("GET", "/items/1", nil)
	with.ServeHTTP(w, r)
	a := testing.AllocsPerRun(1000, func() { plain.ServeHTTP(w, r) })
	b := testing.AllocsPerRun(1000, func() { with.ServeHTTP(w, r) })
	if b != a {
		t.Errorf("a request allocates %v times with Exemplars, %v without; want as many", b, a)
	}
}
