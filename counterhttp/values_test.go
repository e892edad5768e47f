package counterhttp

import (
	"net/http"
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
