package counterhttp_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/counterhttp"
	"github.com/tickstamp/counter/internal/race"
)

// A series is the label values of one series: method, route and status.
type series [3]string

// newFamily returns an empty Family of the three labels Handler wants.
func newFamily(t *testing.T) *counter.Family {
	t.Helper()
	f, err := counter.NewFamily([]string{"method", "route", "status"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// newCounter returns the discovered Counter, or the monotonic one where
// discovery refuses, as a service does.
func newCounter() counter.Counter {
	c, err := counter.Discover()
	if err != nil {
		return counter.Monotonic()
	}
	return c
}

// counts takes f's Interval and returns each series' count, and its
// snapshot's minimum and maximum.
func counts(f *counter.Family) (map[series]uint64, map[series][2]counter.Tickdelta) {
	n := map[series]uint64{}
	bounds := map[series][2]counter.Tickdelta{}
	f.Interval(func(values []string, s *counter.Snapshot) {
		k := series(values)
		n[k] = s.Count()
		bounds[k] = [2]counter.Tickdelta{s.Min(), s.Max()}
	})
	return n, bounds
}

// newServer starts a server on 127.0.0.1 whose handler is Handler of f
// around mux, with net/http's logs of the panics the tests cause
// discarded.
func newServer(t *testing.T, f *counter.Family, c counter.Counter, mux *http.ServeMux) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(counterhttp.Handler(f, c, mux))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// routes returns the mux of TestServer: several routes, methods and
// statuses, and handlers that panic.
func routes(t *testing.T) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") == "missing" {
			http.NotFound(w, r)
			return
		}
		_, _ = io.WriteString(w, "item "+r.PathValue("id"))
	})
	mux.HandleFunc("POST /items", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
	})
	mux.HandleFunc("/quiet", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/early", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusEarlyHints)
		w.WriteHeader(http.StatusAccepted)
	})
	mux.HandleFunc("/twice", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		w.WriteHeader(http.StatusInternalServerError) // ignored by net/http
	})
	mux.HandleFunc("/dir/", func(w http.ResponseWriter, r *http.Request) {})
	api := http.NewServeMux() // a mux within the mux
	api.HandleFunc("GET /api/items", func(w http.ResponseWriter, r *http.Request) {})
	mux.Handle("/api/", api)
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
	})
	mux.HandleFunc("/panic", func(w http.ResponseWriter, r *http.Request) {
		panic("a handler's bug")
	})
	mux.HandleFunc("/abort", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		panic(http.ErrAbortHandler)
	})
	mux.HandleFunc("/stream", func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if err := rc.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
			t.Errorf("SetWriteDeadline through the middleware: %v", err)
		}
		w.(http.Flusher).Flush()
		if err := rc.Flush(); err != nil {
			t.Errorf("ResponseController's Flush through the middleware: %v", err)
		}
		w.WriteHeader(http.StatusTeapot) // too late: the flush sent 200
		_, _ = io.WriteString(w, "streamed")
	})
	mux.HandleFunc("/copy", func(w http.ResponseWriter, r *http.Request) {
		src := struct{ io.Reader }{strings.NewReader(strings.Repeat("x", 4096))} // no WriteTo
		_, _ = io.Copy(w, src)
		w.WriteHeader(http.StatusTeapot) // too late: the copy sent 200
	})
	// A body written before a status sends 200, by Write or WriteString.
	mux.HandleFunc("/late-write", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("body"))
		w.WriteHeader(http.StatusTeapot)
	})
	mux.HandleFunc("/late-string", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "body")
		w.WriteHeader(http.StatusTeapot)
	})
	mux.HandleFunc("/hijack", func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Errorf("Hijack through the middleware: %v", err)
			return
		}
		defer conn.Close()
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nhijacked")
		_ = buf.Flush()
	})
	return mux
}

// TestServer sends requests of several routes, methods and statuses, some
// unmatched and some whose handlers panic, to a server on 127.0.0.1, and
// checks each request's series and the counts.
func TestServer(t *testing.T) {
	f, c := newFamily(t), newCounter()
	srv := newServer(t, f, c, routes(t))
	// No connection is reused, so that the client never retries a request
	// whose connection the server closed after a panic.
	client := &http.Client{
		Transport:     &http.Transport{DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	tests := []struct {
		method, path string
		times        int
		status       int // what the client gets; 0 for a broken connection
		want         series
	}{
		{"GET", "/items/1", 3, 200, series{"GET", "GET /items/{id}", "200"}},
		{"GET", "/items/missing", 2, 404, series{"GET", "GET /items/{id}", "404"}},
		{"HEAD", "/items/1", 1, 200, series{"HEAD", "GET /items/{id}", "200"}},
		{"POST", "/items", 2, 201, series{"POST", "POST /items", "201"}},
		{"GET", "/quiet", 1, 200, series{"GET", "/quiet", "200"}},
		{"GET", "/early", 1, 202, series{"GET", "/early", "202"}},
		{"GET", "/twice", 1, 418, series{"GET", "/twice", "418"}},
		{"GET", "/dir", 1, 307, series{"GET", "/dir/", "307"}}, // the mux's redirect to /dir/
		{"GET", "/nowhere", 2, 404, series{"GET", "unmatched", "404"}},
		{"GET", "/api/items", 1, 200, series{"GET", "GET /api/items", "200"}}, // the inner mux's pattern
		{"GET", "/api/none", 1, 404, series{"GET", "unmatched", "404"}},
		{"DELETE", "/items/1", 1, 405, series{"DELETE", "unmatched", "405"}},
		{"PURGE", "/items/1", 1, 405, series{"_OTHER", "unmatched", "405"}},
		{"get", "/quiet", 1, 200, series{"_OTHER", "/quiet", "200"}}, // methods are case-sensitive
		{"GET", "/panic", 2, 0, series{"GET", "/panic", "500"}},
		{"GET", "/abort", 1, 0, series{"GET", "/abort", "202"}},
		{"GET", "/stream", 1, 200, series{"GET", "/stream", "200"}},
		{"GET", "/copy", 1, 200, series{"GET", "/copy", "200"}},
		{"GET", "/late-write", 1, 200, series{"GET", "/late-write", "200"}},
		{"GET", "/late-string", 1, 200, series{"GET", "/late-string", "200"}},
		{"GET", "/hijack", 1, 200, series{"GET", "/hijack", "200"}},
		{"GET", "/slow", 1, 200, series{"GET", "/slow", "200"}},
	}
	want := map[series]uint64{}
	for _, tt := range tests {
		for range tt.times {
			req, err := http.NewRequest(tt.method, srv.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Do(req)
			switch {
			case tt.status == 0 && err == nil:
				resp.Body.Close()
				t.Errorf("%s %s: status %d; want a broken connection", tt.method, tt.path, resp.StatusCode)
			case tt.status != 0 && err != nil:
				t.Errorf("%s %s: %v", tt.method, tt.path, err)
			case tt.status != 0:
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tt.status {
					t.Errorf("%s %s: status %d; want %d", tt.method, tt.path, resp.StatusCode, tt.status)
				}
			}
		}
		want[tt.want] += uint64(tt.times)
	}
	srv.Close() // waits for every handler to return
	got, bounds := counts(f)
	for k, n := range want {
		if got[k] != n {
			t.Errorf("series %q: %d spans; want %d", k, got[k], n)
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("series %q: %d spans; want none", k, n)
		}
	}
	// The slow handler sleeps 20 ms; a span covers it, and none is
	// negative or absurd.
	if d := bounds[series{"GET", "/slow", "200"}][0].Duration(c.Rate()); d < 20*time.Millisecond {
		t.Errorf("the slow request's span is %v; want at least 20ms", d)
	}
	for k, b := range bounds {
		if b[0] < 0 || b[1].Duration(c.Rate()) > 10*time.Second {
			t.Errorf("series %q: spans from %v to %v ticks; want within 0 to 10s", k, b[0], b[1])
		}
	}
}

// TestConcurrent sends requests from several goroutines at once over
// connections kept alive, and checks that every one is counted once.
func TestConcurrent(t *testing.T) {
	f, c := newFamily(t), newCounter()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /a/{id}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "a")
	})
	mux.HandleFunc("POST /b", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	srv := newServer(t, f, c, mux)
	const goroutines, each = 8, 50
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				method, path := "GET", fmt.Sprintf("/a/%d", i)
				switch (g + i) % 3 {
				case 1:
					method, path = "POST", "/b"
				case 2:
					path = "/c"
				}
				req, err := http.NewRequest(method, srv.URL+path, nil)
				if err != nil {
					t.Error(err)
					return
				}
				resp, err := srv.Client().Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	srv.Close()
	want := map[series]uint64{}
	for g := range goroutines {
		for i := range each {
			want[[]series{
				{"GET", "GET /a/{id}", "200"},
				{"POST", "POST /b", "204"},
				{"GET", "unmatched", "404"},
			}[(g+i)%3]]++
		}
	}
	got, _ := counts(f)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("counts %v; want %v", got, want)
	}
}

// discard is a ResponseWriter that writes nothing and allocates nothing,
// with WriteString as net/http's has.
type discard struct{ h http.Header }

func (discard) WriteString(s string) (int, error) { return len(s), nil }

func (d discard) Header() http.Header       { return d.h }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}

// TestAllocs checks that the middleware adds one allocation to a request
// whose series exists, the writer that keeps the status, and no more: its
// WriteString passes a string on without copying it.
func TestAllocs(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector makes some calls allocate")
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "item ")
		_, _ = io.WriteString(w, r.PathValue("id"))
	})
	h := counterhttp.Handler(newFamily(t), newCounter(), mux)
	w, r := discard{h: http.Header{}}, httptest.NewRequest("GET", "/items/1", nil)
	h.ServeHTTP(w, r) // the series is made
	bare := testing.AllocsPerRun(1000, func() { mux.ServeHTTP(w, r) })
	timed := testing.AllocsPerRun(1000, func() { h.ServeHTTP(w, r) })
	t.Logf("allocations a request: %v without the middleware, %v with it", bare, timed)
	if timed-bare != 1 {
		t.Errorf("the middleware adds %v allocations a request; want 1", timed-bare)
	}
}

// TestHandlerRefuses checks that Handler panics, with a message that says
// why, for a nil Family or handler and a Family without three labels.
func TestHandlerRefuses(t *testing.T) {
	two, err := counter.NewFamily([]string{"method", "route"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		f    *counter.Family
		next http.Handler
		want string
	}{
		{"nil family", nil, http.NotFoundHandler(), "counterhttp: Handler of a nil Family: make one with counter.NewFamily"},
		{"zero family", new(counter.Family), http.NotFoundHandler(), `counterhttp: Handler of a family of 0 labels []; want three: the method, the route and the status`},
		{"two labels", two, http.NotFoundHandler(), `counterhttp: Handler of a family of 2 labels ["method" "route"]; want three: the method, the route and the status`},
		{"nil next", newFamily(t), nil, "counterhttp: Handler of a nil next handler"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if got := recover(); got != tt.want {
					t.Errorf("panic %v; want %v", got, tt.want)
				}
			}()
			counterhttp.Handler(tt.f, counter.Monotonic(), tt.next)
		})
	}
}

// readFromWriter is a ResponseWriter whose ReadFrom counts its calls.
type readFromWriter struct {
	*httptest.ResponseRecorder
	calls int
}

func (w *readFromWriter) ReadFrom(src io.Reader) (int64, error) {
	w.calls++
	return io.Copy(w.ResponseRecorder, src)
}

// TestWriterPassesThrough checks that the writer next sees reaches the
// optional methods of the one it wraps: io.Copy its ReadFrom, and
// Unwrap it; and that where the wrapped writer cannot hijack, Hijack
// says so with http.ErrNotSupported.
func TestWriterPassesThrough(t *testing.T) {
	f := newFamily(t)
	w := &readFromWriter{ResponseRecorder: httptest.NewRecorder()}
	var unwrapped http.ResponseWriter
	var hijackErr error
	h := counterhttp.Handler(f, counter.Monotonic(), http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		unwrapped = rw.(interface{ Unwrap() http.ResponseWriter }).Unwrap()
		_, _, hijackErr = rw.(http.Hijacker).Hijack()
		_, _ = io.Copy(rw, struct{ io.Reader }{strings.NewReader("copied")}) // no WriteTo
	}))
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	if w.calls != 1 || w.Body.String() != "copied" {
		t.Errorf("ReadFrom called %d times, body %q; want once, %q", w.calls, w.Body.String(), "copied")
	}
	if unwrapped != w {
		t.Errorf("Unwrap returned %T; want the wrapped writer", unwrapped)
	}
	if !errors.Is(hijackErr, http.ErrNotSupported) {
		t.Errorf("Hijack of a recorder: %v; want an error that wraps http.ErrNotSupported", hijackErr)
	}
	got, _ := counts(f)
	if want := (series{"GET", "unmatched", "200"}); len(got) != 1 || got[want] != 1 {
		t.Errorf("counts %v; want %q once", got, want)
	}
}
