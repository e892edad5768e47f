//go:build race

package counter

// raceBuild reports whether the race detector is on, which allocates.
const raceBuild = true
