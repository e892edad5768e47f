//go:build !handoverstep

package handover

// Stepping reports whether this build has the handoverstep hooks.
const Stepping = false

// step and trace are the hooks of the handoverstep build (step_on.go);
// here they are empty, and each call of them inlines to nothing:
// TestHooksCompileAway holds that.
func step()       {}
func trace(Event) {}

// distrustDone is the handoverstep build's knob (step_on.go); here the
// reader trusts done, as a constant.
const distrustDone = false
