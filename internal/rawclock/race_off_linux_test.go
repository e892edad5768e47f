//go:build !race

package rawclock_test

// raceEnabled reports whether the race detector is on: it slows the reads
// tenfold and more.
const raceEnabled = false
