// Package readers keeps which reader holds each Histogram, Family, Tap and
// FamilyTap that export's Feed or FamilyFeed or an exporter reads, so that a second reader is
// refused when it is made or registered: Interval hands each span to one
// caller, and two readers would each get some of the spans without a word.
// It is internal: export and the modules under export/ share it, and no
// user needs it.
//
// A claim is keyed by a weak pointer to what is read, so that it keeps
// nothing alive, and is dropped by a cleanup on its reader once the reader
// is collected (the reader holds what it reads, so what it reads cannot be
// collected first), or by [TapClosed]. The application's own calls of a
// Histogram's Interval are no claim and cannot be refused: Interval is
// public, and a look at a registry there would cost every call a lock.
package readers

import (
	"errors"
	"runtime"
	"sync"
	"weak"

	"github.com/tickstamp/counter"
)

// ErrSecondReader is export.ErrSecondReader, here so that this package,
// which export imports, can wrap it.
var ErrSecondReader = errors.New("export: a second reader would split the spans of a Histogram, Family or Tap")

// A kind is what a claim is of, as a refusal names it.
type kind uint8

const (
	histogram kind = iota
	family
	tap
	familyTap
)

var (
	mu sync.Mutex
	// claims maps a weak.Pointer to what is read to its reader's claim.
	claims = make(map[any]*claim)
)

// A claim is one reader's hold on what it reads.
type claim struct {
	key    any    // the weak.Pointer claims is keyed by
	reader string // the reader, as a refusal names it
}

// Histogram claims h for reader, which owner is: the Feed or exporter that
// calls h's Interval, of which reader says what a refusal names it by ("an
// export.Feed"). The claim lasts until owner is collected. Where another
// reader holds h it returns an error wrapping ErrSecondReader, and claims
// nothing.
func Histogram[O any](h *counter.Histogram, owner *O, reader string) error {
	return take(h, histogram, owner, reader)
}

// Family claims f for reader, which owner is, as [Histogram] claims a
// Histogram.
func Family[O any](f *counter.Family, owner *O, reader string) error {
	return take(f, family, owner, reader)
}

// Source claims src for reader, which owner is, as [Histogram] does, where
// src is a *counter.Histogram or a *Tap (export.Tap, which export, importing
// this package, names here). It claims no other Source: what a Source of
// the application's reads is its own business.
func Source[Tap, O any](src any, owner *O, reader string) error {
	switch s := src.(type) {
	case *counter.Histogram:
		return take(s, histogram, owner, reader)
	case *Tap:
		return take(s, tap, owner, reader)
	}
	return nil
}

// FamilySource claims src for reader, which owner is, as [Histogram] does,
// where src is a *counter.Family or a *FamilyTap (export.FamilyTap, which
// export, importing this package, names here). It claims no other source,
// as Source does not.
func FamilySource[FamilyTap, O any](src any, owner *O, reader string) error {
	switch s := src.(type) {
	case *counter.Family:
		return take(s, family, owner, reader)
	case *FamilyTap:
		return take(s, familyTap, owner, reader)
	}
	return nil
}

// TapClosed drops the claim on t, a closed Tap or FamilyTap, which holds
// no spans to split from then on.
func TapClosed[Tap any](t *Tap) {
	mu.Lock()
	defer mu.Unlock()
	delete(claims, weak.Make(t))
}

// take claims p, of kind k, for reader, until owner is collected.
func take[T, O any](p *T, k kind, owner *O, reader string) error {
	key := weak.Make(p)
	mu.Lock()
	defer mu.Unlock()
	if c := claims[key]; c != nil {
		return &refusal{what: k, holder: c.reader}
	}
	c := &claim{key: key, reader: reader}
	claims[key] = c
	runtime.AddCleanup(owner, (*claim).release, c)
	return nil
}

// release drops c, where it is still the claim on what it claimed: a Tap's
// may have been dropped at its Close, and the Tap claimed anew since.
func (c *claim) release() {
	mu.Lock()
	defer mu.Unlock()
	if claims[c.key] == c {
		delete(claims, c.key)
	}
}

// A refusal is the error of a second reader: what it would read, and the
// reader that holds it.
type refusal struct {
	what   kind
	holder string
}

func (e *refusal) Error() string {
	var what, instead string
	switch e.what {
	case histogram:
		what, instead = "Histogram", "make one export.Feed of it and give each reader a Tap of that Feed"
	case family:
		what, instead = "Family", "make one export.FamilyFeed of it and give each reader a FamilyTap of that FamilyFeed"
	case tap:
		what, instead = "Tap", "give each reader a Tap of its own (Feed.Tap)"
	case familyTap:
		what, instead = "FamilyTap", "give each reader a FamilyTap of its own (FamilyFeed.Tap)"
	}
	return "export: the " + what + " is read by " + e.holder + " already, and each span goes to one reader, so a second would split its spans: " + instead
}

// Is reports whether target is ErrSecondReader.
func (e *refusal) Is(target error) bool { return target == ErrSecondReader }
