package counterhttp

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

func TestStatusValue(t *testing.T) {
	for code := 100; code <= 999; code++ {
		if got, want := statusValue(code), strconv.Itoa(code); got != want {
			t.Errorf("statusValue(%d) = %q; want %q", code, got, want)
		}
	}
}

func TestMethodValue(t *testing.T) {
	tests := []struct{ method, want string }{
		{http.MethodGet, "GET"},
		{http.MethodHead, "HEAD"},
		{http.MethodPost, "POST"},
		{http.MethodPut, "PUT"},
		{http.MethodPatch, "PATCH"},
		{http.MethodDelete, "DELETE"},
		{http.MethodConnect, "CONNECT"},
		{http.MethodOptions, "OPTIONS"},
		{http.MethodTrace, "TRACE"},
		{"get", "_OTHER"},
		{"PURGE", "_OTHER"},
		{"", "_OTHER"},
	}
	for _, tt := range tests {
		if got := methodValue(tt.method); got != tt.want {
			t.Errorf("methodValue(%q) = %q; want %q", tt.method, got, tt.want)
		}
	}
}

// TestRouteValue checks that a CONNECT request the mux redirects counts as
// unmatched, not under the path net/http gives it as its pattern, while
// other requests count under their pattern.
func TestRouteValue(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/a/{x}/", func(w http.ResponseWriter, r *http.Request) {})
	tests := []struct{ method, path, want string }{
		{"CONNECT", "/a/chosen-by-the-client", unmatched},
		{"GET", "/a/chosen-by-the-client", "/a/{x}/"},
		{"GET", "/a/b/", "/a/{x}/"},
		{"CONNECT", "/a/b/", "/a/{x}/"},
		{"GET", "/elsewhere", unmatched},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(tt.method, tt.path, nil)
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		if got := routeValue(r, w.Code); got != tt.want {
			t.Errorf("%s %s: route %q (pattern %q, status %d); want %q", tt.method, tt.path, got, r.Pattern, w.Code, tt.want)
		}
	}
}
