package counter

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// numError turns an error of strconv's integer parsers into the error of a
// tick parser, naming the input s rather than strconv's copy of it.
func numError(what, s string, err error) error {
	if errors.Is(err, strconv.ErrRange) {
		return parseError(what, s, "is out of range")
	}
	return parseError(what, s, "is not a decimal count of ticks")
}

// parseError builds the error of every parser: `counter: tickrate "x" why`,
// with the input quoted by quoteInput.
func parseError(what, s, why string) error {
	return wrapParseError(what, s, why, nil)
}

// wrapParseError is parseError for an error that also wraps a sentinel.
func wrapParseError(what, s, why string, sentinel error) error {
	return &wrapError{
		msg:     "counter: " + what + " " + quoteInput(s) + " " + why,
		wrapped: sentinel,
	}
}

// maxQuoted is the most bytes of its input that an error quotes.
const maxQuoted = 64

// quoteInput quotes s as [strconv.Quote] does when it is at most maxQuoted
// bytes long. A longer s is cut to at most maxQuoted bytes, before any UTF-8
// character the cut would split, and quoted as `"prefix"… (100000 bytes)`
// with its whole length, so that a megabyte of input never makes a megabyte
// of error. The result is at most 4·maxQuoted+2 bytes of quoted prefix (when
// every byte needs a \x escape) and a short suffix.
func quoteInput(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	cut := maxQuoted
	// s[cut] is the first byte left out: while it continues a character,
	// leave that character out too. A valid character is at most UTFMax
	// bytes, so a run of stray continuation bytes stops this after UTFMax−1.
	for back := 0; back < utf8.UTFMax-1 && !utf8.RuneStart(s[cut]); back++ {
		cut--
	}
	return strconv.Quote(s[:cut]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// A wrapError is an error with its own message that also wraps a sentinel,
// for errors.Is, without repeating the sentinel's text.
type wrapError struct {
	msg     string
	wrapped error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.wrapped }
