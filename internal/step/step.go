// Package step measures how finely a free-running counter can be read. It
// is the one home of two measurements that are easy to take for each other:
//
//   - [Smallest]: the least advance from one reading to the next different
//     one. Where a read costs more than the counter's increment, that is
//     about one read's cost. The counter package's bounds take it, since it
//     is the least a bracket of two reads can be off by.
//   - [Resolution]: the counter's own least increment, whatever a read
//     costs. cmd/counterinfo reports it beside [Smallest]'s figure, and it is
//     the figure below which a span's length is a whole number of
//     increments.
package step

import "math"

// tries is how many advances [Smallest] takes the least of: enough that an
// interrupt or a preemption in a few of them does not matter.
const tries = 8

// maxReads is how many reads one try waits at most for the counter to
// advance.
const maxReads = 1000

// Smallest returns the least advance of a counter, in ticks, from a reading
// to the first different one, over eight tries. read returns one reading;
// readings are compared modulo 2⁶⁴, so a counter may wrap. Where the counter
// moves in steps larger than a read's cost the result is the step; elsewhere
// it is about one read's cost: either way, the least a single reading can be
// seen to advance, which is not the counter's resolution where reads are
// slower than the counter ([Resolution] measures that). A try where the
// counter went back counts for nothing. The result is 0 where no try saw the
// counter advance within 1000 reads. It calls read at most 8 × 1001 times,
// and fewer the faster the counter moves.
func Smallest(read func() uint64) int64 {
	var least int64
	for range tries {
		t0 := read()
		for range maxReads {
			d := int64(read() - t0)
			if d == 0 {
				continue
			}
			if d > 0 && (least == 0 || d < least) {
				least = d
			}
			break
		}
	}
	return least
}

// Pairs is how many differences between back-to-back readings [Resolution]
// looks at.
const Pairs = 1 << 14

// gcdSpan is how many times the least difference a difference may be and
// still count towards [Resolution]'s greatest common divisor: read costs
// jitter by less than that, while a pair stretched by an interrupt, or one
// whose second read was on another CPU after a migration, is many reads'
// costs apart and, across CPUs, may not be a whole number of increments.
const gcdSpan = 4

// Resolution returns the counter's resolution in ticks: the least increment
// its readings show, found from the differences between Pairs (2¹⁴) pairs of
// readings taken back to back. read returns one reading; Resolution calls it
// Pairs+1 times, one reading being the second of one pair and the first of
// the next, and stores every reading before it looks at any, so that the
// arithmetic does not stretch the pairs (a buffer of 8 × (Pairs+1) bytes).
// Readings are compared modulo 2⁶⁴, so a counter may wrap; a difference below
// zero, the counter going back, is ignored.
//
// Where some differences are 0, reads are faster than the counter, and a
// nonzero difference is mostly one increment. The result is then the mean of
// the nonzero differences below twice the least one: the single increments,
// since two increments or a pair an interrupt stretched come to at least
// twice the least. For a counter that advances a whole number of ticks at a
// time that is the number. For one scaled to read in finer ticks than it
// counts, as an Arm counter that counts at 24 MHz and reads at 1 GHz (FEAT_ECV)
// advances by 41 or 42 ticks, it is the mean increment, 10⁹/(24·10⁶) ≈ 41.67
// ticks, which the least nonzero difference (41) would understate; the
// increments are seen in proportion to how often the counter makes them,
// since every increment is as likely as any other to fall within a pair. An
// increment between one and two ticks gives 1: there a difference of 2 may be
// one increment or two.
//
// Where no difference is 0, no pair of reads fell within one increment, so
// each difference is a whole number of increments. The result is then their
// greatest common divisor, over the differences no more than four times the
// least (a pair an interrupt or a migration stretched is left out). The
// divisor needs the differences to vary: it is a multiple of the resolution
// r, equal to it where two of the differences are m·r and n·r with m and n
// coprime, as they come to be where the read's cost is not a whole number
// of increments, or jitters, as real reads' costs do. Where every difference is
// the same, the result is that difference: the read's cost, an upper bound
// of the resolution, not a measurement of it. A counter whose increment is
// not a whole number of ticks (41 or 42 at a time), read slower than it
// advances, has differences with no common divisor but 1, and gives 1.
//
// The result is 0 where the counter never advanced.
func Resolution(read func() uint64) float64 {
	readings := make([]uint64, Pairs+1)
	for i := range readings {
		readings[i] = read()
	}
	return resolutionOf(readings)
}

// resolutionOf is [Resolution] of readings taken back to back.
func resolutionOf(readings []uint64) float64 {
	var least int64
	zeros := false
	for i := 1; i < len(readings); i++ {
		d := int64(readings[i] - readings[i-1])
		if d == 0 {
			zeros = true
		}
		if d > 0 && (least == 0 || d < least) {
			least = d
		}
	}
	if least == 0 {
		return 0
	}
	if zeros {
		var sum, n int64
		for i := 1; i < len(readings); i++ {
			if d := int64(readings[i] - readings[i-1]); d > 0 && d-least < least {
				sum += d
				n++
			}
		}
		return float64(sum) / float64(n)
	}
	limit := int64(math.MaxInt64)
	if least <= math.MaxInt64/gcdSpan {
		limit = gcdSpan * least
	}
	g := least
	for i := 1; i < len(readings) && g > 1; i++ {
		if d := int64(readings[i] - readings[i-1]); d > 0 && d <= limit {
			g = gcd(g, d)
		}
	}
	return float64(g)
}

// gcd returns the greatest common divisor of a and b, both above zero.
func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
