package perf

import (
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestScaled(t *testing.T) {
	const max = math.MaxUint64
	for _, c := range []struct {
		name string
		r    Reading
		want uint64
	}{
		{"never ran", Reading{Count: 5, Enabled: 10, Running: 0}, 0},
		{"ran all along", Reading{Count: 5, Enabled: 10, Running: 10}, 5},
		{"running past enabled", Reading{Count: 5, Enabled: 10, Running: 11}, 5},
		{"half", Reading{Count: 5, Enabled: 10, Running: 5}, 10},
		{"rounds down", Reading{Count: 10, Enabled: 10, Running: 3}, 33},
		{"product past 64 bits", Reading{Count: 1 << 62, Enabled: 1 << 40, Running: 1 << 39}, 1 << 63},
		{"saturates", Reading{Count: max, Enabled: 3, Running: 2}, max},
		{"just fits", Reading{Count: max / 3 * 2, Enabled: 3, Running: 2}, max / 3 * 3},
		{"zero", Reading{}, 0},
		{"negative running", Reading{Count: 5, Enabled: 10, Running: -1}, 0},
		{"negative running, largest count", Reading{Count: max, Enabled: math.MaxInt64, Running: -1}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.r.Scaled(); got != c.want {
				t.Errorf("got %v; want %v", got, c.want)
			}
		})
	}
}

// TestScaledAgainstBig checks Scaled against math/big over edge values.
func TestScaledAgainstBig(t *testing.T) {
	counts := []uint64{0, 1, 2, 3, 1000, 1 << 32, 1<<63 - 1, 1 << 63, math.MaxUint64 - 1, math.MaxUint64}
	times := []time.Duration{1, 2, 3, 7, 1000, 1 << 31, 1 << 32, 1<<62 + 1, math.MaxInt64 - 1, math.MaxInt64}
	maxU := new(big.Int).SetUint64(math.MaxUint64)
	for _, n := range counts {
		for _, en := range times {
			for _, run := range times {
				r := Reading{Count: n, Enabled: en, Running: run}
				want := new(big.Int).SetUint64(n)
				if run < en {
					want.Mul(want, big.NewInt(int64(en)))
					want.Quo(want, big.NewInt(int64(run)))
					if want.Cmp(maxU) > 0 {
						want = maxU
					}
				}
				if got := r.Scaled(); got != want.Uint64() {
					t.Errorf("%+v.Scaled(): got %v; want %v", r, got, want)
				}
			}
		}
	}
}

func TestMultiplexed(t *testing.T) {
	for _, c := range []struct {
		r    Reading
		want bool
	}{
		{Reading{Enabled: 10, Running: 10}, false},
		{Reading{Enabled: 10, Running: 4}, true},
		{Reading{Enabled: 10, Running: 0}, false},
		{Reading{Enabled: 10, Running: -1}, false},
	} {
		if got := c.r.Multiplexed(); got != c.want {
			t.Errorf("%+v: got %v; want %v", c.r, got, c.want)
		}
	}
}

func TestStrings(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Cycles.String(), "cycles"},
		{Instructions.String(), "instructions"},
		{CacheReferences.String(), "cache-references"},
		{CacheMisses.String(), "cache-misses"},
		{BranchInstructions.String(), "branch-instructions"},
		{BranchMisses.String(), "branch-misses"},
		{TaskClock.String(), "task-clock"},
		{PageFaults.String(), "page-faults"},
		{ContextSwitches.String(), "context-switches"},
		{CPUMigrations.String(), "cpu-migrations"},
		{MinorFaults.String(), "minor-faults"},
		{MajorFaults.String(), "major-faults"},
		{Event(42).String(), "Event(42)"},
		{Event(-1).String(), "Event(-1)"},
		{Thread.String(), "thread"},
		{Process.String(), "process"},
		{Scope(7).String(), "Scope(7)"},
	} {
		if c.got != c.want {
			t.Errorf("got %q; want %q", c.got, c.want)
		}
	}
	for ev := range eventNames {
		if ev.Hardware() != (ev < TaskClock) {
			t.Errorf("%v.Hardware(): got %v", ev, ev.Hardware())
		}
	}
	// Values between and around the events are no events, so no hardware.
	for _, ev := range []Event{-1, 0, BranchMisses + 1, TaskClock - 1, MajorFaults + 1} {
		if ev.Hardware() {
			t.Errorf("%v, no event, reports Hardware", ev)
		}
	}
}

// TestGroupReadingIndex checks Reading picks counter i with the group's
// times, and panics out of range as indexing Counts would.
func TestGroupReadingIndex(t *testing.T) {
	g := GroupReading{Counts: []uint64{4, 5}, Enabled: 10, Running: 8}
	if got, want := g.Reading(1), (Reading{Count: 5, Enabled: 10, Running: 8}); got != want {
		t.Errorf("Reading(1): got %+v; want %+v", got, want)
	}
	for _, i := range []int{-1, 2} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Reading(%d) of 2 counts: no panic", i)
				}
			}()
			g.Reading(i)
		}()
	}
}

func words(w ...uint64) []byte {
	b := make([]byte, 8*len(w))
	for i, x := range w {
		binary.NativeEndian.PutUint64(b[8*i:], x)
	}
	return b
}

func TestParseSingle(t *testing.T) {
	r, id, err := parseSingle(words(7, 100, 60, 9))
	if want := (Reading{Count: 7, Enabled: 100, Running: 60}); err != nil || r != want || id != 9 {
		t.Errorf("got %+v, %v, %v; want %+v, 9, nil", r, id, err, want)
	}
	if _, _, err := parseSingle(words(7, 100, 60)); err == nil {
		t.Errorf("a short read: got no error")
	}
}

func TestParseGroup(t *testing.T) {
	ids := []uint64{30, 10, 20}
	counts := make([]uint64, 3)
	// The kernel's order need not be the caller's: values are matched by ID.
	en, run, err := parseGroup(words(3, 100, 90, 5, 10, 6, 20, 4, 30), ids, counts)
	if err != nil || en != 100 || run != 90 || counts[0] != 4 || counts[1] != 5 || counts[2] != 6 {
		t.Errorf("got %v %v %v %v; want 100 90 [4 5 6] nil", en, run, counts, err)
	}
	// A second thread's group adds to the counts.
	if _, _, err := parseGroup(words(3, 1, 1, 1, 10, 1, 20, 1, 30), ids, counts); err != nil || counts[0] != 5 {
		t.Errorf("summing: got %v %v; want [5 6 7] nil", counts, err)
	}
	for _, c := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"short header", words(3, 100)},
		{"other count", words(2, 100, 90, 5, 10, 6, 20)},
		{"short values", words(3, 100, 90, 5, 10, 6, 20, 4)},
		{"unknown id", words(3, 100, 90, 5, 10, 6, 20, 4, 31)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, _, err := parseGroup(c.b, ids, make([]uint64, 3)); err == nil {
				t.Errorf("got no error")
			}
		})
	}
}

// FuzzParseGroup checks that no read the kernel could return makes the
// parser panic, and that what it accepts has the group's size.
func FuzzParseGroup(f *testing.F) {
	f.Add(words(2, 100, 90, 5, 1, 6, 2))
	f.Add(words(1, 0, 0, 0, 1))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		ids := []uint64{1, 2}
		if _, _, err := parseGroup(b, ids, make([]uint64, 2)); err == nil && len(b) < groupSize(2) {
			t.Errorf("accepted %d bytes; a group of 2 reads %d", len(b), groupSize(2))
		}
	})
}

func TestOpenErrorWraps(t *testing.T) {
	e := &OpenError{Event: Cycles, Err: syscall.ENOENT, reason: "no counter here", unsupported: true}
	if !errors.Is(e, errors.ErrUnsupported) || !errors.Is(e, syscall.ENOENT) {
		t.Errorf("%v: does not wrap ErrUnsupported and ENOENT", e)
	}
	if got, want := e.Error(), "perf: cannot count cycles: no counter here: "+syscall.ENOENT.Error(); got != want {
		t.Errorf("got %q; want %q", got, want)
	}
	p := &OpenError{Event: TaskClock, Err: syscall.EACCES}
	if !errors.Is(p, os.ErrPermission) || errors.Is(p, errors.ErrUnsupported) {
		t.Errorf("%v: want os.ErrPermission and not ErrUnsupported", p)
	}
}

func TestRefusesUnknown(t *testing.T) {
	if _, err := Open(Options{}, Event(42)); err == nil {
		t.Errorf("Open(Event(42)): got no error")
	}
	if _, err := Open(Options{Scope: 9}, TaskClock); err == nil {
		t.Errorf("Open with Scope(9): got no error")
	}
	if _, err := OpenGroup(Options{}); err == nil {
		t.Errorf("OpenGroup of no events: got no error")
	}
}

// TestZeroEventIsNone checks that a forgotten Event fails clearly instead of
// counting some event unasked.
func TestZeroEventIsNone(t *testing.T) {
	var zero Event
	if zero.valid() || zero.Hardware() || zero.String() != "Event(0)" {
		t.Errorf("the zero Event: valid %v, hardware %v, %q; want none of the events", zero.valid(), zero.Hardware(), zero.String())
	}
	for _, ev := range []Event{Cycles, TaskClock} {
		if ev == zero {
			t.Errorf("%v is the zero Event", ev)
		}
	}
	if _, err := Open(Options{}, zero); err == nil || !strings.Contains(err.Error(), "zero Event") {
		t.Errorf("Open of the zero Event: %v; want an error that says so", err)
	}
	if _, err := OpenGroup(Options{}, TaskClock, zero); err == nil || !strings.Contains(err.Error(), "zero Event") {
		t.Errorf("OpenGroup with the zero Event: %v; want an error that says so", err)
	}
}
