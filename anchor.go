package counter

import (
	"context"
	"errors"
	"math"
	"math/bits"
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
// that bracket, [Anchor.Bound]: the cost of a read of the wall clock and
// two of the clock, plus one step of a clock that advances in coarse steps.
// To that a conversion adds the rate's error times the time since the pair
// was taken (an error of one part per million is a microsecond a second),
// one nanosecond of rounding, and whatever the wall clock has been adjusted
// by since: NTP slews it, and an operator or a time daemon may step it.
// [Anchor.Reanchor]
// takes a fresh pair, and [Anchor.Run] does so periodically; [Anchor.Drift]
// reports how far the two clocks have moved apart since the last pair.
//
// Converted times never jump backwards: once [Anchor.Time] has returned w
// for some reading, it returns no less than w for any reading taken after
// that, whatever the anchor was re-anchored to in between, provided the
// later reading is converted within 30 re-anchorings of being taken (a
// reading taken within a microsecond before a re-anchoring's cut belongs to
// the anchoring before it). That holds across goroutines too, a
// reading converted on one and then a reading taken on another that has
// seen the first's result, where the second reading is ordered after the
// memory operations before it, as [Counter.Now], [Counter.Begin] and
// a [Monotonic] Counter are (not [Counter.NowUnordered]). The anchor keeps the
// line of each of its last 32 anchorings and converts a reading by the one
// in force when it was taken, so a reading converted again converts to the
// same time; a reading older than all 32 converts by the oldest line kept.
//
// How a re-anchoring moves converted times: it takes effect a microsecond
// after it reads the clock, at its cut. A new pair that puts the wall clock ahead of
// where the converted times had got to, a step of the wall clock forwards
// or a counter that ran slow, takes effect at once, and converted times
// step forwards with the wall clock. One that puts it behind, a step of the
// wall clock backwards or a counter that ran fast, does not: converted times
// carry on from where they were, at 63/64 of the counter's speed, until
// they meet the new pair's line, and follow it from there: a step back of
// s is slewed out in 64·s.
//
// A re-anchoring adds no lead of its own: at its cut, converted times carry
// on from the larger of the new line and where the previous conversion had
// got to, never jumping past both. So, however often the anchor is
// re-anchored (back-to-back, or [Anchor.Run] at its shortest period), a
// fresh reading converts to no later than the wall clock plus the largest
// error among the pairs still being slewed towards, each within its
// [Anchor.Bound] (and a step of a coarse clock), plus what the rate's error
// and NTP's slew add up over one period; and the lead of converted times
// over the last line stays below twice that largest bound, where the wall
// clock is read from the same counter (Linux's clocksource tsc). A wall
// clock from another source, such as kvm-clock, wanders against the
// counter, and the pairs' errors with it. Only a wall clock stepped or
// slewed backwards, or a counter that ran fast, leaves converted times
// further ahead, and that is slewed out as above.
//
// An Anchor is safe for concurrent use: any number of goroutines may
// convert while one re-anchors, and conversions never wait for it. The zero
// Anchor is not usable: make one with NewAnchor.
type Anchor struct {
	// read reads the clock ordered after the loads and stores before it,
	// as publish's proof needs: Now for a Clock whose reads are ordered,
	// and Counter.Begin for a Counter.
	read  func() Tickstamp
	rate  TickRate
	ahead Tickdelta        // cutAhead in ticks
	wall  func() time.Time // time.Now, except in tests

	// brackets reads the wall clock, in nanoseconds since 1970, between two
	// reads of the clock: the package's one bracketing primitive, with the
	// wall clock as its reference.
	brackets clockPair

	// state is the mapping in force. A re-anchoring links the state that
	// replaces it to it before storing that here; see publish.
	state atomic.Pointer[anchorState]
	mu    sync.Mutex // serializes re-anchorings; conversions never take it
}

// anchorBrackets is how many brackets an anchoring takes, keeping the
// tightest. Each costs two clock reads and one wall-clock read.
const anchorBrackets = 16

// slewShift sets how fast converted times catch up with a wall clock that
// went back: they run at 1−2⁻ˢˡᵉʷˢʰⁱᶠᵗ = 63/64 of the counter's speed until
// they meet the new line.
const slewShift = 6

// cutAhead is how far past its read of the clock a re-anchoring's cut lies.
// The proof in publish orders the read that fixes the cut after a load or
// store of the link; what the instructions alone do not promise, this
// margin covers, and it costs nothing but a new pair taking effect a
// microsecond later: on amd64 LFENCE does not wait for an earlier store to
// become visible (Go's atomic store is a locked XCHG, which does); on arm64
// ISB; MRS does not wait for an earlier STLR to become visible to other
// cores; and a reading taken with an unordered read, or with Now, which
// later loads may overtake, may lie a few nanoseconds past where its
// instruction stands.
const cutAhead = time.Microsecond

// minRunPeriod is the shortest period Run accepts.
const minRunPeriod = time.Millisecond

// anchorHistory is how many segments a state keeps: the one of each of the
// last anchorings. A reading converts through the segment that was in force
// when it was taken, so that every state converts it alike, as long as that
// segment is still kept.
const anchorHistory = 32

// An anchorState is one published mapping from readings to wall time:
// segs[:n], oldest first, each in force for the readings after its base up
// to and including the next one's base, and the oldest also for every
// reading before it. Each re-anchoring appends a segment, dropping the
// oldest where all anchorHistory are taken, or replaces the newest where
// the clock has not moved past its base (see cutFor).
//
// A state is made in two steps. A re-anchoring makes one with only its
// pair and links it as the next of the state in force (sealing that one);
// then it fixes the cut, fills segs and n, and stores the state as the
// anchor's. From the link on, conversions that meet the sealed state
// convert as the new one will, from the pair and the cut alone.
type anchorState struct {
	// next is the state that replaces this one, once a re-anchoring has
	// begun to publish it; nil before.
	next atomic.Pointer[anchorState]
	// cut says where this state's own newest segment begins, once fixed:
	// 0 until then, else 1 + its distance in ticks past the newest base of
	// the state this one replaces.
	cut atomic.Uint64

	rate TickRate
	n    int
	segs [anchorHistory]segment

	// The pair of the anchoring that made this state, for the accessors.
	pair anchorPair
}

// find returns the segment of segs in force for reading t: the newest
// whose base is before t, or the oldest. A fresh reading takes one
// comparison.
func find(segs []segment, t Tickstamp) *segment {
	i := len(segs) - 1
	for i > 0 && t.Sub(segs[i].base) <= 0 {
		i--
	}
	return &segs[i]
}

// successor returns how the state that replaces s for pair p with the given
// cut is made: it keeps s.segs[lo:hi] and appends seg. The new segment
// starts at the cut from the larger of p's line and the segment in force
// there, so the history stays monotone, and jumps no further.
func (s *anchorState) successor(p anchorPair, cut Tickstamp) (lo, hi int, seg segment) {
	hi = s.n
	if cut == s.segs[hi-1].base {
		hi-- // the clock has not moved past the newest base: replace it
	}
	prev := &s.segs[hi-1]
	line := p.wall.Add(cut.Sub(p.ticks).Duration(s.rate))
	seg = segment{base: cut, wall: line}
	if lag := prev.at(cut, s.rate).Sub(line); lag > 0 {
		seg.lag = lag
	}
	if hi == anchorHistory {
		lo = 1
	}
	return lo, hi, seg
}

// An anchorPair is a reading of the clock and the wall time it was taken
// at, off by at most bound.
type anchorPair struct {
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

// NewAnchor returns an Anchor that converts readings of c, anchored once to
// the wall clock ([time.Now]). It refuses a nil clock, one at the zero
// [TickRate], and a clock that runs backwards across the wall-clock read in
// every bracket, each with an error that says which. It costs a few brackets,
// each a read of c on either side of [time.Now].
//
// The anchor reads c itself only to anchor and to place a re-anchoring's
// cut, and needs those reads ordered after the memory operations before
// them: it reads a [Counter] with [Counter.Begin], and any other clock with
// its Now.
func NewAnchor(c Clock) (*Anchor, error) {
	return newAnchor(c, time.Now)
}

// newAnchor is NewAnchor with the wall clock given, for tests.
func newAnchor(c Clock, wall func() time.Time) (*Anchor, error) {
	switch p := c.(type) {
	case nil:
		return nil, errors.New("counter: a nil Clock cannot be anchored")
	case *Counter:
		if p == nil {
			return nil, errors.New("counter: a nil *Counter cannot be anchored")
		}
	}
	r := c.Rate()
	if r.Hertz() == 0 {
		return nil, &wrapError{
			msg:     "counter: a clock at 0 Hz cannot be anchored: its spans convert to nothing",
			wrapped: errZeroRate,
		}
	}
	a := &Anchor{read: orderedRead(c), rate: r, ahead: r.Ticks(cutAhead), wall: wall}
	a.brackets = clockPair{counter: withoutCPU(a.read), raw: func() int64 { return a.wall().UnixNano() }}
	p, err := a.takePair()
	if err != nil {
		return nil, err
	}
	s := &anchorState{rate: r, n: 1, pair: p}
	s.segs[0] = segment{base: p.ticks, wall: p.wall}
	a.state.Store(s)
	return a, nil
}

// orderedRead returns a read of c ordered after the loads and stores before
// it: a Counter's Begin (LFENCE; RDTSC; LFENCE on amd64, ISB; MRS; ISB on
// arm64), and any other clock's Now, which the Clock types of this package
// order (the vDSO's ordered read, a system call, an atomic load).
func orderedRead(c Clock) func() Tickstamp {
	switch c := c.(type) {
	case Counter:
		return c.Begin
	case *Counter:
		return c.Begin
	}
	return c.Now
}

// takePair reads the wall clock between two readings of the clock
// anchorBrackets times and returns the tightest bracket's pair: the wall
// time at the bracket's midpoint, off by at most half its width (and a
// nanosecond of rounding) where the wall clock was read inside it.
func (a *Anchor) takePair() (anchorPair, error) {
	b, _, _, _ := a.brackets.tightest(anchorBrackets)
	if b.width < 0 {
		return anchorPair{}, errNoBracket
	}
	best := anchorPair{ticks: b.mid, wall: time.Unix(0, b.raw)}
	if b.width%2 != 0 {
		// The midpoint lies half a tick past b.mid: move the wall time
		// back by as much, for the line through b.mid: on a coarse clock,
		// tens of nanoseconds.
		best.wall = best.wall.Add(-Tickdelta(1).Duration(a.rate) / 2)
	}
	best.bound = halfUp(b.width, a.rate)
	return best, nil
}

// halfUp returns half of w ticks at rate r, in nanoseconds rounded up:
// ⌈w·10⁹/hz/2⌉, never less than the exact half, as rounding the span to the
// nearest nanosecond first (Tickdelta.Duration) can be. It is worked out as
// ⌈⌈w·10⁹/hz⌉/2⌉, which is equal. w ≥ 0 and r is not the zero TickRate; a
// half past the Duration range saturates.
func halfUp(w Tickdelta, r TickRate) time.Duration {
	hz := r.Hertz()
	hi, lo := bits.Mul64(uint64(w), 1e9)
	if hi >= hz {
		return math.MaxInt64
	}
	q, rem := bits.Div64(hi, lo, hz) // w·10⁹/hz = q + rem/hz
	h := q / 2
	if q%2 != 0 || rem != 0 {
		h++
	}
	return time.Duration(min(h, math.MaxInt64))
}

// Time returns the wall-clock time at which the clock read t: the anchor's
// wall time plus the span from the anchor's reading to t, converted as by
// [Tickdelta.Duration], plus any backward step still being slewed out (see
// [Anchor]). t may lie before or after the anchor, by up to the
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
// Time takes no lock, never waits and does not allocate: two atomic loads
// and a few multiplies. A conversion that meets a re-anchoring between its
// two steps (a window of nanoseconds, unless the re-anchoring goroutine is
// descheduled in it) also reads the clock once, as [Counter.Begin] does for
// a [Counter], and with its Now for any other clock.
func (a *Anchor) Time(t Tickstamp) time.Time {
	s := a.load("Time")
	if next := s.next.Load(); next != nil {
		g := a.across(s, next, t)
		return g.at(t, s.rate)
	}
	return find(s.segs[:s.n], t).at(t, s.rate)
}

// across returns the segment that converts t by next, the state that is
// replacing s, from its pair and cut alone: next's segments need not be
// filled in yet.
func (a *Anchor) across(s, next *anchorState, t Tickstamp) segment {
	cut := a.cutFor(s, next)
	lo, hi, seg := s.successor(next.pair, cut)
	if t.Sub(cut) > 0 {
		return seg
	}
	return *find(s.segs[lo:hi], t)
}

// cutFor returns the cut of next, the state that is replacing s: the
// reading after which next's own segment is in force. Whoever needs it
// first fixes it, the re-anchoring or a conversion, at a read of the clock
// taken after it found next linked to s, plus cutAhead; or at s's newest
// base where the clock has not moved past it, so that a stopped clock
// re-anchored again and again replaces one segment instead of marching the
// cut ahead of it.
func (a *Anchor) cutFor(s, next *anchorState) Tickstamp {
	last := s.segs[s.n-1].base
	if c := next.cut.Load(); c != 0 {
		return last.add(Tickdelta(c - 1))
	}
	d := a.read().add(a.ahead).Sub(last)
	if d <= 0 {
		d = 0 // replace the newest segment, which nothing has converted by
		if s.n == 1 {
			d = 1 // but never the only one, which converts every reading
		}
	}
	next.cut.CompareAndSwap(0, uint64(d)+1)
	return last.add(Tickdelta(next.cut.Load() - 1))
}

// Reanchor pairs a fresh reading of the clock with the wall clock, as
// [NewAnchor] did, and converts by the new pair from a microsecond on.
// Where the new pair maps the present later than converted times had got
// to, they step forwards to it; where it maps it earlier, they slow to 63/64
// of the counter's speed until they meet it (see [Anchor]). Calling it back
// to back leaves converted times no further ahead than calling it once a
// second. Reanchor reads the clock and the wall clock a few dozen times,
// and allocates one state. It returns an error, and keeps the
// previous pair, where the clock ran backwards in every bracket.
func (a *Anchor) Reanchor() error {
	if why := a.unusable("Reanchor"); why != "" {
		return errors.New(why)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	p, err := a.takePair()
	if err != nil {
		return err
	}
	a.publish(p)
	return nil
}

// publish makes p the anchor's pair. With mu held.
//
// Why converted times cannot go back. Every state converts by one history:
// a segment for each anchoring, in force after its base (the cut) up to the
// next one's, each starting no earlier at its base than the segment before
// it there (successor). Each segment is monotone, so the history is. What
// must be shown is that a reading converted by a state, or by its
// successor as a conversion meeting the link computes it, lies before the
// successor's cut: then every later state converts it alike, as long as its
// segment is kept, and so any two conversions agree with the one history
// and keep the readings' order.
//
// A conversion by a state s alone found s.next nil, so its load of s.next
// came before seal's store (the atomics are sequentially consistent), and
// its reading was taken before that load. The cut is fixed by a read of
// the clock taken after the fixer saw the link: seal's own store, or a
// conversion's load that found it. That read is ordered after the store or
// load before it (the read this needs: Counter.Begin's LFENCE; RDTSC, or
// ISB; MRS; an ordered Now for other clocks), so it is later than the
// reading, and the cut, cutAhead later still, covers the nanoseconds by
// which the instructions leave that order to the memory system (see
// cutAhead). A conversion that computed next from
// the link had loaded s from a.state before complete stored next there, so
// its reading, too, came before that store, and so before the link of
// next's own successor and the read that fixes its cut. No conversion waits
// for the re-anchoring; one that meets the link before the cut is fixed
// fixes it itself, and the compare-and-swap makes everyone agree on one.
//
// A replaced segment (a cut at the newest base) has converted nothing: the
// clock has not moved past that base, so neither has any reading converted
// so far.
func (a *Anchor) publish(p anchorPair) {
	old, next := a.seal(p)
	a.complete(old, next)
}

// seal links a state for p, not yet filled in, as the successor of the state
// in force, and returns both.
func (a *Anchor) seal(p anchorPair) (old, next *anchorState) {
	old = a.state.Load()
	next = &anchorState{rate: a.rate, pair: p}
	old.next.Store(next)
	return old, next
}

// complete fixes next's cut if no conversion has, fills next in, and makes
// it the state in force.
func (a *Anchor) complete(old, next *anchorState) {
	lo, hi, seg := old.successor(next.pair, a.cutFor(old, next))
	next.n = copy(next.segs[:], old.segs[lo:hi])
	next.segs[next.n] = seg
	next.n++
	a.state.Store(next)
}

// Run re-anchors every period, as [Anchor.Reanchor] does, until ctx is done,
// and returns ctx's error then. Start it on a goroutine of its own and stop
// it by cancelling ctx:
//
//	ctx, cancel := context.WithCancel(context.Background())
//	go func() {
//		if err := a.Run(ctx, time.Second); err != nil && ctx.Err() == nil {
//			log.Print(err) // re-anchoring stopped
//		}
//	}()
//	defer cancel()
//
// Between re-anchorings, conversions drift from the wall clock by the
// rate's error and NTP's slew times the period. Run returns at once with an
// error for a period shorter than a millisecond, which would spend the
// goroutine's time re-anchoring and shorten the time within which a stored
// reading converts as it did (30 re-anchorings; see [Anchor]), and returns
// Reanchor's error where Reanchor fails.
func (a *Anchor) Run(ctx context.Context, period time.Duration) error {
	if why := a.unusable("Run"); why != "" {
		return errors.New(why)
	}
	if ctx == nil {
		return errors.New("counter: Anchor.Run: a nil ctx; pass the context whose end stops the re-anchoring")
	}
	if period < minRunPeriod {
		return errors.New("counter: an anchor cannot re-anchor every " + period.String() + ": the period must be at least " + minRunPeriod.String())
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
// the last anchoring, a steady drift is the rate's error or NTP's slew of
// the wall clock; a sudden one is a step of the
// wall clock. It returns an error where the clock ran backwards in every
// bracket.
func (a *Anchor) Drift() (time.Duration, error) {
	if why := a.unusable("Drift"); why != "" {
		return 0, errors.New(why)
	}
	p, err := a.takePair()
	if err != nil {
		return 0, err
	}
	last := a.state.Load().pair
	return last.wall.Add(p.ticks.Sub(last.ticks).Duration(a.rate)).Sub(p.wall), nil
}

// lag returns how far ahead of the last pair's line [Anchor.Time] maps a
// reading taken now: zero, except while a step of the wall clock backwards
// (or a counter that ran fast) is being slewed out, when it is what is left
// of the step, shrinking by a 64th of the time that passes, and within twice
// the largest recent [Anchor.Bound] after a re-anchoring that found the
// clocks in step. Before the last re-anchoring's cut, it is the lag the
// new pair starts with.
func (a *Anchor) lag() time.Duration {
	s := a.state.Load()
	var g segment
	if next := s.next.Load(); next != nil {
		_, _, g = s.successor(next.pair, a.cutFor(s, next))
	} else {
		g = s.segs[s.n-1]
	}
	t := a.read()
	if t.Sub(g.base) <= 0 {
		return g.lag
	}
	return g.lagAt(t, s.rate)
}

// Bound returns half the width of the bracket the last anchoring kept: how
// far, at most, the pair it took is off. It is rounded up to the nanosecond,
// and zero for a clock that did not advance across the wall-clock read.
func (a *Anchor) Bound() time.Duration { return a.load("Bound").pair.bound }

// load returns the state in force, and panics, naming the method call, where
// a is nil or the zero Anchor.
func (a *Anchor) load(call string) *anchorState {
	if a != nil {
		if s := a.state.Load(); s != nil {
			return s
		}
	}
	panic(a.unusable(call))
}

// unusable returns why the method call cannot use a, "" where it can: a is
// nil, or the zero Anchor, which NewAnchor did not make.
func (a *Anchor) unusable(call string) string {
	switch {
	case a == nil:
		return "counter: Anchor." + call + ": a nil *Anchor; make one with NewAnchor"
	case a.state.Load() == nil:
		return "counter: Anchor." + call + ": the zero Anchor has no pair of readings; make one with NewAnchor"
	}
	return ""
}
