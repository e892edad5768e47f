//go:build !linux

package counter

// registerMembarrier reports false: only Linux has membarrier(2).
func registerMembarrier() bool { return false }

// membarrier is never called where registerMembarrier reports false.
func membarrier() { panic("counter: membarrier is Linux's") }
