package counterhttp_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/counterhttp"
)

// Handler wraps a service's ServeMux, so that every request is timed into
// the series of its method, route pattern and status. Here three requests
// go straight to the handler; a service serves it with http.ListenAndServe
// and exports f with counterprom or counterotel.
func ExampleHandler() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	f, err := counter.NewFamily([]string{"method", "route", "status"}, 0)
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "item "+r.PathValue("id"))
	})
	h := counterhttp.Handler(f, c, mux)

	for _, path := range []string{"/items/1", "/items/2", "/nowhere"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	f.Interval(func(values []string, s *counter.Snapshot) {
		fmt.Printf("%q: %d\n", values, s.Count())
	})
	// Output:
	// ["GET" "GET /items/{id}" "200"]: 2
	// ["GET" "unmatched" "404"]: 1
}

// A service wraps its ServeMux once, and every request it serves is
// timed; it exports f as any Family, with counterprom or counterotel.
func Example_serve() {
	c, err := counter.Discover()
	if err != nil {
		c = counter.Monotonic()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "item "+r.PathValue("id"))
	})
	f, err := counter.NewFamily([]string{"method", "route", "status"}, 0)
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe("localhost:8080", counterhttp.Handler(f, c, mux)))
}
