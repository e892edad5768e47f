package counterhttp

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// unmatched is the route of a request no ServeMux pattern matched. No
// pattern can be it: a pattern's path starts with "/".
const unmatched = "unmatched"

// otherMethod is the method of a request whose method is none of
// net/http's Method constants.
const otherMethod = "_OTHER"

// methodValue returns the method value of a request's method m: m where it
// is one of net/http's Method constants, compared byte for byte as
// methods are, and otherMethod where it is not.
func methodValue(m string) string {
	switch m {
	case http.MethodGet:
		return http.MethodGet
	case http.MethodHead:
		return http.MethodHead
	case http.MethodPost:
		return http.MethodPost
	case http.MethodPut:
		return http.MethodPut
	case http.MethodPatch:
		return http.MethodPatch
	case http.MethodDelete:
		return http.MethodDelete
	case http.MethodConnect:
		return http.MethodConnect
	case http.MethodOptions:
		return http.MethodOptions
	case http.MethodTrace:
		return http.MethodTrace
	}
	return otherMethod
}

// routeValue returns the route value of request r, answered with status:
// its pattern, or unmatched where it has none. A CONNECT request that the
// mux redirects to add a trailing slash has its own path as its pattern
// (net/http's findHandler, Go 1.22 to 1.26 at least), a value a client
// chooses: it counts as unmatched too.
func routeValue(r *http.Request, status int) string {
	if r.Pattern == "" || r.Method == http.MethodConnect && status == http.StatusTemporaryRedirect {
		return unmatched
	}
	return r.Pattern
}

// statusDigits holds the three digits of each status code from 100 to 999,
// in order, made on first use.
var statusDigits = sync.OnceValue(func() string {
	var b strings.Builder
	for code := 100; code <= 999; code++ {
		b.WriteString(strconv.Itoa(code))
	}
	return b.String()
})

// statusValue returns the status value of code, a final status code from
// 100 to 999 as net/http allows, without allocating.
func statusValue(code int) string {
	i := (code - 100) * 3
	return statusDigits()[i : i+3]
}
