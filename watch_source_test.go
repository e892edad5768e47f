package counter

import (
	"errors"
	"testing"
)

// A scriptedFile is a clocksource file whose reads return, in turn, the
// texts (or errors) of a script.
type scriptedFile struct {
	reads  []string // "!" is a failed read
	opened int
	closed int
	noFile bool
}

var errEIO = errors.New("input/output error")

func (f *scriptedFile) open() (clocksourceFile, error) {
	if f.noFile {
		return nil, errors.New("no such file or directory")
	}
	f.opened++
	return f, nil
}

func (f *scriptedFile) readAll(b []byte) (int, error) {
	s := f.reads[0]
	f.reads = f.reads[1:]
	if s == "!" {
		return 0, errEIO
	}
	return copy(b, s), nil
}

func (f *scriptedFile) close() error { f.closed++; return nil }

// TestClocksourceReader holds the reader to scripts of what the file says:
// a change is one event, away from the counter Untrusted; a failed read is
// one event until a read succeeds again; whitespace is no change; a change
// while stopped is seen at the next start.
func TestClocksourceReader(t *testing.T) {
	type ev struct {
		from, to string
		sev      WatchState
		err      bool
	}
	for _, tc := range []struct {
		name  string
		reads []string // the first is start's
		want  []*ev    // what each check after start returns
	}{
		{"steady", []string{"tsc\n", "tsc\n", "tsc"}, []*ev{nil, nil}},
		{"off the counter", []string{"tsc\n", "hpet\n", "hpet\n"}, []*ev{{"tsc", "hpet", Untrusted, false}, nil}},
		{"off arm64's counter", []string{"arch_sys_counter\n", "jiffies\n"}, []*ev{{"arch_sys_counter", "jiffies", Untrusted, false}}},
		{"between others", []string{"kvm-clock\n", "hpet\n"}, []*ev{{"kvm-clock", "hpet", Degraded, false}}},
		{"onto the counter", []string{"hpet\n", "tsc\n"}, []*ev{{"hpet", "tsc", Degraded, false}}},
		{"there and back", []string{"tsc\n", "hpet\n", "tsc\n"}, []*ev{{"tsc", "hpet", Untrusted, false}, {"hpet", "tsc", Degraded, false}}},
		{"unreadable", []string{"tsc\n", "!", "!", "tsc\n", "!"}, []*ev{{"tsc", "", Degraded, true}, nil, nil, {"tsc", "", Degraded, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &scriptedFile{reads: tc.reads}
			s := clocksourceReader{open: f.open, isCounter: isCounterClocksource}
			if e, ok := s.start(); ok {
				t.Fatalf("start raised %v", e)
			}
			for i, w := range tc.want {
				e, ok := s.check()
				switch {
				case w == nil && ok:
					t.Errorf("check %d raised %v; want nothing", i, e)
				case w != nil && (!ok || e.Kind != EventClocksource || e.From != w.from || e.To != w.to || e.Severity != w.sev || (e.Err != nil) != w.err):
					t.Errorf("check %d: %v, %v; want %q → %q, %v, error %v", i, e, ok, w.from, w.to, w.sev, w.err)
				}
			}
			s.stop()
			if f.opened != 1 || f.closed != 1 {
				t.Errorf("opened %d, closed %d times; want once each", f.opened, f.closed)
			}
			if e, ok := s.check(); ok {
				t.Errorf("a stopped reader raised %v", e)
			}
		})
	}
	t.Run("changed while stopped", func(t *testing.T) {
		f := &scriptedFile{reads: []string{"tsc\n", "tsc\n", "hpet\n", "hpet\n"}}
		s := clocksourceReader{open: f.open, isCounter: isCounterClocksource}
		s.start()
		s.check()
		s.stop()
		if e, ok := s.start(); !ok || e.From != "tsc" || e.To != "hpet" || e.Severity != Untrusted {
			t.Errorf("the second start: %v, %v; want tsc → hpet, untrusted", e, ok)
		}
		if e, ok := s.check(); ok {
			t.Errorf("then a check raised %v", e)
		}
	})
	t.Run("no file, or unreadable at the start", func(t *testing.T) {
		for _, f := range []*scriptedFile{{noFile: true}, {reads: []string{"!"}}} {
			s := clocksourceReader{open: f.open, isCounter: isCounterClocksource}
			if e, ok := s.start(); ok {
				t.Errorf("start raised %v", e)
			}
			if e, ok := s.check(); ok {
				t.Errorf("a check raised %v", e)
			}
			s.stop()
			if f.closed != f.opened {
				t.Errorf("opened %d, closed %d times", f.opened, f.closed)
			}
		}
	})
}
