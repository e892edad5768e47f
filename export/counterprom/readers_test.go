package counterprom_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/export"
	"github.com/tickstamp/counter/export/counterprom"
)

// refused checks that err wraps ErrSecondReader in a message that holds
// want (a Registry puts its own words before a Collector's error).
func refused(t *testing.T, what string, err error, want string) {
	t.Helper()
	if !errors.Is(err, export.ErrSecondReader) {
		t.Errorf("%s: %v; want an error wrapping ErrSecondReader", what, err)
	} else if !strings.Contains(err.Error(), want) {
		t.Errorf("%s:\n%v\nwant it to hold\n%s", what, err, want)
	}
}

// TestSecondReader: registering a Collector of a Histogram that a Feed or
// another Collector reads, of a Tap that another Collector reads, or a
// FamilyCollector of a Family or FamilyTap another reads, fails with an
// error wrapping ErrSecondReader that names the first reader, and NewFeed
// of a Histogram, or NewFamilyFeed of a Family, a collector reads fails
// too; a collector of each Tap of one Feed or FamilyFeed, and a Collector
// refused for its options, which reads nothing, are no second reader. The
// first reader still takes every span.
func TestSecondReader(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	h := counter.NewHistogram()
	reg.MustRegister(counterprom.New(h, rate(t), counterprom.Opts{Namespace: "app", Name: "a_seconds"}))
	refused(t, "a second Collector", prometheus.NewRegistry().Register(counterprom.New(h, rate(t), counterprom.Opts{Name: "b_seconds"})),
		`counterprom: "b_seconds": export: the Histogram is read by a counterprom Collector named "app_a_seconds" already, and each span goes to one reader, so a second would split its spans: make one export.Feed of it and give each reader a Tap of that Feed`)
	_, err := export.NewFeed(h)
	refused(t, "a Feed", err, `export: the Histogram is read by a counterprom Collector named "app_a_seconds" already`)
	h.Record(10)
	if got := gather(t, reg, "app_a_seconds").GetMetric()[0].GetHistogram().GetSampleCount(); got != 1 {
		t.Errorf("the first Collector took %d spans; want 1", got)
	}

	h = counter.NewHistogram()
	feed, err := export.NewFeed(h)
	if err != nil {
		t.Fatal(err)
	}
	refused(t, "a Collector of a Feed's Histogram", prometheus.NewRegistry().Register(counterprom.New(h, rate(t), counterprom.Opts{Name: "c_seconds"})),
		`counterprom: "c_seconds": export: the Histogram is read by an export.Feed already`)
	tap := feed.Tap()
	if err := prometheus.NewRegistry().Register(counterprom.New(counter.NewHistogram(), rate(t), counterprom.Opts{})); !errors.Is(err, counterprom.ErrNoName) {
		t.Fatalf("a Collector without a name: %v", err)
	}
	if err := prometheus.NewRegistry().Register(counterprom.New(tap, rate(t), counterprom.Opts{})); !errors.Is(err, counterprom.ErrNoName) {
		t.Fatalf("a Collector of the Tap without a name: %v", err)
	}
	if err := prometheus.NewRegistry().Register(counterprom.New(tap, rate(t), counterprom.Opts{Name: "d_seconds"})); err != nil {
		t.Fatalf("a Collector of a Tap after one refused for its options: %v", err)
	}
	refused(t, "a second Collector of a Tap", prometheus.NewRegistry().Register(counterprom.New(tap, rate(t), counterprom.Opts{Name: "e_seconds"})),
		`counterprom: "e_seconds": export: the Tap is read by a counterprom Collector named "d_seconds" already, and each span goes to one reader, so a second would split its spans: give each reader a Tap of its own (Feed.Tap)`)
	if err := prometheus.NewRegistry().Register(counterprom.New(feed.Tap(), rate(t), counterprom.Opts{Name: "e_seconds"})); err != nil {
		t.Errorf("a Collector of another Tap of the Feed: %v", err)
	}
	tap.Close()
	if err := prometheus.NewRegistry().Register(counterprom.New(tap, rate(t), counterprom.Opts{Name: "f_seconds"})); err != nil {
		t.Errorf("a Collector of a closed Tap: %v", err)
	}

	f, err := counter.NewFamily([]string{"route"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	reg.MustRegister(counterprom.NewFamily(f, rate(t), counterprom.Opts{Name: "g_seconds"}))
	refused(t, "a second FamilyCollector", prometheus.NewRegistry().Register(counterprom.NewFamily(f, rate(t), counterprom.Opts{Name: "h_seconds"})),
		`counterprom: "h_seconds": export: the Family is read by a counterprom FamilyCollector named "g_seconds" already, and each span goes to one reader, so a second would split its spans: make one export.FamilyFeed of it and give each reader a FamilyTap of that FamilyFeed`)
	_, err = export.NewFamilyFeed(f)
	refused(t, "a FamilyFeed of a Family a FamilyCollector reads", err,
		`export: the Family is read by a counterprom FamilyCollector named "g_seconds" already`)

	// A FamilyFeed's Family: its Taps, one a FamilyCollector.
	f, err = counter.NewFamily([]string{"route"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ff, err := export.NewFamilyFeed(f)
	if err != nil {
		t.Fatal(err)
	}
	refused(t, "a FamilyCollector of a FamilyFeed's Family", prometheus.NewRegistry().Register(counterprom.NewFamily(f, rate(t), counterprom.Opts{Name: "i_seconds"})),
		`counterprom: "i_seconds": export: the Family is read by an export.FamilyFeed already`)
	ftap := ff.Tap()
	reg.MustRegister(counterprom.NewFamily(ftap, rate(t), counterprom.Opts{Name: "j_seconds"}))
	refused(t, "a second FamilyCollector of a FamilyTap", prometheus.NewRegistry().Register(counterprom.NewFamily(ftap, rate(t), counterprom.Opts{Name: "k_seconds"})),
		`counterprom: "k_seconds": export: the FamilyTap is read by a counterprom FamilyCollector named "j_seconds" already, and each span goes to one reader, so a second would split its spans: give each reader a FamilyTap of its own (FamilyFeed.Tap)`)
	if err := prometheus.NewRegistry().Register(counterprom.NewFamily(ff.Tap(), rate(t), counterprom.Opts{Name: "k_seconds"})); err != nil {
		t.Errorf("a FamilyCollector of another FamilyTap: %v", err)
	}
	ftap.Close()
	if err := prometheus.NewRegistry().Register(counterprom.NewFamily(ftap, rate(t), counterprom.Opts{Name: "l_seconds"})); err != nil {
		t.Errorf("a FamilyCollector of a closed FamilyTap: %v", err)
	}
}

// TestReaderCollected: once a Collector is unregistered and collected, its
// Histogram may have another reader; while it is registered, it may not,
// however many collections run.
func TestReaderCollected(t *testing.T) {
	h := counter.NewHistogram()
	reg := prometheus.NewRegistry()
	first := counterprom.New(h, rate(t), counterprom.Opts{Name: "first_seconds"})
	reg.MustRegister(first)
	for range 3 {
		runtime.GC()
	}
	if err := prometheus.NewRegistry().Register(counterprom.New(h, rate(t), counterprom.Opts{Name: "next_seconds"})); !errors.Is(err, export.ErrSecondReader) {
		t.Fatalf("a second Collector while the first is registered: %v", err)
	}
	reg.Unregister(first)
	first = nil
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		err := prometheus.NewRegistry().Register(counterprom.New(h, rate(t), counterprom.Opts{Name: "next_seconds"}))
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a Collector after the first was collected: %v", err)
		}
		time.Sleep(time.Millisecond)
	}
}
