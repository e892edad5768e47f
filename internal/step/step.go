// Package step finds the smallest step of a free-running counter: the least
// advance from one reading to the next different one. It is the one home of
// that measurement: the counter package's bounds take a reading's resolution
// from it, and cmd/counterinfo reports the same figure.
package step

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
// it is about one read's cost: either way, the resolution of a single
// reading. A try where the counter went back counts for nothing. The result
// is 0 where no try saw the counter advance within 1000 reads. It calls read
// at most 8 × 1001 times, and fewer the faster the counter moves.
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
