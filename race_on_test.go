//go:build race

package counter_test

// raceEnabled reports whether the race detector is on: it slows recording
// tenfold and more, and allocates.
const raceEnabled = true
