//go:build !linux

package main

import (
	"runtime"
	"time"

	"github.com/tickstamp/counter"
)

// checkCrossCore does not check: only Linux lets a thread pin itself to each
// CPU in turn through an API this command uses.
func checkCrossCore(c counter.Counter, budget time.Duration) crossCoreReport {
	return crossCoreReport{
		Reason:    "not checked: pinning threads to CPUs is implemented on Linux only, not " + runtime.GOOS,
		CPUs:      []int{},
		WorstFrom: -1,
		WorstTo:   -1,
	}
}
