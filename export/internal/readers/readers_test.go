package readers

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/mutate"
)

// A fakeTap stands for export.Tap, which this package cannot import, and
// a fakeFamilyTap for export.FamilyTap.
type (
	fakeTap       struct{ _ [16]byte }
	fakeFamilyTap struct{ _ [16]byte }
)

// An owner stands for a Feed or an exporter: it holds what it reads, as
// they do.
type owner struct {
	h    *counter.Histogram
	f    *counter.Family
	tap  *fakeTap
	ftap *fakeFamilyTap
}

// readerOf returns the reader that holds p, "" where none does.
func readerOf[T any](p *T) string {
	mu.Lock()
	defer mu.Unlock()
	if c := claims[weak.Make(p)]; c != nil {
		return c.reader
	}
	return ""
}

// eventually calls runtime.GC until done reports true, and fails t after
// ten seconds: cleanups run on a goroutine of their own, some time after
// the collection that found their object unreachable.
func eventually(t *testing.T, what string, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after ten seconds of collections", what)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

func newFamily(t *testing.T) *counter.Family {
	f, err := counter.NewFamily([]string{"route"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestSecondReaderRefused: a second claim of a Histogram, a Family or a
// Tap is refused with an error that wraps ErrSecondReader and names the
// reader that holds it and what to do, and changes nothing; the first
// stands, and other sources are claimed apart.
func TestSecondReaderRefused(t *testing.T) {
	first := &owner{h: counter.NewHistogram(), f: newFamily(t), tap: new(fakeTap), ftap: new(fakeFamilyTap)}
	second := &owner{h: first.h, f: first.f, tap: first.tap, ftap: first.ftap}
	for _, tc := range []struct {
		name  string
		claim func(o *owner, reader string) error
		want  string
	}{
		{"Histogram", func(o *owner, reader string) error { return Histogram(o.h, o, reader) },
			`export: the Histogram is read by reader "one" already, and each span goes to one reader, so a second would split its spans: make one export.Feed of it and give each reader a Tap of that Feed`},
		{"Histogram as a Source", func(o *owner, reader string) error { return Source[fakeTap](o.h, o, reader) },
			`export: the Histogram is read by reader "one" already, and each span goes to one reader, so a second would split its spans: make one export.Feed of it and give each reader a Tap of that Feed`},
		{"Family", func(o *owner, reader string) error { return Family(o.f, o, reader) },
			`export: the Family is read by reader "one" already, and each span goes to one reader, so a second would split its spans: make one export.FamilyFeed of it and give each reader a FamilyTap of that FamilyFeed`},
		{"Family as a FamilySource", func(o *owner, reader string) error { return FamilySource[fakeFamilyTap](o.f, o, reader) },
			`export: the Family is read by reader "one" already, and each span goes to one reader, so a second would split its spans: make one export.FamilyFeed of it and give each reader a FamilyTap of that FamilyFeed`},
		{"FamilyTap", func(o *owner, reader string) error { return FamilySource[fakeFamilyTap](o.ftap, o, reader) },
			`export: the FamilyTap is read by reader "one" already, and each span goes to one reader, so a second would split its spans: give each reader a FamilyTap of its own (FamilyFeed.Tap)`},
		{"Tap", func(o *owner, reader string) error { return Source[fakeTap](o.tap, o, reader) },
			`export: the Tap is read by reader "one" already, and each span goes to one reader, so a second would split its spans: give each reader a Tap of its own (Feed.Tap)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.HasSuffix(tc.name, " as a Source") && !strings.HasSuffix(tc.name, " as a FamilySource") {
				if err := tc.claim(first, `reader "one"`); err != nil {
					t.Fatalf("the first claim: %v", err)
				}
			}
			err := tc.claim(second, `reader "two"`)
			if !errors.Is(err, ErrSecondReader) {
				t.Fatalf("the second claim: %v; want an error wrapping ErrSecondReader", err)
			}
			if err.Error() != tc.want {
				t.Errorf("the second claim:\n%s\nwant\n%s", err, tc.want)
			}
		})
	}
	for name, got := range map[string]string{"Histogram": readerOf(first.h), "Family": readerOf(first.f), "Tap": readerOf(first.tap), "FamilyTap": readerOf(first.ftap)} {
		if got != `reader "one"` {
			t.Errorf("%s held by %q after the refusals; want the first reader", name, got)
		}
	}
	if err := Histogram(counter.NewHistogram(), second, "two"); err != nil {
		t.Errorf("another Histogram: %v", err)
	}
	if err := Source[fakeTap](sourceFunc(nil), second, "two"); err != nil {
		t.Errorf("a Source of the application's own: %v", err)
	}
	if err := FamilySource[fakeFamilyTap](sourceFunc(nil), second, "two"); err != nil {
		t.Errorf("a FamilySource of the application's own: %v", err)
	}
	runtime.KeepAlive(first)
	runtime.KeepAlive(second)
}

// A sourceFunc is a Source of the application's own, which no claim holds.
type sourceFunc func(*counter.Snapshot)

func (f sourceFunc) Interval(dst *counter.Snapshot) { f(dst) }

// TestClaimLastsAsLongAsItsReader: a claim holds through collections while
// its reader lives, and is dropped once the reader is collected, keeping
// neither the reader nor what it read alive.
func TestClaimLastsAsLongAsItsReader(t *testing.T) {
	h, f := counter.NewHistogram(), newFamily(t)
	o := &owner{h: h, f: f}
	if err := Histogram(h, o, "o"); err != nil {
		t.Fatal(err)
	}
	if err := Family(f, o, "o"); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		runtime.GC()
	}
	time.Sleep(10 * time.Millisecond)
	if readerOf(h) != "o" || readerOf(f) != "o" {
		t.Fatalf("held by %q and %q while the reader lives; want o", readerOf(h), readerOf(f))
	}
	runtime.KeepAlive(o)
	eventually(t, "the claims of a collected reader dropped", func() bool { return readerOf(h) == "" && readerOf(f) == "" })
	if err := Histogram(h, &owner{h: h}, "next"); err != nil {
		t.Errorf("a claim after the reader was collected: %v", err)
	}

	// Neither the claim nor its cleanup keeps the reader or what it read
	// alive: both are collected, and the claim with them.
	wh, wf, wo := func() (weak.Pointer[counter.Histogram], weak.Pointer[counter.Family], weak.Pointer[owner]) {
		o := &owner{h: counter.NewHistogram(), f: newFamily(t)}
		if err := Histogram(o.h, o, "o"); err != nil {
			t.Fatal(err)
		}
		if err := Family(o.f, o, "o"); err != nil {
			t.Fatal(err)
		}
		return weak.Make(o.h), weak.Make(o.f), weak.Make(o)
	}()
	eventually(t, "a reader and what it read collected", func() bool {
		return wh.Value() == nil && wf.Value() == nil && wo.Value() == nil
	})
	eventually(t, "their claims dropped", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return claims[wh] == nil && claims[wf] == nil
	})
}

// TestTapClosed: a closed Tap may be claimed again at once, and its first
// reader's release, when that reader is collected, leaves the new claim
// alone.
func TestTapClosed(t *testing.T) {
	tap := new(fakeTap)
	first := &owner{tap: tap}
	if err := Source[fakeTap](tap, first, "first"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	old := claims[weak.Make(tap)]
	mu.Unlock()
	TapClosed(tap)
	second := &owner{tap: tap}
	if err := Source[fakeTap](tap, second, "second"); err != nil {
		t.Fatalf("a claim of a closed Tap: %v", err)
	}
	old.release() // as the first reader's cleanup would
	if got := readerOf(tap); got != "second" {
		t.Errorf("after the first reader's release, held by %q; want second", got)
	}
	runtime.KeepAlive(first)
	runtime.KeepAlive(second)
}

// mutations are changes to readers.go that each break a promise of its
// docs, which some test must catch.
// A mutation is a mutate.Mutation, listed without field names.
type mutation mutate.Mutation

var mutations = []mutation{
	{"a second reader takes the claim over", "readers.go", "if c := claims[key]; c != nil {", "if c := claims[key]; c != nil && false {"},
	{"a claim keeps what it read alive", "readers.go", "\tclaims[key] = c\n", "\tclaims[key] = c\n\tclaims[p] = c\n"},
	{"a claim outlives its reader", "readers.go", "runtime.AddCleanup(owner, (*claim).release, c)", "_, _ = owner, runtime.GOOS"},
	{"a reader's release drops a newer claim", "readers.go", "if claims[c.key] == c {", "if true {"},
	{"a closed Tap keeps its claim", "readers.go", "delete(claims, weak.Make(t))", "_ = weak.Make(t)"},
	{"a refusal is not ErrSecondReader", "readers.go", "return target == ErrSecondReader", "return false"},
	{"a Tap is not claimed", "readers.go", "return take(s, tap, owner, reader)", "return nil"},
	{"a FamilyTap is not claimed", "readers.go", "return take(s, familyTap, owner, reader)", "return nil"},
	{"a Family as a FamilySource is not claimed", "readers.go", "\tcase *counter.Family:\n\t\treturn take(s, family, owner, reader)", "\tcase *counter.Family:\n\t\treturn nil"},
}

// TestMutations runs the package's tests on each mutation: each must
// fail, and the package as it is must pass (internal/mutate).
func TestMutations(t *testing.T) {
	mutate.Run(t, "^Test[^M]", mutations)
}
