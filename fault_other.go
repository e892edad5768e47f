//go:build !linux || !amd64 || purego

package counter

// readsFault reports whether the counter's instruction is made to fault on
// the calling thread; only Linux on amd64 can be asked to make it so.
func readsFault() bool { return false }
