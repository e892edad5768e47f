package counter_test

import (
	"testing"

	"github.com/tickstamp/counter"
)

// The brackets' read of the raw clock on Linux (a rawclock.Clock), whichever it
// is here, against the system call, by the width of the brackets it makes.

// TestVdsoBracketWidth logs the narrowest bracket, in ticks of the counter,
// of the brackets' read and of the system call: the tightest of 64 brackets,
// the best of 16 tries. Where the brackets read through the vDSO, theirs
// must be the narrower.
func TestVdsoBracketWidth(t *testing.T) {
	kind := counter.BracketReadKind()
	if kind == "runtime" {
		t.Skip("no raw clock here")
	}
	best := func(raw func() int64) counter.Tickdelta {
		w := counter.TightestBracket(raw)
		for range 15 {
			if x := counter.TightestBracket(raw); x >= 0 && (w < 0 || x < w) {
				w = x
			}
		}
		return w
	}
	bracket, syscall := best(counter.BracketNanos), best(counter.SyscallNanos)
	t.Logf("the tightest bracket of 64: %d ticks reading by %s, %d by the system call", bracket, kind, syscall)
	if kind == "vdso" && bracket >= syscall {
		t.Errorf("the vDSO's bracket (%d ticks) is no narrower than the system call's (%d)", bracket, syscall)
	}
}

// The raw clock's reads side by side with time.Now (BenchmarkTimeNow, in
// bench_read_test.go):
//
//	go test -run '^$' -bench 'RawClock|TimeNow' -count 5 .
//
// Each also reports the tightest of 64 brackets of its read, in ticks of the
// counter, as ticks/bracket.

// BenchmarkRawClockVDSO is the brackets' read where it goes through the
// vDSO.
func BenchmarkRawClockVDSO(b *testing.B) {
	if counter.BracketReadKind() != "vdso" {
		b.Skip("the brackets read by " + counter.BracketReadKind() + " here")
	}
	benchRaw(b, counter.BracketNanos)
}

// BenchmarkRawClockSyscall is the system call of discovery's measurement,
// the brackets' read where there is no vDSO.
func BenchmarkRawClockSyscall(b *testing.B) { benchRaw(b, counter.SyscallNanos) }

func benchRaw(b *testing.B, read func() int64) {
	width := counter.TightestBracket(read)
	b.ReportAllocs()
	var acc int64
	for b.Loop() {
		acc += read()
	}
	sinkInt += int(acc)
	b.ReportMetric(float64(width), "ticks/bracket")
}
