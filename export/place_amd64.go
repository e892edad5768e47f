//go:build !purego

package export

// placeWordsAsm reports whether placeWords is the assembly's.
const placeWordsAsm = true

// placeWords is PlaceTaken's loop over the words of marks from w to end−1,
// whose 64 counts each lie between the ends, in amd64 assembly
// (place_amd64.s): the loop in Go holds more values than the compiler
// keeps in registers, and reloads several at each bucket. It places each
// marked count c of in, the counts of buckets base, base+1, …, whose row of
// rows is worked out and whose slot s = rows[k/128][k%128]>>shift − first
// is below ncounts, adding c to counts[s] and emptying it. At the first
// count it cannot place it stops, leaving that word's marks from the
// count on, and returns the word's index; end where it placed them all.
// total is sum plus the counts placed. The caller sees to
// end·64 ≤ len(in), end ≤ len(marks), 0 ≤ w, 0 ≤ base,
// base+end·64 ≤ NumBuckets and shift < 32.
//
//go:noescape
func placeWords(marks *uint64, in *uint32, counts *uint64, rows *[memoRows]*[memoRowBuckets]int32, w, end, base int, shift uint, first, ncounts int, sum uint64) (stop int, total uint64)
