package counter

import "bytes"

// A clocksourceFile is the file in which Linux names its current
// clocksource, open: openClocksource opens the machine's, and tests script
// one.
type clocksourceFile interface {
	// readAll reads the whole file afresh, from its start, into b.
	readAll(b []byte) (int, error)
	close() error
}

// A clocksourceReader watches the file in which Linux names its current
// clocksource: opened once a run of the watch, read afresh from its start
// each check (one pread on Linux), into its own buffers, allocating
// nothing. Where there is no file, or it cannot be read at the start, its
// checks do nothing until the next run.
type clocksourceReader struct {
	open      func() (clocksourceFile, error)
	isCounter func(name string) bool // whether the clocksource of that name reads this package's counter

	file   clocksourceFile // nil while not open
	buf    [64]byte
	now    []byte // the clocksource as last read, in saved; nil before the first read
	saved  [64]byte
	failed bool // the last read failed
}

// start opens the file and keeps what it says. On a later run it holds the
// file against what the last run saw, so that a change while the watch was
// stopped is not missed: it returns that change's event, if any.
func (s *clocksourceReader) start() (Event, bool) {
	f, err := s.open()
	if err != nil {
		return Event{}, false // no file to watch: this check is off
	}
	n, err := f.readAll(s.buf[:])
	if err != nil {
		f.close()
		return Event{}, false
	}
	s.file = f
	if s.now != nil {
		return s.judge(s.buf[:n])
	}
	s.now = append(s.saved[:0], bytes.TrimSpace(s.buf[:n])...)
	return Event{}, false
}

// stop closes the file.
func (s *clocksourceReader) stop() {
	if s.file != nil {
		s.file.close()
	}
	s.file = nil
}

// check reads the file and returns an event where it changed since the
// last read, or could no longer be read (once, until it can again).
func (s *clocksourceReader) check() (Event, bool) {
	if s.file == nil {
		return Event{}, false
	}
	n, err := s.file.readAll(s.buf[:])
	if err != nil {
		if s.failed {
			return Event{}, false
		}
		s.failed = true
		return Event{Kind: EventClocksource, Severity: Degraded, From: string(s.now), Err: err}, true
	}
	s.failed = false
	return s.judge(s.buf[:n])
}

// judge holds what the file says now against what it said last: a change
// away from the counter is Untrusted, any other change Degraded.
func (s *clocksourceReader) judge(text []byte) (Event, bool) {
	now := bytes.TrimSpace(text)
	if bytes.Equal(now, s.now) {
		return Event{}, false
	}
	from, to := string(s.now), string(now)
	sev := Degraded
	if s.isCounter(from) && !s.isCounter(to) {
		sev = Untrusted
	}
	s.now = append(s.saved[:0], now...)
	return Event{Kind: EventClocksource, Severity: sev, From: from, To: to}, true
}

// isCounterClocksource reports whether Linux's clocksource of that name reads
// the counter this package reads.
func isCounterClocksource(name string) bool {
	return name == "tsc" || name == "arch_sys_counter"
}
