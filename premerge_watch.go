package counter

// This file keeps watch.go, which the watch branch rewrites, compiling on
// the api branch: watch.go still names the per-CPU check's old exported
// type and method. Delete this file when the two branches are merged and
// watch.go calls cpuCheck and its largest method.

// CPUCheck is the per-CPU check's type under its old name.
//
// Deprecated: for watch.go until the watch branch is merged; not part of
// the API.
type CPUCheck = cpuCheck

// Largest is [cpuCheck.largest] under its old name, for watch.go until the
// watch branch is merged.
func (c *cpuCheck) Largest() CPUOffset { return c.largest() }
