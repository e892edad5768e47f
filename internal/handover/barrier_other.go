//go:build !linux

package handover

import "errors"

// registerMembarrier reports false: only Linux has membarrier(2).
func registerMembarrier() bool { return false }

// membarrier is never called where registerMembarrier reports false; it
// fails, so that a Barrier set by hand falls back.
func membarrier() error { return errors.ErrUnsupported }
