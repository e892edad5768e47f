//go:build !amd64 || purego

package export

// placeWordsAsm reports whether placeWords is the assembly's.
const placeWordsAsm = false

// placeWords places nothing where there is no assembly: it returns w and
// sum, and PlaceTaken's loop in Go places every word (place_amd64.go says
// what the assembly does).
func placeWords(marks *uint64, in *uint32, counts *uint64, rows *[memoRows]*[memoRowBuckets]int32, w, end, base int, shift uint, first, ncounts int, sum uint64) (stop int, total uint64) {
	return w, sum
}
