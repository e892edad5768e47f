package counterotel_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterotel"
)

// refused checks that err wraps ErrSecondReader in a message that starts
// with start.
func refused(t *testing.T, what string, err error, start string) {
	t.Helper()
	if !errors.Is(err, export.ErrSecondReader) {
		t.Errorf("%s: %v; want an error wrapping ErrSecondReader", what, err)
	} else if !strings.HasPrefix(err.Error(), start) {
		t.Errorf("%s:\n%v\nwant it to start\n%s", what, err, start)
	}
}

// TestSecondReader: Register of a Histogram or Tap, and RegisterFamily of
// a Family or FamilyTap, that a registration of this Producer or another,
// or a Feed or FamilyFeed, reads fail with an error wrapping
// ErrSecondReader that names the first reader, and so do NewFeed of a
// registered Histogram and NewFamilyFeed of a registered Family; a
// registration refused for another reason reads nothing, a Tap of its own
// for each registration is no second reader, and a closed Tap or
// FamilyTap may be registered again.
func TestSecondReader(t *testing.T) {
	p, q := counterotel.NewProducer(), counterotel.NewProducer()
	h := counter.NewHistogram()
	if err := p.Register("a", h, rate); err != nil {
		t.Fatal(err)
	}
	refused(t, "a second registration", p.Register("b", h, rate),
		`counterotel: "b": export: the Histogram is read by a counterotel Producer's registration "a" already, and each span goes to one reader, so a second would split its spans: make one export.Feed of it and give each reader a Tap of that Feed`)
	refused(t, "a registration on another Producer", q.Register("a", h, rate),
		`counterotel: "a": export: the Histogram is read by a counterotel Producer's registration "a" already`)
	_, err := export.NewFeed(h)
	refused(t, "a Feed", err, `export: the Histogram is read by a counterotel Producer's registration "a" already`)

	h = counter.NewHistogram()
	if err := p.Register("a", h, rate); !errors.Is(err, counterotel.ErrDuplicate) {
		t.Fatalf("a registration of a name taken: %v", err)
	}
	feed, err := export.NewFeed(h)
	if err != nil {
		t.Fatalf("a Feed of a Histogram whose registration was refused: %v", err)
	}
	refused(t, "a registration of a Feed's Histogram", q.Register("c", h, rate),
		`counterotel: "c": export: the Histogram is read by an export.Feed already`)
	tap := feed.Tap()
	if err := p.Register("c", tap, rate); err != nil {
		t.Fatal(err)
	}
	refused(t, "a second registration of a Tap", q.Register("c", tap, rate),
		`counterotel: "c": export: the Tap is read by a counterotel Producer's registration "c" already, and each span goes to one reader, so a second would split its spans: give each reader a Tap of its own (Feed.Tap)`)
	if err := q.Register("c", feed.Tap(), rate); err != nil {
		t.Errorf("a registration of another Tap of the Feed: %v", err)
	}
	tap.Close()
	if err := q.Register("d", tap, rate); err != nil {
		t.Errorf("a registration of a closed Tap: %v", err)
	}

	f := newFamily(t, 0, "route")
	if err := p.RegisterFamily("e", f, rate); err != nil {
		t.Fatal(err)
	}
	refused(t, "a second registration of a Family", q.RegisterFamily("f", f, rate, attribute.String("zone", "z")),
		`counterotel: "f": export: the Family is read by a counterotel Producer's registration "e" already, and each span goes to one reader, so a second would split its spans: make one export.FamilyFeed of it and give each reader a FamilyTap of that FamilyFeed`)
	_, err = export.NewFamilyFeed(f)
	refused(t, "a FamilyFeed of a registered Family", err, `export: the Family is read by a counterotel Producer's registration "e" already`)

	// A FamilyFeed's Family: its Taps, one a registration each.
	f = newFamily(t, 0, "route")
	ff, err := export.NewFamilyFeed(f)
	if err != nil {
		t.Fatal(err)
	}
	refused(t, "a registration of a FamilyFeed's Family", p.RegisterFamily("g", f, rate),
		`counterotel: "g": export: the Family is read by an export.FamilyFeed already`)
	ftap := ff.Tap()
	if err := p.RegisterFamily("g", ftap, rate); err != nil {
		t.Fatal(err)
	}
	refused(t, "a second registration of a FamilyTap", q.RegisterFamily("g", ftap, rate),
		`counterotel: "g": export: the FamilyTap is read by a counterotel Producer's registration "g" already, and each span goes to one reader, so a second would split its spans: give each reader a FamilyTap of its own (FamilyFeed.Tap)`)
	if err := q.RegisterFamily("g", ff.Tap(), rate); err != nil {
		t.Errorf("a registration of another FamilyTap: %v", err)
	}
	ftap.Close()
	if err := q.RegisterFamily("h", ftap, rate); err != nil {
		t.Errorf("a registration of a closed FamilyTap: %v", err)
	}
}

// TestReaderCollected: once a Producer is collected, what it read may have
// another reader; while it lives, it may not, however many collections
// run.
func TestReaderCollected(t *testing.T) {
	h, f := counter.NewHistogram(), newFamily(t, 0, "route")
	p := counterotel.NewProducer()
	if err := p.Register("first", h, rate); err != nil {
		t.Fatal(err)
	}
	if err := p.RegisterFamily("first.family", f, rate); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		runtime.GC()
	}
	q := counterotel.NewProducer()
	if err := q.Register("next", h, rate); !errors.Is(err, export.ErrSecondReader) {
		t.Fatalf("a second registration while the first Producer lives: %v", err)
	}
	runtime.KeepAlive(p)
	deadline := time.Now().Add(10 * time.Second)
	var source, family error = errors.New("not tried"), errors.New("not tried")
	for source != nil || family != nil {
		if time.Now().After(deadline) {
			t.Fatalf("registrations after the first Producer was collected: %v; %v", source, family)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
		if source != nil {
			source = q.Register("next", h, rate)
		}
		if family != nil {
			family = q.RegisterFamily("next.family", f, rate)
		}
	}
}
