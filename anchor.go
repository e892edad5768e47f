package counter

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// An Anchor turns readings of a [Clock] into wall-clock time, off the hot
// path: the hot path stores a [Tickstamp], and a logger later calls
// [Anchor.Time] to get the [time.Time] at which it was taken, as [time.Now]
// would have said, without a system call. It pairs one reading of the clock
// with one reading of the wall clock, and converts a reading t to the pair's
// wall time plus the span from the pair's reading to t.
//
// The pair is taken by bracketing: the wall clock is read between two
// readings of the clock, several times, and the tightest bracket is kept,
// its midpoint paired with the wall time. The pair is off by at most half
// that bracket, [Anchor.Bound]: typically tens of nanoseconds. To that a
// conversion adds the rate's error times the time since the pair was taken
// (1 ppm of error is 1 µs a second), one nanosecond of rounding, and
// whatever the wall clock has been adjusted by since: NTP slews it by up to
// 500 ppm, and an operator or a time daemon may step it. [Anchor.Reanchor]
// takes a fresh pair, and [Anchor.Run] does so periodically; [Anchor.Drift]
// reports how far the two clocks have moved apart since the last pair.
//
// Converted times never jump backwards: once [Anchor.Time] has returned w
// for some reading, it returns no less than w for any reading taken after
// that, whatever the anchor was re-anchored to in between, provided the
// later reading is converted within 31 re-anchorings of being taken (31 s
// at a period of a second). The anchor keeps the line of each of its last
// 32 anchorings and converts a reading by the one in force when it was
// taken, so a reading converted again converts to the same time; a reading
// older than all 32 converts by the oldest line kept.
//
// How a re-anchoring moves converted times: a new pair that puts the wall
// clock ahead of where the previous line maps the present, a step of the
// wall clock forwards or a counter that ran slow, takes effect at once, and
// converted times step forwards with the wall clock. One that puts it
// behind, a step of the wall clock backwards or a counter that ran fast,
// does not: converted times keep running from where they were, at 63/64 of
// the counter's speed, until they meet the new pair's line, and follow it
// from there. A step back of 1 ms is slewed out in 64 ms, one of a second in
// a little over a minute; [Anchor.Lag] says how much is left. Every
// re-anchoring also moves converted times forwards by at least 256 ns,
// slewed out in 16 µs, a margin that keeps the guarantee where the
// processor reorders a counter read.
//
// An Anchor is safe for concurrent use: any number of goroutines may
// convert while one re-anchors. A conversion is one atomic load and a few
// multiplies; it takes no lock, allocates nothing and makes no system call,
// except that a conversion that meets the instant at which a new pair is
// published waits for it, which takes well under a microsecond unless the
// re-anchoring goroutine is descheduled in that instant.
type Anchor struct {
	clock Clock
	rate  TickRate
	wall  func() time.Time // time.Now, except in tests

	// state is the current mapping, immutable once published; nil only
	// while Reanchor publishes a new one, with mu held.
	state atomic.Pointer[anchorState]
	mu    sync.Mutex // held by Reanchor; waited on by readers that meet nil
}

// anchorBrackets is how many brackets an anchoring takes, keeping the
// tightest. Each costs two clock reads and one wall-clock read, about
// 100 ns here.
const anchorBrackets = 16

// slewShift sets how fast converted times catch up with a wall clock that
// went back: they run at 1−2⁻ˢˡᵉʷˢʰⁱᶠᵗ = 63/64 of the counter's speed until
// they meet the new line.
const slewShift = 6

// cutAhead is how far past its last reading of the clock a new anchoring
// takes effect, and cutJump how far it then moves converted times forwards
// at least. Together they absorb what a reading of the counter may be
// displaced by, against memory operations around it (an unordered read runs
// up to a hundred cycles early or late) and between CPUs; see publish.
const (
	cutAhead = 100 * time.Nanosecond
	cutJump  = 256 * time.Nanosecond
)

// anchorHistory is how many segments a state keeps: the one of each of the
// last anchorings. A reading converts through the segment that was in force
// when it was taken, so that every state converts it alike, as long as that
// segment is still kept.
const anchorHistory = 32

// An anchorState is one published mapping from readings to wall time,
// immutable once published: segs[:n], oldest first, each in force for the
// readings after its base up to the next one's base, and the oldest also for
// every reading before it. Each re-anchoring appends a segment, dropping the
// oldest where all anchorHistory are taken.
type anchorState struct {
	rate TickRate
	n    int
	segs [anchorHistory]segment

	// The pair of the last anchoring, for the accessors.
	pair pair
}

// find returns the segment in force for reading t: the newest whose base
// is before t. A fresh reading takes one comparison.
func (s *anchorState) find(t Tickstamp) *segment {
	i := s.n - 1
	for i > 0 && t.Sub(s.segs[i].base) <= 0 {
		i--
	}
	return &s.segs[i]
}

// A pair is a reading of the clock and the wall time it was taken at, off
// by at most bound.
type pair struct {
	ticks Tickstamp
	wall  time.Time     // monotonic reading stripped
	bound time.Duration // half the bracket's width, rounded up
}

// A segment maps readings to wall time along the line of slope one through
// (base, wall), plus a lag that is shed after base: at a reading d
// nanoseconds past base the mapping is wall + d + max(lag − d/64, 0), and
// before base it is wall + d + lag. It is monotone in the reading, and
// continuous at base.
type segment struct {
	base Tickstamp
	wall time.Time     // the line's wall time at base, without a monotonic reading
	lag  time.Duration // ≥ 0: how far ahead of the line the mapping is at base
}

// at returns the segment's wall time for reading t at rate r.
func (g *segment) at(t Tickstamp, r TickRate) time.Time {
	d := t.Sub(g.base).Duration(r)
	if g.lag != 0 {
		d = addLag(d, g.lag)
	}
	return g.wall.Add(d)
}

// addLag returns d plus what is left of lag d nanoseconds past the base,
// saturating at the top of the Duration range.
func addLag(d, lag time.Duration) time.Duration {
	if d > 0 {
		lag -= d >> slewShift
		if lag <= 0 {
			return d
		}
	}
	if s := d + lag; s >= d {
		return s
	}
	return math.MaxInt64
}

// lagAt returns how far ahead of its line the segment maps reading t.
func (g *segment) lagAt(t Tickstamp, r TickRate) time.Duration {
	d := t.Sub(g.base).Duration(r)
	return addLag(d, g.lag) - d
}

// ErrNoBracket is the error of an anchoring whose clock read less after the
// wall clock than before it in every bracket: a clock that runs backwards,
// which cannot be anchored.
var ErrNoBracket = errors.New("counter: the clock ran backwards across the wall-clock read in every bracket")

// NewAnchor returns an Anchor that converts readings of c, anchored once to
// the wall clock ([time.Now]). It refuses a nil clock and one at the zero
// [TickRate] (wrapping [ErrZeroRate]), and a clock that runs backwards
// ([ErrNoBracket]). It takes about 2 µs where c is a [Counter].
func NewAnchor(c Clock) (*Anchor, error) {
	return newAnchor(c, time.Now)
}

// newAnchor is NewAnchor with the wall clock given, for tests.
func newAnchor(c Clock, wall func() time.Time) (*Anchor, error) {
	if c == nil {
		return nil, errors.New("counter: a nil Clock cannot be anchored")
	}
	r := c.Rate()
	if r.Hertz() == 0 {
		return nil, &wrapError{
			msg:     "counter: a clock at 0 Hz cannot be anchored: its spans convert to nothing",
			wrapped: ErrZeroRate,
		}
	}
	a := &Anchor{clock: c, rate: r, wall: wall}
	p, err := a.bracket()
	if err != nil {
		return nil, err
	}
	s := &anchorState{rate: r, n: 1, pair: p}
	s.segs[0] = segment{base: p.ticks, wall: p.wall}
	a.state.Store(s)
	return a, nil
}

// bracket reads the wall clock between two readings of the clock
// anchorBrackets times and returns the tightest bracket's pair.
func (a *Anchor) bracket() (pair, error) {
	var best pair
	width := Tickdelta(-1)
	for range anchorBrackets {
		t0 := a.clock.Now()
		w := a.wall()
		t1 := a.clock.Now()
		if d := t1.Sub(t0); d >= 0 && (width < 0 || d < width) {
			width = d
			best = pair{ticks: t0.Add(d / 2), wall: w}
		}
	}
	if width < 0 {
		return pair{}, ErrNoBracket
	}
	best.wall = best.wall.Round(0)
	best.bound = (width.Duration(a.rate) + 1) / 2
	return best, nil
}

// load returns the current state, waiting for one being published.
func (a *Anchor) load() *anchorState {
	if s := a.state.Load(); s != nil {
		return s
	}
	a.mu.Lock()
	s := a.state.Load()
	a.mu.Unlock()
	return s
}

// Time returns the wall-clock time at which the clock read t: the anchor's
// wall time plus the span from the anchor's reading to t, converted as by
// [Tickdelta.Duration], plus any backward step still being slewed out (see
// [Anchor.Lag]). t may lie before or after the anchor, by up to the
// [Tickdelta] range; a span past the range of [time.Duration], about 292
// years, saturates.
//
// The result has no monotonic clock reading ([time.Time.Round](0)): it is
// made from the wall clock alone, and one synthesized from the counter would
// make [time.Time.Sub] and [time.Time.Before] between it and times from
// [time.Now] compare the counter with the monotonic clock, silently.
// Compare converted times by their wall clock, and measure spans with
// [Tickstamp.Sub].
//
// Time makes no system call, takes no lock and does not allocate.
func (a *Anchor) Time(t Tickstamp) time.Time {
	s := a.state.Load()
	if s == nil {
		s = a.load()
	}
	return s.find(t).at(t, s.rate)
}

// Reanchor pairs a fresh reading of the clock with the wall clock, as
// [NewAnchor] did, and converts by the new pair from now on. Where the new
// pair maps the present later than the previous one did, converted times
// step forwards at once; where it maps it earlier, they slow to 63/64 of the
// counter's speed until they meet it (see [Anchor]). Reanchor takes about
// 2 µs where the clock is a [Counter]. It returns [ErrNoBracket], and keeps
// the previous pair, where the clock ran backwards in every bracket.
func (a *Anchor) Reanchor() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, err := a.bracket()
	if err != nil {
		return err
	}
	a.publish(p)
	return nil
}

// publish makes p the anchor's pair. With mu held.
//
// Why converted times cannot go back. The conversions of every state follow
// one history: a segment for each anchoring, in force from its base, the
// cut, up to the next one's, and no earlier at its base than the segment
// before it there plus cutJump. Each segment is monotone, so the history is.
// A new segment starts past every reading the old state can have converted:
// a conversion by the old state loaded it before the nil
// is stored below, so its reading was taken before the clock is read here,
// and lies before the cut (cutAhead absorbs how far the counter's reads may
// be displaced against memory operations, and cutJump what is left). So any
// two conversions, by whichever states, of readings still within the kept
// segments agree with the one history, and keep the readings' order.
func (a *Anchor) publish(p pair) {
	old := a.state.Load()
	a.state.Store(nil) // conversions from here on wait for the new state
	r := a.rate
	last := &old.segs[old.n-1]
	cut := a.clock.Now().Add(r.Ticks(cutAhead))
	if cut.Sub(last.base) <= 0 { // a clock that has not moved since
		cut = last.base.Add(1)
	}
	floor := last.at(cut, r).Add(cutJump)
	line := p.wall.Add(cut.Sub(p.ticks).Duration(r))
	next := segment{base: cut, wall: line}
	if lag := floor.Sub(line); lag > 0 {
		next.lag = lag
	}
	s := &anchorState{rate: r, pair: p}
	kept := old.segs[:old.n]
	if len(kept) == anchorHistory {
		kept = kept[1:]
	}
	s.n = copy(s.segs[:], kept)
	s.segs[s.n] = next
	s.n++
	a.state.Store(s)
}

// Run re-anchors every period, as [Anchor.Reanchor] does, until ctx is done,
// and returns ctx's error then. Start it on a goroutine of its own and stop
// it by cancelling ctx:
//
//	ctx, cancel := context.WithCancel(context.Background())
//	go a.Run(ctx, time.Second)
//	defer cancel()
//
// A period of a second keeps a rate error of 1 ppm below 1 µs and an NTP
// slew of 500 ppm below 500 µs. Run returns at once with an error for a
// period of zero or less, and returns [ErrNoBracket] where Reanchor does.
func (a *Anchor) Run(ctx context.Context, period time.Duration) error {
	if period <= 0 {
		return errors.New("counter: an anchor cannot re-anchor every " + period.String() + ": the period must be positive")
	}
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			if err := a.Reanchor(); err != nil {
				return err
			}
		}
	}
}

// Drift reports how far the clock and the wall clock have moved apart since
// the last anchoring: it takes a fresh bracket, as [Anchor.Reanchor] does
// but without re-anchoring, and returns the time the last pair's line gives
// its reading minus the wall clock's, positive where the clock runs ahead.
// It is off by up to the two pairs' bounds. Divided by the time since
// [Anchor.Anchored], a steady drift is the rate's error (1 µs in a second is
// 1 ppm) or NTP's slew of the wall clock; a sudden one is a step of the
// wall clock. It returns [ErrNoBracket] where the clock ran backwards in
// every bracket.
func (a *Anchor) Drift() (time.Duration, error) {
	p, err := a.bracket()
	if err != nil {
		return 0, err
	}
	last := a.load().pair
	return last.wall.Add(p.ticks.Sub(last.ticks).Duration(a.rate)).Sub(p.wall), nil
}

// Lag returns how far ahead of the last pair's line [Anchor.Time] maps a
// reading taken now: zero, except while a step of the wall clock backwards
// (or a counter that ran fast) is being slewed out, when it is what is left
// of the step, shrinking by a 64th of the time that passes.
func (a *Anchor) Lag() time.Duration {
	s := a.load()
	g := &s.segs[s.n-1]
	t := a.clock.Now()
	if t.Sub(g.base) <= 0 {
		return g.lag
	}
	return g.lagAt(t, s.rate)
}

// Bound returns half the width of the bracket the last anchoring kept: how
// far, at most, the pair it took is off. It is rounded up to the nanosecond,
// and zero for a clock that did not advance across the wall-clock read.
func (a *Anchor) Bound() time.Duration { return a.load().pair.bound }

// Anchored returns the wall-clock time of the last anchoring, without a
// monotonic clock reading.
func (a *Anchor) Anchored() time.Time { return a.load().pair.wall }

// Clock returns the clock the anchor converts readings of.
func (a *Anchor) Clock() Clock { return a.clock }
