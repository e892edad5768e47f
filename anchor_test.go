package counter

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tickstamp/counter/internal/affinity"
	"pgregory.net/rapid"
)

// A fakeWall is a wall clock a test moves by hand, safe for concurrent use.
type fakeWall struct{ ns atomic.Int64 } // Unix nanoseconds

func newFakeWall(at time.Time) *fakeWall {
	w := &fakeWall{}
	w.ns.Store(at.UnixNano())
	return w
}

func (w *fakeWall) now() time.Time      { return time.Unix(0, w.ns.Load()) }
func (w *fakeWall) add(d time.Duration) { w.ns.Add(int64(d)) }

var anchorEpoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// anchorRates are the rates the anchor's tests draw from: the ends Discover
// accepts, real counters', and any in between.
func anchorRateGen() *rapid.Generator[uint64] {
	return rapid.OneOf(
		rapid.SampledFrom([]uint64{1e6, 24e6, 62_500_000, 1e9, 2_300_000_000, 2_299_999_917, 1e10}),
		rapid.Uint64Range(1e6, 1e10),
	)
}

// manualAnchor returns an anchor of a manual clock at rate hz, starting at
// start, and the fake wall clock it is anchored to.
func manualAnchor(t interface{ Fatal(...any) }, hz uint64, start Tickstamp) (*Anchor, *testClock, *fakeWall) {
	r, err := NewTickRate(hz)
	if err != nil {
		t.Fatal(err)
	}
	clk := newTestClock(start, r)
	wall := newFakeWall(anchorEpoch)
	a, err := newAnchor(clk, wall.now)
	if err != nil {
		t.Fatal(err)
	}
	return a, clk, wall
}

// TestAnchorTracksWallClock converts fresh readings of the real counter
// (the monotonic clock where Discover refuses it) for a fifth of a second and
// checks each against time.Now read around it. The bound is loose, for a
// loaded 2-core VM and for emulation; the largest difference is logged.
// A reading taken after the wall clock was stepped since the last
// anchoring (NTP, or the host setting its guest's clock: CI saw a step of
// 500 µs) is skipped: an Anchor learns of a step at its next Reanchor, as
// its doc says, and the test re-anchors every 40 ms.
func TestAnchorTracksWallClock(t *testing.T) {
	var clk Clock = Monotonic()
	if c, err := Discover(); err == nil {
		clk = c
	} else {
		t.Logf("Discover: %v; using Monotonic", err)
	}
	a, err := NewAnchor(clk)
	if err != nil {
		t.Fatal(err)
	}
	tol := 50 * time.Microsecond
	if os.Getenv("COUNTER_TEST_EXEC") != "" {
		tol = 2 * time.Millisecond // emulated: a counter in 1 µs steps and slow reads
	}
	const reanchorEvery = 40 * time.Millisecond
	var worst time.Duration
	checked, skipped, stepped := 0, 0, 0
	start := time.Now()
	// wallLead is how far the wall clock has run ahead of the monotonic
	// one since start: it changes only where the wall clock is stepped.
	wallLead := func(t time.Time) time.Duration { return t.Round(0).Sub(start.Round(0)) - t.Sub(start) }
	last, anchoredLead := start, time.Duration(0)
	// 200 ms, or until 100 readings are checked where a loaded machine
	// stretches each sleep (but not for ever).
	for time.Since(start) < 200*time.Millisecond || checked < 100 && time.Since(start) < 20*time.Second {
		if time.Since(last) >= reanchorEvery {
			if err := a.Reanchor(); err != nil {
				t.Fatal(err)
			}
			last = time.Now()
			anchoredLead = wallLead(last)
		}
		before := time.Now()
		r := clk.Now()
		after := time.Now()
		if after.Sub(before) > 20*time.Microsecond && tol < time.Millisecond {
			skipped++ // preempted between the reads
			continue
		}
		if step := wallLead(after) - anchoredLead; step.Abs() > tol/2 {
			stepped++ // the wall clock was stepped since the anchoring
			time.Sleep(200 * time.Microsecond)
			continue
		}
		got := a.Time(r)
		var off time.Duration
		switch {
		case got.Before(before):
			off = got.Sub(before)
		case got.After(after):
			off = got.Sub(after)
		}
		worst = max(worst, off.Abs())
		if lim := tol + a.Bound(); off.Abs() > lim {
			t.Errorf("Time(%v) = %v; want within %v of [%v, %v] (off by %v)", r, got, lim, before, after, off)
		}
		checked++
		time.Sleep(200 * time.Microsecond)
	}
	t.Logf("%d readings checked, %d skipped, %d after a step of the wall clock; worst %v outside the time.Now bracket; bound %v",
		checked, skipped, stepped, worst, a.Bound())
	if checked < 100 {
		t.Errorf("checked only %d readings", checked)
	}
}

// newestLine returns the pair of the newest anchoring, published or being
// published, and the base of its segment.
func newestLine(a *Anchor) (anchorPair, Tickstamp) {
	s := a.state.Load()
	if next := s.next.Load(); next != nil {
		return next.pair, a.cutFor(s, next)
	}
	return s.pair, s.segs[s.n-1].base
}

// TestAnchorArithmetic checks the conversion of a fresh anchor against its
// pair, for every rate, start and wall time.
func TestAnchorArithmetic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		hz := anchorRateGen().Draw(t, "hz")
		start := Tickstamp(rapid.Uint64().Draw(t, "start"))
		a, _, wall := manualAnchor(t, hz, start)
		r := a.rate
		s := a.state.Load()
		if s.pair.ticks != start {
			t.Fatalf("pair's reading = %v; want %v, the manual clock's", s.pair.ticks, start)
		}
		if got, want := a.Time(start), wall.now(); !got.Equal(want) {
			t.Fatalf("Time(the anchor's reading) = %v; want %v, its wall time", got, want)
		}
		// A span of d ticks from the anchor maps to exactly d.Duration(rate).
		d := Tickdelta(rapid.OneOf(rapid.Int64(), rapid.Int64Range(-1e12, 1e12)).Draw(t, "d"))
		tEnd := start.add(d)
		if got, want := a.Time(tEnd).Sub(wall.now()), d.Duration(r); got != want {
			t.Fatalf("Time(anchor%+d ticks) − anchor = %v; want %v", int64(d), got, want)
		}
		// From any other reading, each end rounds once: within 2 ns.
		e := Tickdelta(rapid.Int64Range(-1e12, 1e12).Draw(t, "e"))
		if e >= 0 || d > minTickdelta+Tickdelta(-e) {
			if d < maxTickdelta-Tickdelta(max(e, 0)) {
				got := a.Time(tEnd.add(e)).Sub(a.Time(tEnd))
				if diff := got - e.Duration(r); diff.Abs() > 2 && d.Duration(r).Abs() < time.Duration(math.MaxInt64/2) {
					t.Fatalf("a span of %v from anchor%+d ticks = %v; want %v within 2 ns", e, int64(d), got, e.Duration(r))
				}
			}
		}
		// Monotone in the reading, measured from the anchor.
		x := Tickdelta(rapid.Int64().Draw(t, "x"))
		y := Tickdelta(rapid.Int64().Draw(t, "y"))
		if x > y {
			x, y = y, x
		}
		if tx, ty := a.Time(start.add(x)), a.Time(start.add(y)); tx.After(ty) {
			t.Fatalf("Time(anchor%+d) = %v after Time(anchor%+d) = %v", int64(x), tx, int64(y), ty)
		}
	})
}

// TestAnchorSaturates converts readings at the ends of the Tickdelta range
// from the anchor: no panic, and at most ±2⁶³−1 ns from the anchor.
func TestAnchorSaturates(t *testing.T) {
	for _, hz := range []uint64{1e6, 1e9, 1e10} {
		a, _, wall := manualAnchor(t, hz, 1<<63)
		for _, d := range []Tickdelta{minTickdelta, minTickdelta + 1, -1, 1, maxTickdelta} {
			got := a.Time(Tickstamp(1 << 63).add(d)).Sub(wall.now())
			if want := d.Duration(a.rate); got != want {
				t.Errorf("%d Hz: Time(anchor%+d) − anchor = %v; want %v", hz, int64(d), got, want)
			}
		}
	}
}

// TestAnchorMonotoneAcrossReanchors drives one anchor through random clock
// advances, wall clocks that step and drift both ways, and re-anchorings,
// converting a fresh reading after each, and now and then converting while
// a re-anchoring is half published, as a conversion meeting a descheduled
// re-anchoring does: no conversion is earlier than the one before it, each
// is its pair's line plus Lag, a reading converted again within
// anchorHistory−2 re-anchorings converts to the same time, and a lag left
// alone is slewed out in 64 times its length.
func TestAnchorMonotoneAcrossReanchors(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		hz := anchorRateGen().Draw(t, "hz")
		a, clk, wall := manualAnchor(t, hz, Tickstamp(rapid.Uint64().Draw(t, "start")))
		r := a.rate
		last := a.Time(clk.Now())
		type converted struct {
			t   Tickstamp
			w   time.Time
			gen int
		}
		seen := []converted{{clk.Now(), last, 0}}
		gen := 0
		convert := func() {
			now := clk.Now()
			got := a.Time(now)
			seen = append(seen, converted{now, got, gen})
			if got.Before(last) {
				t.Fatalf("Time(%v) = %v; before %v, the previous conversion", now, got, last)
			}
			last = got
			if p, base := newestLine(a); now.Sub(base) > 0 {
				line := p.wall.Add(now.Sub(p.ticks).Duration(r))
				if diff := got.Sub(line) - a.lag(); diff.Abs() > 2 {
					t.Fatalf("Time(%v) = %v; want the line's %v plus lag %v, within 2 ns", now, got, line, a.lag())
				}
			}
		}
		steps := rapid.IntRange(1, 120).Draw(t, "steps")
		for range steps {
			switch rapid.IntRange(0, 6).Draw(t, "op") {
			case 0: // time passes, and the wall clock drifts by up to 1000 ppm
				d := Tickdelta(rapid.Int64Range(0, int64(r.Ticks(time.Second))).Draw(t, "advance"))
				clk.AdvanceTicks(d)
				span := d.Duration(r)
				wall.add(span + time.Duration(rapid.Int64Range(-int64(span/1000), int64(span/1000)).Draw(t, "drift")))
			case 1: // the wall clock steps
				wall.add(time.Duration(rapid.OneOf(
					rapid.Int64Range(-int64(time.Hour), int64(time.Hour)),
					rapid.Int64Range(-10_000, 10_000),
				).Draw(t, "step")))
			case 2:
				if err := a.Reanchor(); err != nil {
					t.Fatal(err)
				}
				gen++
			case 6: // a re-anchoring descheduled between linking and completing
				a.mu.Lock()
				p, err := a.takePair()
				if err != nil {
					a.mu.Unlock()
					t.Fatal(err)
				}
				old, next := a.seal(p)
				gen++ // conversions from here on are by the new state
				for range rapid.IntRange(0, 3).Draw(t, "meanwhile") {
					d := Tickdelta(rapid.Int64Range(0, int64(r.Ticks(10*time.Microsecond))).Draw(t, "sealedAdvance"))
					clk.AdvanceTicks(d)
					wall.add(d.Duration(r))
					convert()
				}
				a.complete(old, next)
				a.mu.Unlock()
			case 5: // a stored reading converts as it did
				c := seen[rapid.IntRange(0, len(seen)-1).Draw(t, "stored")]
				got := a.Time(c.t)
				// A reading taken within cutAhead of a re-anchoring converts
				// by the segment before it: one more than gen-c.gen.
				if gen-c.gen < anchorHistory-1 && !got.Equal(c.w) {
					t.Fatalf("Time(%v) = %v after %d re-anchorings; want %v, as before", c.t, got, gen-c.gen, c.w)
				}
			case 3:
				convert()
			case 4: // a lag left alone is gone after 64 times its length
				lag := a.lag()
				wait := 64*lag + time.Millisecond
				clk.Advance(wait)
				wall.add(wait)
				convert()
				if got := a.lag(); got != 0 {
					t.Fatalf("Lag() = %v after %v; want 0, from %v", got, wait, lag)
				}
			}
			convert()
		}
	})
}

// TestAnchorWallClockSteps checks how a step of the wall clock is taken: at
// once forwards, slewed out at 1/64 backwards, and no jump at all where the
// clocks agree.
func TestAnchorWallClockSteps(t *testing.T) {
	for _, tc := range []struct {
		name     string
		step     time.Duration
		wantLag  time.Duration // just past the cut
		wantJump time.Duration // of a fresh reading's time, across the re-anchoring
	}{
		{"forward", time.Second, 0, time.Second},
		{"none", 0, 0, 0},
		{"back", -time.Second, time.Second, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, clk, wall := manualAnchor(t, 2_300_000_000, 1000)
			clk.Advance(time.Second)
			wall.add(time.Second)
			before := a.Time(clk.Now())
			wall.add(tc.step)
			if err := a.Reanchor(); err != nil {
				t.Fatal(err)
			}
			clk.Advance(cutAhead + time.Nanosecond) // past the cut
			wall.add(cutAhead + time.Nanosecond)
			after := a.Time(clk.Now())
			if got := after.Sub(before) - (cutAhead + time.Nanosecond); got.Abs()-tc.wantJump.Abs() > 2 || got.Abs()-tc.wantJump.Abs() < -2 {
				t.Errorf("a fresh reading's time moved %v across the re-anchoring; want %v within 2 ns", got, tc.wantJump)
			}
			if got := a.lag(); (got - tc.wantLag).Abs() > 2 {
				t.Errorf("Lag() = %v; want %v within 2 ns", got, tc.wantLag)
			}
			// Half the lag's 64 lengths later, half of it is left.
			half := 32 * tc.wantLag
			clk.Advance(half)
			wall.add(half)
			if got, want := a.lag(), tc.wantLag/2; (got - want).Abs() > 2 {
				t.Errorf("Lag() = %v after %v; want %v within 2 ns", got, half, want)
			}
			if got, want := a.Time(clk.Now()), wall.now().Add(a.lag()); (got.Sub(want)).Abs() > 2 {
				t.Errorf("Time(now) = %v; want the wall clock plus Lag, %v", got, want)
			}
		})
	}
}

// A steppingClock is a manual clock that moves by a drawn number of ticks
// on every read, and steppingWall a wall clock that moves it too and reads
// the true time of that moment: so a bracket has a width, its wall read
// lies inside it, and a pair is off by a known amount within its bound.
type steppingClock struct {
	m    *testClock
	step func() Tickdelta
}

func (c *steppingClock) Now() Tickstamp { return c.m.AdvanceTicks(c.step()) }
func (c *steppingClock) Rate() TickRate { return c.m.Rate() }

// trueWall is the wall time at which c read t, for a clock started at
// origin on anchorEpoch.
func (c *steppingClock) trueWall(t, origin Tickstamp) time.Time {
	return anchorEpoch.Add(t.Sub(origin).Duration(c.m.Rate()))
}

// TestAnchorLeadBounded re-anchors 40,000 times (10,000 at the rates that
// round) against a wall clock in
// step with the clock, back to back or a few microseconds apart, and now
// and then with the clock stopped: pairs off by up to their bound, both
// ways. After each, a fresh reading converts to no later than its true wall
// time plus the largest bound of any pair so far, Lag stays within twice
// that, and conversions never go back. The 256 ns by which each
// re-anchoring used to move converted times ahead fail it within a few
// re-anchorings.
func TestAnchorLeadBounded(t *testing.T) {
	for _, tc := range []struct {
		hz, reanchors uint64
	}{{1e9, 40_000}, {2_300_000_000, 10_000}, {24_000_000, 10_000}} {
		hz := tc.hz
		t.Run(fmt.Sprint(hz), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(hz, 10_4))
			r, err := NewTickRate(hz)
			if err != nil {
				t.Fatal(err)
			}
			const origin = Tickstamp(1 << 50)
			maxStep := int64(r.Ticks(60 * time.Nanosecond))
			stopped := false
			clk := &steppingClock{m: newTestClock(origin, r), step: func() Tickdelta {
				if stopped {
					return 0
				}
				return Tickdelta(rng.Int64N(maxStep + 1))
			}}
			wall := func() time.Time { return clk.trueWall(clk.Now(), origin) }
			a, err := newAnchor(clk, wall)
			if err != nil {
				t.Fatal(err)
			}
			const slack = 2 * time.Nanosecond // rounding, of a line and a conversion
			var last time.Time
			var maxBound, maxLead, maxLag time.Duration
			for i := range tc.reanchors {
				switch rng.IntN(8) {
				case 0: // a gap of up to 5 µs
					clk.m.AdvanceTicks(r.Ticks(time.Duration(rng.Int64N(5000))))
				case 1: // the clock stops for this re-anchoring
					stopped = true
				}
				if err := a.Reanchor(); err != nil {
					t.Fatal(err)
				}
				stopped = false
				maxBound = max(maxBound, a.Bound())
				now := clk.m.Now()
				got := a.Time(now)
				if got.Before(last) {
					t.Fatalf("re-anchoring %d: Time(%v) = %v; before %v, the previous conversion", i, now, got, last)
				}
				last = got
				lead := got.Sub(clk.trueWall(now, origin))
				lag := a.lag()
				maxLead, maxLag = max(maxLead, lead), max(maxLag, lag)
				if lead > maxBound+slack {
					t.Fatalf("re-anchoring %d: a fresh reading converts %v ahead of its wall time; want at most %v, the largest bound so far", i, lead, maxBound)
				}
				if lag > 2*maxBound+slack {
					t.Fatalf("re-anchoring %d: Lag() = %v; want at most %v, twice the largest bound so far", i, lag, 2*maxBound)
				}
			}
			t.Logf("largest bound %v, lead %v, lag %v; %d segments kept", maxBound, maxLead, maxLag, a.state.Load().n)
			if maxLag == 0 {
				t.Error("Lag() was never positive: the pairs' errors did not exercise the slewing")
			}
		})
	}
}

// TestAnchorLeadBackToBack calls Reanchor back to back on a real clock: the
// counter for 300 ms (the monotonic clock where Discover refuses it), and
// the monotonic clock for 100 ms. After each, a fresh reading converts to no
// later than time.Now read after it plus the largest Bound so far, and Lag
// stays within twice that, each plus a slack for what the bound does not
// see. With the monotonic clock, which reads the wall clock's own source,
// the slack is 50 ns (rounding). With the counter it is 1 µs, for how far
// the wall clock wanders against the counter, which its source decides
// (kvm-clock on some guests, the counter itself on others). Under emulation
// the counter steps by 1 µs. The mechanism itself is checked exactly, without slack, by
// TestAnchorLeadBounded; before it was bounded, back-to-back re-anchoring
// put converted times 30 ms ahead in 300 ms.
func TestAnchorLeadBackToBack(t *testing.T) {
	emulated := os.Getenv("COUNTER_TEST_EXEC") != ""
	t.Run("counter", func(t *testing.T) {
		var clk Clock = Monotonic()
		slack := time.Microsecond
		if c, err := Discover(); err == nil {
			clk = c
		} else {
			t.Logf("Discover: %v; using Monotonic", err)
		}
		if emulated {
			slack = 3 * time.Microsecond
		}
		reanchorBackToBack(t, clk, 300*time.Millisecond, slack)
	})
	t.Run("monotonic", func(t *testing.T) {
		slack := 50 * time.Nanosecond
		if emulated {
			slack = 3 * time.Microsecond
		}
		reanchorBackToBack(t, Monotonic(), 100*time.Millisecond, slack)
	})
}

func reanchorBackToBack(t *testing.T, clk Clock, runFor, slack time.Duration) {
	// One CPU: what is measured is the mechanism, not how far the counters
	// or the wall clocks of two CPUs disagree.
	if cpu, err := affinity.Current(); err != nil {
		t.Logf("running unpinned: %v", err)
	} else if unpin, err := affinity.Pin(cpu); err != nil {
		t.Logf("running unpinned: %v", err)
	} else {
		defer unpin()
	}
	a, err := NewAnchor(clk)
	if err != nil {
		t.Fatal(err)
	}
	read := orderedRead(clk)
	var maxBound, maxLead, maxLag time.Duration
	n := 0
	for start := time.Now(); time.Since(start) < runFor; n++ {
		if err := a.Reanchor(); err != nil {
			t.Fatal(err)
		}
		maxBound = max(maxBound, a.Bound())
		r := read()
		now := time.Now()
		lead := a.Time(r).Sub(now)
		lag := a.lag()
		maxLead, maxLag = max(maxLead, lead), max(maxLag, lag)
		if lead > maxBound+slack {
			t.Fatalf("after %d re-anchorings a fresh reading converts %v ahead of time.Now; want at most %v, the largest bound so far, plus %v", n+1, lead, maxBound, slack)
		}
		if lag > 2*maxBound+slack {
			t.Fatalf("after %d re-anchorings Lag() = %v; want at most %v, twice the largest bound so far, plus %v", n+1, lag, 2*maxBound, slack)
		}
	}
	t.Logf("%d re-anchorings in %v: largest bound %v, lead over time.Now %v, lag %v", n, runFor, maxBound, maxLead, maxLag)
}

// TestAnchorConvertsWhileSealed stops a re-anchoring between linking its
// state and completing it, as a descheduled goroutine would, with a step of
// the wall clock back to slew out: conversions meanwhile do not wait (the
// test holds the re-anchoring's lock), fix the cut themselves, convert by
// the new pair past it, and convert exactly as the completed state does.
func TestAnchorConvertsWhileSealed(t *testing.T) {
	a, clk, wall := manualAnchor(t, 2_300_000_000, 1000)
	clk.Advance(time.Second)
	wall.add(time.Second)
	before := a.Time(clk.Now())
	wall.add(-time.Millisecond)
	a.mu.Lock()
	p, err := a.takePair()
	if err != nil {
		t.Fatal(err)
	}
	old, next := a.seal(p)
	clk.Advance(10 * time.Microsecond)
	wall.add(10 * time.Microsecond)
	t1 := clk.Now()
	t2 := t1.add(a.ahead + 1000)
	var w1, w2 time.Time
	var lag time.Duration
	converted := make(chan struct{})
	go func() {
		defer close(converted)
		w1, w2, lag = a.Time(t1), a.Time(t2), a.lag()
	}()
	select {
	case <-converted:
	case <-time.After(10 * time.Second):
		t.Fatal("Time waited for a re-anchoring that holds its lock")
	}
	cut := a.cutFor(old, next)
	if want := t1.add(a.ahead); cut != want {
		t.Errorf("the cut a conversion fixed = %v; want %v, its read of the clock plus cutAhead", cut, want)
	}
	if w1.Before(before) || w2.Before(w1) {
		t.Errorf("Time while sealed: %v, then %v; want no earlier than %v, in order", w1, w2, before)
	}
	if want := time.Millisecond; (lag - want).Abs() > 2 {
		t.Errorf("Lag() while sealed = %v; want %v, the step back, within 2 ns", lag, want)
	}
	a.complete(old, next)
	a.mu.Unlock()
	if s := a.state.Load(); s != next || s.segs[s.n-1].base != cut {
		t.Fatalf("the completed state is not the linked one, or starts at %v; want %v", s.segs[s.n-1].base, cut)
	}
	if g1, g2 := a.Time(t1), a.Time(t2); !g1.Equal(w1) || !g2.Equal(w2) {
		t.Errorf("after completing, Time = %v, %v; want %v, %v, as while sealed", g1, g2, w1, w2)
	}
}

// TestAnchorStoppedClock re-anchors a clock that does not move, 1000 times,
// while the wall clock moves both ways: the newest segment is replaced
// rather than a new one appended each time, so the history does not fill
// with segments ahead of the clock, and a stored reading keeps its time.
func TestAnchorStoppedClock(t *testing.T) {
	a, clk, wall := manualAnchor(t, 24_000_000, 77)
	clk.Advance(time.Millisecond)
	wall.add(time.Millisecond)
	r := clk.Now()
	want := a.Time(r)
	for i := range 1000 {
		wall.add(time.Duration(i%7-3) * time.Microsecond)
		if err := a.Reanchor(); err != nil {
			t.Fatal(err)
		}
		if got := a.Time(r); !got.Equal(want) {
			t.Fatalf("after %d re-anchorings Time(%v) = %v; want %v, as before", i+1, r, got, want)
		}
	}
	if n := a.state.Load().n; n != 2 {
		t.Errorf("%d segments after re-anchoring a stopped clock; want 2", n)
	}
}

// TestAnchorDrift moves the wall clock away from the counter and reads the
// drift back.
func TestAnchorDrift(t *testing.T) {
	a, clk, wall := manualAnchor(t, 24_000_000, 5)
	for _, tc := range []struct {
		name      string
		elapsed   time.Duration
		wallExtra time.Duration
	}{
		{"none", time.Second, 0},
		{"wall ahead 100ppm", time.Second, 100 * time.Microsecond},
		{"wall stepped back", 0, -time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk.Advance(tc.elapsed)
			wall.add(tc.elapsed + tc.wallExtra)
			got, err := a.Drift()
			if err != nil {
				t.Fatal(err)
			}
			if want := -tc.wallExtra; (got - want).Abs() > 1 {
				t.Errorf("Drift() = %v; want %v", got, want)
			}
			if err := a.Reanchor(); err != nil {
				t.Fatal(err)
			}
			if got, err := a.Drift(); err != nil || got != 0 {
				t.Errorf("Drift() after Reanchor = %v, %v; want 0, nil", got, err)
			}
			if got, want := a.state.Load().pair.wall, wall.now(); !got.Equal(want) {
				t.Errorf("the last pair's wall time = %v; want %v", got, want)
			}
		})
	}
}

// TestAnchorConcurrent converts fresh readings on several goroutines while
// one re-anchors, in bursts of back-to-back re-anchorings every 2 ms,
// against a wall clock that steps backwards and forwards. Before each
// reading a goroutine loads the latest conversion of every other one, and
// checks that its own conversion is no earlier than any of them: a reading
// converted on one goroutine, then a later reading converted on another.
// Run it with -race. A conversion whose reading was overtaken by
// anchorHistory−2 re-anchorings before it was converted (a goroutine
// descheduled between the two) is outside the guarantee and not checked;
// the count of those is logged.
func TestAnchorConcurrent(t *testing.T) {
	t.Parallel() // never backwards must hold however the CPUs are shared
	t.Run("manual", func(t *testing.T) {
		clk := newTestClock(1<<40, gigahertz())
		wall := newFakeWall(anchorEpoch)
		var n atomic.Uint64
		read := func() Tickstamp { return clk.AdvanceTicks(Tickdelta(1 + n.Add(1)%97)) }
		wallNow := func() time.Time { return wall.now().Add(time.Duration(clk.Now())) }
		runConcurrent(t, clk, read, wallNow, wall.add)
	})
	t.Run("monotonic", func(t *testing.T) {
		var offset atomic.Int64
		wallNow := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		step := func(d time.Duration) { offset.Add(int64(d)) }
		runConcurrent(t, Monotonic(), Monotonic().Now, wallNow, step)
	})
	t.Run("counter", func(t *testing.T) {
		c, err := Discover()
		if err != nil {
			t.Skip(err)
		}
		var offset atomic.Int64
		wallNow := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
		step := func(d time.Duration) { offset.Add(int64(d)) }
		// Begin: a reading handed between goroutines needs a read ordered
		// after the load that saw the other goroutine's conversion.
		runConcurrent(t, c, c.Begin, wallNow, step)
	})
}

// runConcurrent converts readings from read on several goroutines while one
// re-anchors clk to wall, stepping wall with step now and then.
func runConcurrent(t *testing.T, clk Clock, read func() Tickstamp, wall func() time.Time, step func(time.Duration)) {
	a, err := newAnchor(clk, wall)
	if err != nil {
		t.Fatal(err)
	}
	const converters, runFor, every, burst = 3, 120 * time.Millisecond, 2 * time.Millisecond, 4
	done := make(chan struct{})
	var reanchors atomic.Int64
	var bg sync.WaitGroup
	bg.Go(func() {
		steps := []time.Duration{-time.Millisecond, 3 * time.Millisecond, -time.Second, 10 * time.Microsecond, -50 * time.Microsecond, time.Second}
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			if i%4 == 0 {
				step(steps[(i/4)%len(steps)])
			}
			for range burst {
				if err := a.Reanchor(); err != nil {
					t.Error(err)
					return
				}
				reanchors.Add(1)
			}
			time.Sleep(every)
		}
	})
	var latest [converters]atomic.Int64 // each goroutine's latest conversion, Unix ns
	var handoffs, stale atomic.Int64
	var wg sync.WaitGroup
	for g := range converters {
		wg.Go(func() {
			var last time.Time
			deadline := time.Now().Add(runFor)
			for i := 0; i%1024 != 0 || time.Now().Before(deadline); i++ {
				seen, from := int64(math.MinInt64), -1
				for o := range converters {
					if v := latest[o].Load(); o != g && v > seen {
						seen, from = v, o
					}
				}
				gen := reanchors.Load()
				r := read()
				got := a.Time(r)
				if reanchors.Load()-gen >= anchorHistory-2 {
					stale.Add(1)
					continue
				}
				if i > 0 && got.Before(last) {
					t.Errorf("goroutine %d: Time(%v) = %v; before %v, its previous conversion", g, r, got, last)
					return
				}
				if from >= 0 {
					handoffs.Add(1)
					if got.UnixNano() < seen {
						t.Errorf("goroutine %d: Time(%v) = %v; before %v, which goroutine %d had converted before this reading was taken", g, r, got, time.Unix(0, seen).UTC(), from)
						return
					}
				}
				last = got
				latest[g].Store(got.UnixNano())
			}
		})
	}
	wg.Wait()
	close(done)
	bg.Wait()
	t.Logf("%d re-anchorings during %v of conversions; %d conversions checked against another goroutine's; %d outside the history, unchecked", reanchors.Load(), runFor, handoffs.Load(), stale.Load())
	if reanchors.Load() == 0 {
		t.Error("no re-anchoring ran during the conversions")
	}
	if handoffs.Load() == 0 {
		t.Error("no conversion was checked against another goroutine's")
	}
}

// TestAnchorTimeAllocs checks that a conversion allocates nothing.
func TestAnchorTimeAllocs(t *testing.T) {
	a, clk, _ := manualAnchor(t, 2_300_000_000, 1)
	r := clk.Advance(time.Hour)
	if n := testing.AllocsPerRun(1000, func() { _ = a.Time(r) }); n != 0 {
		t.Errorf("Time allocates %v times a call; want 0", n)
	}
	if err := a.Reanchor(); err != nil { // a state with a lag, and a cut
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(1000, func() { _ = a.Time(r) }); n != 0 {
		t.Errorf("Time after Reanchor allocates %v times a call; want 0", n)
	}
}

// TestAnchorStripsMonotonic checks that converted and anchored times carry
// no monotonic clock reading, even from a wall clock that has one.
func TestAnchorStripsMonotonic(t *testing.T) {
	a, err := NewAnchor(Monotonic())
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]time.Time{
		"Time":     a.Time(Monotonic().Now()),
		"Anchored": a.state.Load().pair.wall,
	} {
		if got != got.Round(0) {
			t.Errorf("%s() = %v; want no monotonic reading", name, got)
		}
	}
}

// TestAnchorRun re-anchors in the background under synctest: one
// re-anchoring a period, and Run returns when its context is cancelled.
func TestAnchorRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := newTestClock(0, gigahertz())
		wallNow := func() time.Time { return anchorEpoch.Add(time.Duration(clk.Now())) }
		a, err := newAnchor(clk, wallNow)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		var runErr error
		var wg sync.WaitGroup
		wg.Go(func() { runErr = a.Run(ctx, time.Second) })
		for i := 1; i <= 3; i++ {
			clk.Advance(time.Second)
			time.Sleep(time.Second)
			synctest.Wait()
			if got, want := a.state.Load().pair.wall, anchorEpoch.Add(time.Duration(i)*time.Second); !got.Equal(want) {
				t.Fatalf("after %d periods Anchored() = %v; want %v", i, got, want)
			}
		}
		cancel()
		wg.Wait()
		if !errors.Is(runErr, context.Canceled) {
			t.Errorf("Run returned %v; want context.Canceled", runErr)
		}
		for _, period := range []time.Duration{-time.Second, 0, time.Microsecond, minRunPeriod - 1} {
			err := a.Run(t.Context(), period)
			if err == nil || !strings.HasPrefix(err.Error(), "counter: ") {
				t.Errorf("Run(ctx, %v) = %v; want an error starting \"counter: \"", period, err)
			}
		}
	})
}

// backwardsClock runs backwards: every read is one tick less.
type backwardsClock struct{ n atomic.Int64 }

func (c *backwardsClock) Now() Tickstamp { return Tickstamp(-c.n.Add(1)) }
func (c *backwardsClock) Rate() TickRate { return gigahertz() }

func TestAnchorRefuses(t *testing.T) {
	if _, err := NewAnchor(nil); err == nil {
		t.Error("NewAnchor(nil) = nil error; want one")
	}
	if _, err := NewAnchor(newTestClock(0, TickRate{})); !errors.Is(err, errZeroRate) {
		t.Errorf("NewAnchor(zero rate) = %v; want errZeroRate", err)
	}
	if _, err := NewAnchor(&backwardsClock{}); !errors.Is(err, errNoBracket) {
		t.Errorf("NewAnchor(backwards clock) = %v; want errNoBracket", err)
	}
	if _, err := NewAnchor((*Counter)(nil)); err == nil {
		t.Error("NewAnchor((*Counter)(nil)) = nil error; want one")
	}
}

// flipClock runs forwards, a tick a read, until flipped, and backwards
// after that.
type flipClock struct {
	n    atomic.Int64
	back atomic.Bool
}

func (c *flipClock) Now() Tickstamp {
	if c.back.Load() {
		return Tickstamp(-c.n.Add(1))
	}
	return Tickstamp(c.n.Add(1))
}
func (c *flipClock) Rate() TickRate { return gigahertz() }

// TestAnchorClockTurnsBackwards anchors a clock that later runs backwards:
// Reanchor refuses and keeps the previous pair, Run returns the refusal,
// and Drift reports it.
func TestAnchorClockTurnsBackwards(t *testing.T) {
	clk := &flipClock{}
	a, err := NewAnchor(clk)
	if err != nil {
		t.Fatal(err)
	}
	before := a.state.Load().pair.wall
	clk.back.Store(true)
	if err := a.Reanchor(); !errors.Is(err, errNoBracket) {
		t.Errorf("Reanchor = %v; want errNoBracket", err)
	}
	if got := a.state.Load().pair.wall; !got.Equal(before) {
		t.Errorf("after a refused Reanchor the pair is from %v; want the previous one, %v", got, before)
	}
	if _, err := a.Drift(); !errors.Is(err, errNoBracket) {
		t.Errorf("Drift = %v; want errNoBracket", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := a.Run(ctx, minRunPeriod); !errors.Is(err, errNoBracket) {
		t.Errorf("Run = %v; want errNoBracket at its first re-anchoring", err)
	}
}

// The tests from here on take their figures from the docs as literals, not
// from the constants, so that a change of a constant that breaks a promise
// fails them.

// reanchorAfter moves the manual clock and the wall clock on by a
// millisecond, steps the wall clock by step, and re-anchors.
func reanchorAfter(t *testing.T, a *Anchor, clk *testClock, wall *fakeWall, step time.Duration) {
	t.Helper()
	clk.Advance(time.Millisecond)
	wall.add(time.Millisecond + step)
	if err := a.Reanchor(); err != nil {
		t.Fatal(err)
	}
}

// TestAnchorMonotoneWithinThirtyReanchorings checks the promise "converted
// times never jump backwards ... provided the later reading is converted
// within 30 re-anchorings of being taken", at its edge: both readings are
// taken within a microsecond before a re-anchoring's cut, so they belong to
// the anchoring before it, and that one is slewing out a step of the wall
// clock back, so converting the later reading by any other line would put
// it before the earlier one. It is converted after exactly 30 more
// re-anchorings.
func TestAnchorMonotoneWithinThirtyReanchorings(t *testing.T) {
	a, clk, wall := manualAnchor(t, 1e9, 1<<40)
	reanchorAfter(t, a, clk, wall, -time.Second) // slewed out at 63/64 from here
	reanchorAfter(t, a, clk, wall, 0)            // its cut is a microsecond past the clock
	r1 := clk.Now()
	w1 := a.Time(r1)
	r2 := clk.AdvanceTicks(1) // a nanosecond later, taken after w1 was returned
	for range 30 {
		reanchorAfter(t, a, clk, wall, 0)
	}
	if w2 := a.Time(r2); w2.Before(w1) {
		t.Errorf("a reading converted 30 re-anchorings after it was taken converts to %v; before %v, the conversion of a reading taken before it", w2, w1)
	}
}

// TestAnchorKeepsThirtyTwoLines checks "the anchor keeps the line of each of
// its last 32 anchorings and converts a reading by the one in force when it
// was taken ...; a reading older than all 32 converts by the oldest line
// kept", with a wall clock stepped a second forwards before each
// re-anchoring, so that each line is a second ahead of the one before. A
// reading taken past a re-anchoring's cut converts as it did while its
// anchoring is among the last 32, that is for 31 more re-anchorings, and by
// the next line, a second later, after 32. A reading taken within a
// microsecond before a cut belongs to the anchoring before it: it converts
// as it did for 30 more re-anchorings, and a second later after 31.
func TestAnchorKeepsThirtyTwoLines(t *testing.T) {
	for _, tc := range []struct {
		name     string
		past     time.Duration // how far past the re-anchoring's read of the clock the reading is taken
		kept     int           // re-anchorings after the reading that keep its line
		wantLine time.Duration // its first conversion less the newest line's wall time
	}{
		{"past the cut", time.Millisecond, 31, 0},
		{"before the cut", 500 * time.Nanosecond, 30, -time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, clk, wall := manualAnchor(t, 1e9, 1<<40)
			reanchorAfter(t, a, clk, wall, time.Second)
			clk.Advance(tc.past)
			wall.add(tc.past)
			r := clk.Now()
			w := a.Time(r)
			if want := wall.now().Add(tc.wantLine); !w.Equal(want) {
				t.Fatalf("Time(%v) = %v; want %v", r, w, want)
			}
			for i := 1; i <= tc.kept; i++ {
				reanchorAfter(t, a, clk, wall, time.Second)
				if got := a.Time(r); !got.Equal(w) {
					t.Fatalf("after %d re-anchorings Time(%v) = %v; want %v, as before", i, r, got, w)
				}
			}
			reanchorAfter(t, a, clk, wall, time.Second)
			if got, want := a.Time(r), w.Add(time.Second); !got.Equal(want) {
				t.Errorf("after %d re-anchorings Time(%v) = %v; want %v, by the oldest line kept, a second ahead of its own", tc.kept+1, r, got, want)
			}
		})
	}
}

// TestAnchorCutAMicrosecondOn checks that a re-anchoring "takes effect a
// microsecond after it reads the clock" (Reanchor: "converts by the new pair
// from a microsecond on"): with a clock that stands still while it
// re-anchors, after a step of the wall clock a second forwards, a reading
// a tick less than a microsecond past the clock converts by the old line,
// as before the re-anchoring, and one a tick more than a microsecond past
// it by the new line, a second ahead.
func TestAnchorCutAMicrosecondOn(t *testing.T) {
	for _, hz := range []uint64{1e9, 24e6, 2_299_999_917} {
		t.Run(fmt.Sprint(hz), func(t *testing.T) {
			a, clk, wall := manualAnchor(t, hz, 1<<40)
			clk.Advance(time.Millisecond)
			wall.add(time.Millisecond)
			now := clk.Now()
			us := a.rate.Ticks(time.Microsecond)
			under, over := now.add(us-1), now.add(us+1)
			wUnder, wOver := a.Time(under), a.Time(over)
			wall.add(time.Second)
			if err := a.Reanchor(); err != nil {
				t.Fatal(err)
			}
			if got := a.Time(under); !got.Equal(wUnder) {
				t.Errorf("Time(a tick less than a microsecond past the re-anchoring) = %v; want %v, by the old line", got, wUnder)
			}
			if got := a.Time(over).Sub(wOver); (got - time.Second).Abs() > 2 {
				t.Errorf("Time(a tick more than a microsecond past the re-anchoring) moved %v; want a second, within 2 ns, to the new line", got)
			}
		})
	}
}

// TestAnchorRunShortestPeriod checks that Run refuses "a period shorter than
// a millisecond" and takes a millisecond: with its context already
// cancelled, it returns the refusal for 999 µs and the context's error for
// 1 ms.
func TestAnchorRunShortestPeriod(t *testing.T) {
	a, _, _ := manualAnchor(t, 1e9, 1<<40)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := a.Run(ctx, 999*time.Microsecond); err == nil || errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "counter: ") {
		t.Errorf("Run(ctx, 999µs) = %v; want a refusal starting \"counter: \"", err)
	}
	if err := a.Run(ctx, time.Millisecond); !errors.Is(err, context.Canceled) {
		t.Errorf("Run(ctx, 1ms) = %v; want context.Canceled, from the cancelled context", err)
	}
}

// A strideClock moves on by stride ticks at every read, so that every
// bracket an anchoring takes is stride ticks wide. Not safe for concurrent
// use.
type strideClock struct {
	now    Tickstamp
	stride Tickdelta
	rate   TickRate
}

func (c *strideClock) Now() Tickstamp { c.now = c.now.add(c.stride); return c.now }
func (c *strideClock) Rate() TickRate { return c.rate }

// TestAnchorBoundRoundsUp checks that Bound is "half the width of the
// bracket the last anchoring kept ... rounded up to the nanosecond, and zero
// for a clock that did not advance across the wall-clock read", with
// brackets of a known width: the halves worked out by hand.
func TestAnchorBoundRoundsUp(t *testing.T) {
	for _, tc := range []struct {
		hz     uint64
		stride Tickdelta
		want   time.Duration
	}{
		{1e9, 0, 0},
		{1e9, 3, 2 * time.Nanosecond},    // 1.5 ns
		{1e9, 4, 2 * time.Nanosecond},    // 2 ns exactly
		{1e9, 101, 51 * time.Nanosecond}, // 50.5 ns
		{24e6, 1, 21 * time.Nanosecond},  // 20.83 ns
		{24e6, 3, 63 * time.Nanosecond},  // 62.5 ns
		{24e6, 24, 500 * time.Nanosecond},
		{2_300_000_000, 1, 1 * time.Nanosecond}, // 0.22 ns
		{2_300_000_000, 3, 1 * time.Nanosecond}, // 0.65 ns
		{2_300_000_000, 5, 2 * time.Nanosecond}, // 1.09 ns
	} {
		t.Run(fmt.Sprintf("%d Hz, %d ticks", tc.hz, tc.stride), func(t *testing.T) {
			r, err := NewTickRate(tc.hz)
			if err != nil {
				t.Fatal(err)
			}
			clk := &strideClock{now: 1 << 40, stride: tc.stride, rate: r}
			a, err := newAnchor(clk, newFakeWall(anchorEpoch).now)
			if err != nil {
				t.Fatal(err)
			}
			if got := a.Bound(); got != tc.want {
				t.Errorf("Bound() after anchoring = %v; want %v", got, tc.want)
			}
			if err := a.Reanchor(); err != nil {
				t.Fatal(err)
			}
			if got := a.Bound(); got != tc.want {
				t.Errorf("Bound() after Reanchor = %v; want %v", got, tc.want)
			}
		})
	}
}

// TestHalfUp checks Bound's arithmetic against math/big: half of w ticks at
// hz, in nanoseconds rounded up, at every rate and width, saturating past
// the Duration range.
func TestHalfUp(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		hz := rapid.OneOf(anchorRateGen(), rapid.Uint64Range(1, math.MaxUint64)).Draw(t, "hz")
		w := rapid.OneOf(rapid.Int64Range(0, 1e6), rapid.Int64Range(0, math.MaxInt64)).Draw(t, "w")
		r, err := NewTickRate(hz)
		if err != nil {
			t.Fatal(err)
		}
		num := new(big.Int).Mul(big.NewInt(w), big.NewInt(1e9))
		den := new(big.Int).Mul(new(big.Int).SetUint64(hz), big.NewInt(2))
		want, rem := new(big.Int).QuoRem(num, den, new(big.Int))
		if rem.Sign() != 0 {
			want.Add(want, big.NewInt(1))
		}
		if !want.IsInt64() {
			want.SetInt64(math.MaxInt64)
		}
		if got := halfUp(Tickdelta(w), r); int64(got) != want.Int64() {
			t.Fatalf("halfUp(%d ticks, %d Hz) = %d ns; want %v", w, hz, int64(got), want)
		}
	})
}
