//go:build !race

// Package race says whether the race detector is on, for the tests of every
// package of the module: the one pair of files that asks.
package race

// Enabled reports whether the race detector is on: it slows code tenfold
// and more, and makes some calls allocate. Tests shorten their runs and
// skip their allocation counts by it.
const Enabled = false
