//go:build race

package race

// Enabled reports whether the race detector is on: it slows code tenfold
// and more, and makes some calls allocate. Tests shorten their runs and
// skip their allocation counts by it.
const Enabled = true
