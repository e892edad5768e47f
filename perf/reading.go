package perf

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"strconv"
	"time"
)

// A Reading is a counter's count with the two times the kernel keeps beside
// it: how long the counter was enabled, and how long of that it was running
// on the hardware. Running falls short of Enabled where the kernel
// timeshared more hardware counters than the processor has; Count then
// covers only the Running part, and [Reading.Scaled] estimates the count
// over the whole of Enabled. Software counters always run while enabled.
//
// The kernel keeps both times only while a counted thread is on a CPU: a
// thread that sleeps adds nothing to them, so they measure the thread's CPU
// time under the counter, not the wall-clock time since [Counter.Enable].
// For a counter of a whole process ([Process]) each field is the sum over
// the process's threads, so the times add up every thread's time and may
// exceed the wall-clock time.
type Reading struct {
	Count   uint64        // events counted
	Enabled time.Duration // time enabled, in nanoseconds
	Running time.Duration // time running on the hardware, in nanoseconds; at most Enabled
}

// Multiplexed reports whether the kernel timeshared the counter, so that it
// ran for less time than it was enabled: false for a reading that never ran.
func (r Reading) Multiplexed() bool { return r.Running > 0 && r.Running < r.Enabled }

// Scaled returns the count estimated over the whole time enabled,
// Count·Enabled/Running, rounded down, computed in 128 bits so that the
// product never overflows. The result is Count where Running is at least
// Enabled (the counter ran all along), 0 where Running is 0 or less (it never
// ran, so nothing was counted), and the largest uint64 where the estimate
// does not fit in 64 bits. Scaling assumes the events happened evenly over
// the time enabled; the less of that time the counter ran, the rougher the
// estimate.
func (r Reading) Scaled() uint64 {
	if r.Running <= 0 {
		return 0
	}
	if r.Running >= r.Enabled {
		return r.Count
	}
	hi, lo := bits.Mul64(r.Count, uint64(r.Enabled))
	if hi >= uint64(r.Running) {
		return math.MaxUint64
	}
	q, _ := bits.Div64(hi, lo, uint64(r.Running))
	return q
}

// A GroupReading is the counts of a [Group], taken together by one read, and
// the times the group was enabled and running. The kernel schedules a group
// onto the hardware as one unit, so its counters share one Enabled and one
// Running.
type GroupReading struct {
	Counts  []uint64      // events counted, in the order the group's events were given to OpenGroup
	Enabled time.Duration // time enabled, in nanoseconds
	Running time.Duration // time running on the hardware, in nanoseconds; at most Enabled
}

// Reading returns the count of the group's counter i, in the order the events
// were given to [OpenGroup], with the group's times, so that it can be
// scaled with [Reading.Scaled]. It panics where i is out of range, with a
// message that gives i and the number of counts (none in the zero
// GroupReading).
func (g GroupReading) Reading(i int) Reading {
	if i < 0 || i >= len(g.Counts) {
		panic("perf: GroupReading.Reading: counter " + strconv.Itoa(i) + " of a reading of " + strconv.Itoa(len(g.Counts)) + " counts; a group's counters are numbered from 0")
	}
	return Reading{Count: g.Counts[i], Enabled: g.Enabled, Running: g.Running}
}

// nanos converts a time the kernel reports, unsigned nanoseconds, to a
// Duration, saturating at the largest one (292 years).
func nanos(ns uint64) time.Duration {
	if ns > math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(ns)
}

// addSat returns a+b, or the largest uint64 where the sum overflows.
func addSat(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return s
}

var errShortRead = errors.New("perf: the kernel returned fewer bytes than the read format promises")

// The kernel's read formats, as the package asks for them: every field is a
// native-endian uint64.
//
// One counter (PERF_FORMAT_TOTAL_TIME_ENABLED|RUNNING|ID):
//
//	value, time_enabled, time_running, id
//
// A group, read from its leader (the above with PERF_FORMAT_GROUP):
//
//	nr, time_enabled, time_running, {value, id} × nr
const singleSize = 4 * 8

// parseSingle decodes one counter's read: its reading and its ID.
func parseSingle(b []byte) (Reading, uint64, error) {
	if len(b) < singleSize {
		return Reading{}, 0, errShortRead
	}
	u := binary.NativeEndian.Uint64
	return Reading{Count: u(b), Enabled: nanos(u(b[8:])), Running: nanos(u(b[16:]))}, u(b[24:]), nil
}

// groupSize returns the size of a group's read of n counters.
func groupSize(n int) int { return (3 + 2*n) * 8 }

// parseGroup decodes a group's read, b, into counts indexed as ids are, adding
// each value to counts[i] where ids[i] is its ID (so that the groups of
// several threads sum), and returns the group's times. It fails where b is
// short, where the kernel reports another number of counters than ids has,
// or an ID that is not in ids.
func parseGroup(b []byte, ids []uint64, counts []uint64) (enabled, running uint64, err error) {
	u := binary.NativeEndian.Uint64
	if len(b) < groupSize(0) {
		return 0, 0, errShortRead
	}
	nr := u(b)
	if nr != uint64(len(ids)) || len(counts) < len(ids) {
		return 0, 0, errors.New("perf: the kernel read another number of counters than the group has")
	}
	if len(b) < groupSize(len(ids)) {
		return 0, 0, errShortRead
	}
	for k := range ids {
		v, id := u(b[24+16*k:]), u(b[32+16*k:])
		i := indexOf(ids, id)
		if i < 0 {
			return 0, 0, errors.New("perf: the kernel read a counter that is not in the group")
		}
		counts[i] = addSat(counts[i], v)
	}
	return u(b[8:]), u(b[16:]), nil
}

func indexOf(ids []uint64, id uint64) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}
