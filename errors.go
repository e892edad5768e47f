package counter

import (
	"errors"
	"strconv"
)

// numError turns an error of strconv's integer parsers into the error of a
// tick parser, naming the input s rather than strconv's copy of it.
func numError(what, s string, err error) error {
	if errors.Is(err, strconv.ErrRange) {
		return parseError(what, s, "is out of range")
	}
	return parseError(what, s, "is not a decimal count of ticks")
}

// parseError builds the error of every parser: `counter: tickrate "x" why`.
func parseError(what, s, why string) error {
	return &wrapError{msg: "counter: " + what + " " + strconv.Quote(s) + " " + why}
}

// A wrapError is an error with its own message that also wraps a sentinel,
// for errors.Is, without repeating the sentinel's text.
type wrapError struct {
	msg     string
	wrapped error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.wrapped }
