// Package counterhttp times HTTP requests with the processor's counter: a
// [net/http] middleware that records the span of each request into a
// [counter.Family] whose series are keyed by the request's method, the
// [http.ServeMux] pattern that matched it, and the response's status code.
//
//	f, err := counter.NewFamily([]string{"method", "route", "status"}, 0)
//	// ... register f with an exporter, and the routes with mux
//	log.Fatal(http.ListenAndServe(addr, counterhttp.Handler(f, c, mux)))
//
// It uses the standard library and the counter package alone; export the
// Family with counterprom or counterotel, as any other.
package counterhttp

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/tickstamp/counter"
)

// Handler returns a handler that calls next for each request and records
// the request's span, in ticks of c, into the series of f keyed by its
// method, route and status, in that order: f must have three labels,
// whatever their names, or Handler panics, as it does for a nil f or next.
//
// A span runs from when the handler is called, once net/http has read the
// request's header, to when next returns; net/http may still be flushing
// the response's buffered body then. The values are bounded:
//
//   - method is the request's method where it is one of net/http's nine
//     Method constants (RFC 9110's eight and PATCH), and "_OTHER", as
//     OpenTelemetry's HTTP conventions name it, for any other;
//   - route is the pattern of the [http.ServeMux] that matched the request
//     (its [http.Request.Pattern], such as "GET /items/{id}"), and
//     "unmatched" where none did: a 404 or 405 of the mux, a CONNECT request
//     it redirects (net/http gives that its own path as pattern), or a next
//     that is no ServeMux;
//   - status is the first final status code the handler wrote, 1xx
//     informational responses aside, and "200" where it returned having
//     written none, as net/http then sends; a handler that hijacked the
//     connection wrote its response past the middleware, which counts it
//     as 200 too.
//
// The route is read after next returns, from the request Handler passed
// on: next must be the ServeMux, or hand it that same *http.Request. A
// middleware between the two that passes on a copy (r.WithContext,
// http.StripPrefix) hides the pattern, and every request counts as
// unmatched; wrap such a middleware around Handler instead. The route is
// the innermost ServeMux's where muxes are nested on one request.
//
// A handler that panics, or calls [runtime.Goexit], has its span recorded
// with the status it wrote, or "500" where it wrote none; the panic then
// goes on to net/http untouched, which logs it and closes the connection.
//
// Each request costs two reads of c, a look-up of its series by
// [counter.Family.With], a record, and one allocation: the
// [http.ResponseWriter] that next sees, which keeps the status. That
// writer passes everything on, has the optional methods that type
// assertions look for (Flush, Hijack, ReadFrom, WriteString) and Unwrap
// for [http.ResponseController]; where the writer it wraps cannot flush or
// hijack, Flush does nothing and Hijack returns an error that wraps
// [http.ErrNotSupported].
//
// Options add to this: [Exemplars] records each span with the exemplar of
// its request's trace.
func Handler(f *counter.Family, c counter.Counter, next http.Handler, opts ...Option) http.Handler {
	if f == nil {
		panic("counterhttp: Handler of a nil Family: make one with counter.NewFamily")
	}
	if next == nil {
		panic("counterhttp: Handler of a nil next handler")
	}
	if labels := f.Labels(); len(labels) != 3 {
		panic("counterhttp: Handler of a family of " + strconv.Itoa(len(labels)) + " labels " + fmt.Sprintf("%q", labels) + "; want three: the method, the route and the status")
	}
	h := &handler{f: f, c: c, next: next}
	for _, o := range opts {
		if o == nil {
			panic("counterhttp: Handler with a nil Option")
		}
		o(h)
	}
	return h
}

// An Option changes what [Handler]'s middleware records.
type Option func(*handler)

// Exemplars makes Handler record each request's span with the exemplar
// that from returns for the request's context, read once next has
// returned, with the reading of c that ends the span as its At: so the
// slowest request of each Interval names its trace (see
// [counter.Exemplar]). from returns the zero Exemplar for a request it
// cannot name, which then records none; counterotel's exemplar helper
// names the context's sampled span. The context is that of the request
// Handler was given, so the middleware that starts the span must wrap
// Handler, not sit between it and next. Exemplars panics for a nil from.
func Exemplars(from func(context.Context) counter.Exemplar) Option {
	if from == nil {
		panic("counterhttp: Exemplars of a nil func")
	}
	return func(h *handler) { h.exemplar = from }
}

// A handler is the middleware Handler returns.
type handler struct {
	f    *counter.Family
	c    counter.Counter
	next http.Handler
	// exemplar, where not nil, names the trace of a request (Exemplars).
	exemplar func(context.Context) counter.Exemplar
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := h.c.Now()
	sw := &statusWriter{ResponseWriter: w}
	defer h.record(start, r, sw)
	h.next.ServeHTTP(sw, r)
	if sw.status == 0 {
		sw.status = http.StatusOK // what net/http sends for a handler that wrote nothing
	}
}

// record records the span from start to now into the series of r and w's
// status. It runs deferred: a status still 0 is a handler that did not
// return, having written none.
func (h *handler) record(start counter.Tickstamp, r *http.Request, w *statusWriter) {
	end := h.c.Now()
	span := end.Sub(start)
	status := w.status
	if status == 0 {
		status = http.StatusInternalServerError
	}
	series := h.f.With(methodValue(r.Method), routeValue(r, status), statusValue(status))
	if h.exemplar == nil {
		series.Record(span)
		return
	}
	e := h.exemplar(r.Context())
	e.At = end
	series.RecordExemplar(span, e)
}
