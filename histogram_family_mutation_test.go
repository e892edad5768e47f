package counter

import (
	"testing"

	"github.com/tickstamp/counter/internal/mutate"
)

// familyMutations are changes to histogram_family.go that each break a
// promise of Family.ForgetIdle's doc, or of the comments on the fields
// that forgetting changes, which some test must catch. A mutation is a
// mutate.Mutation, listed without field names.
type familyMutation mutate.Mutation

var familyMutations = []familyMutation{
	{"a forgotten series is read one Interval, whatever the count", "histogram_family.go",
		"return !m.gone || m.idle >= max(n, 1)", "return true"},
	{"a forgotten series' late spans are not visited", "histogram_family.go",
		"if i >= len(members) && !m.held {", "if i >= len(members) {"},
	{"a forgotten series is visited empty", "histogram_family.go",
		"if i >= len(members) && !m.held {", "if i < 0 {"},
	{"With makes a series anew where it could take one back", "histogram_family.go",
		"m := f.takeBack(hash, values)", "m := (*member)(nil)"},
	{"a series taken back keeps its idle count", "histogram_family.go",
		"m.gone, m.idle = false, 0", "m.gone = false"},
	{"a series taken back meanwhile counts as forgotten", "histogram_family.go",
		"if m.gone { // not taken back meanwhile", "if true {"},
	{"a span counted apart leaves a series idle", "histogram_family.go",
		"m.held = !f.scratch.d.Empty()", "m.held = f.scratch.d.Count() > 0"},
	{"a series is forgotten an Interval late", "histogram_family.go",
		"if m.gone = m.idle >= n; m.gone {", "if m.gone = m.idle > n; m.gone {"},
	{"the table after forgetting is full", "histogram_family.go",
		"t.full.Store(len(f.members) == f.limit-1)", "t.full.Store(true)"},
	{"With still finds a forgotten series", "histogram_family.go",
		"\tf.table.Store(t)\n}\n\n// idleAfter", "\t_ = t\n}\n\n// idleAfter"},
}

// TestFamilyMutations runs the Family's tests on each mutation: each must
// fail, and the package as it is must pass (internal/mutate).
func TestFamilyMutations(t *testing.T) {
	mutate.Run(t, "^(TestFamily[^M].*|TestForgetIdleRefusal|TestZeroFamily)$", familyMutations)
}
