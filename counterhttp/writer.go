package counterhttp

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
)

// A statusWriter is the http.ResponseWriter the next handler sees: it
// passes everything to the writer it wraps and keeps the status code.
type statusWriter struct {
	http.ResponseWriter
	// status is the first final status code written, or 200 once a body
	// was; 0 until then.
	status int
}

// WriteHeader keeps code where it is the first final one: net/http sends
// a 1xx other than 101 as an informational response, which a final one
// follows, and ignores every call after the final one.
func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 && (code == http.StatusSwitchingProtocols || code >= 200 && code <= 999) {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// WriteString keeps io.WriteString from copying s: the writer it wraps
// may write it as it is, as net/http's does.
func (w *statusWriter) WriteString(s string) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return io.WriteString(w.ResponseWriter, s)
}

// ReadFrom keeps io.Copy's path to the wrapped writer's ReadFrom, which
// net/http's sends with sendfile. A copy of nothing writes no header.
func (w *statusWriter) ReadFrom(src io.Reader) (int64, error) {
	n, err := io.Copy(w.ResponseWriter, src)
	if w.status == 0 && n > 0 {
		w.status = http.StatusOK
	}
	return n, err
}

// FlushError flushes the wrapped writer as [http.ResponseController] does,
// which sends the header, with status 200 where none was written.
func (w *statusWriter) FlushError() error {
	err := http.NewResponseController(w.ResponseWriter).Flush()
	if w.status == 0 && !errors.Is(err, http.ErrNotSupported) {
		w.status = http.StatusOK
	}
	return err
}

// Flush is FlushError for [http.Flusher], which has no error to return.
func (w *statusWriter) Flush() { _ = w.FlushError() }

// Hijack hijacks the wrapped writer's connection as [http.ResponseController]
// does, or returns an error that wraps [http.ErrNotSupported].
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// Unwrap returns the wrapped writer, for [http.ResponseController].
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
