package counter

import (
	"encoding/hex"
	"errors"
	"strconv"
	"time"
)

// A Summary is a [Snapshot] read as time: its count and, converted at one
// rate, the figures a latency report quotes. Make one with
// [Snapshot.Summary]; its String is one line a log can hold.
type Summary struct {
	// Count is the number of spans in the distribution: every span but
	// the negative and migrated ones.
	Count uint64
	// Min, Mean, P50, P90, P99, P999 and Max are the distribution's least
	// span, its mean, its 50th, 90th, 99th and 99.9th percentiles and its
	// largest span, as [Snapshot.Min], [Snapshot.Mean], [Snapshot.Quantile]
	// and [Snapshot.Max] give them, converted with [Tickdelta.Duration]:
	// the quantiles within [QuantileError] of the exact order statistics
	// and within a nanosecond of their conversion. All are 0 where Count
	// is.
	Min, Mean, P50, P90, P99, P999, Max time.Duration
	// Negative and Migrated are [Snapshot.Negative] and
	// [Snapshot.Migrated]: spans counted apart.
	Negative, Migrated uint64
	// MaxTraceID is the trace id of the slowest span, where it was
	// recorded with an [Exemplar] (see [Snapshot.Exemplars]); zero
	// otherwise.
	MaxTraceID [16]byte
}

// Summary returns the Snapshot's figures converted at rate r, the rate of
// the Counter that took its spans ([Counter.Rate]). It panics at the zero
// TickRate, which would convert every span to 0 and so report nonsense
// quietly, and for a nil Snapshot. It does not allocate.
func (s *Snapshot) Summary(r TickRate) Summary {
	if s == nil || r.t == nil {
		panic(refuseSummary("Summary", s, r))
	}
	var trace [16]byte
	if d, e, ok := s.maxExemplar(); ok && d == s.Max() {
		trace = e.TraceID
	}
	return Summary{
		MaxTraceID: trace,
		Count:      s.Count(),
		Min:        s.Min().Duration(r),
		Mean:       s.Mean().Duration(r),
		P50:        s.Quantile(0.5).Duration(r),
		P90:        s.Quantile(0.9).Duration(r),
		P99:        s.Quantile(0.99).Duration(r),
		P999:       s.Quantile(0.999).Duration(r),
		Max:        s.Max().Duration(r),
		Negative:   s.Negative(),
		Migrated:   s.Migrated(),
	}
}

// refuseSummary returns the refusal of a summary, by the method named
// (Summary or Draw), of the Snapshot s at rate r: s is nil, or r is the
// zero TickRate.
//
//go:noinline
func refuseSummary(method string, s *Snapshot, r TickRate) error {
	if s == nil {
		return errors.New("counter: Snapshot." + method + " of a nil *Snapshot: pass one that Histogram.Interval filled, or a new(Snapshot)")
	}
	return &wrapError{
		msg:     "counter: Snapshot." + method + " at the zero TickRate, which converts every span to 0: pass the rate of the Counter that took the spans (Counter.Rate)",
		wrapped: errZeroRate,
	}
}

// String returns the summary as one line,
//
//	N spans: mean D, p50 D, p90 D, p99 D, p99.9 D, max D
//
// each D a duration as [time.Duration.String] prints it, rounded to three
// significant digits, followed by ", K negative" and ", M migrated" where
// there are spans counted apart, and by ", max trace T", T being
// MaxTraceID in 32 lowercase hex digits, where it is not zero; "no spans"
// where Count is 0.
func (m Summary) String() string {
	b := appendCount(make([]byte, 0, 176), m.Count)
	if m.Count != 0 {
		b = m.appendFigures(append(b, ": "...))
	}
	return string(m.appendTrace(appendApart(b, m.Negative, m.Migrated), ", "))
}

// appendTrace appends sep and "max trace T" where MaxTraceID is not zero.
func (m Summary) appendTrace(b []byte, sep string) []byte {
	if m.MaxTraceID == [16]byte{} {
		return b
	}
	b = append(append(b, sep...), "max trace "...)
	return hex.AppendEncode(b, m.MaxTraceID[:])
}

// appendFigures appends "mean D, p50 D, p90 D, p99 D, p99.9 D, max D".
func (m Summary) appendFigures(b []byte) []byte {
	var v [len(figureNames)]string
	for i, d := range [...]time.Duration{m.Mean, m.P50, m.P90, m.P99, m.P999, m.Max} {
		v[i] = shortDuration(d)
	}
	return appendFigures(b, v)
}

// String returns the Snapshot's figures as one line in ticks, the unit it
// holds them in, in the shape of [Summary.String] with each D a
// [Tickdelta] ("68 ticks"). Convert with [Snapshot.Summary] to read them as
// time.
func (s *Snapshot) String() string {
	s.mustNotBeNil("String")
	b := appendCount(make([]byte, 0, 160), s.Count())
	if s.Count() != 0 {
		var v [len(figureNames)]string
		for i, d := range [...]Tickdelta{s.Mean(), s.Quantile(0.5), s.Quantile(0.9), s.Quantile(0.99), s.Quantile(0.999), s.Max()} {
			v[i] = d.String()
		}
		b = appendFigures(append(b, ": "...), v)
	}
	return string(appendApart(b, s.Negative(), s.Migrated()))
}

// figureNames name the figures of a summary's line, in order.
var figureNames = [...]string{"mean", "p50", "p90", "p99", "p99.9", "max"}

// appendFigures appends each figure's name and value, parted by commas.
func appendFigures(b []byte, values [len(figureNames)]string) []byte {
	for i, name := range figureNames {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, name...)
		b = append(b, ' ')
		b = append(b, values[i]...)
	}
	return b
}

// appendCount appends "n spans", "1 span" or "no spans".
func appendCount(b []byte, n uint64) []byte {
	switch n {
	case 0:
		return append(b, "no spans"...)
	case 1:
		return append(b, "1 span"...)
	}
	return append(strconv.AppendUint(b, n, 10), " spans"...)
}

// appendApart appends the counts of spans apart, where there are any.
func appendApart(b []byte, negative, migrated uint64) []byte {
	if negative != 0 {
		b = append(b, ", "...)
		b = append(strconv.AppendUint(b, negative, 10), " negative"...)
	}
	if migrated != 0 {
		b = append(b, ", "...)
		b = append(strconv.AppendUint(b, migrated, 10), " migrated"...)
	}
	return b
}

// shortDuration returns d as time.Duration prints it, rounded to three
// significant digits rather than Duration's up to nine. Below a
// microsecond it is whole nanoseconds, as Duration holds them.
func shortDuration(d time.Duration) string {
	a := d
	if a < 0 {
		a = -a
	}
	unit := time.Duration(1)
	for a >= 1000*unit && unit < time.Hour/1000 {
		unit *= 10
	}
	return d.Round(unit).String()
}
