package counter_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// zeroVersion is the pseudo-version go mod tidy writes for a module that
// only a replace directive provides. No proxy serves it, and a user of the
// module that requires it ignores the replace, so that user cannot build.
const zeroVersion = "v0.0.0-00010101000000-000000000000"

// TestNoZeroVersionRequired checks that no go.mod in the repository
// requires a module at zeroVersion: each nested module requires the root,
// and any sibling it uses, at the version of its tag (DESIGN.md,
// "Releasing"), its replace directives serving development alone.
func TestNoZeroVersionRequired(t *testing.T) {
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "go.mod" {
			return nil
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, r := range requirements(string(b)) {
			if r.version == zeroVersion {
				t.Errorf("%s:%d requires %s at %s; require the version its tag will carry", path, r.line, r.path, r.version)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 2 {
		t.Errorf("read %d go.mod files; want the root's and the nested modules'", files)
	}
}

// A requirement is one module a go.mod requires, and the line that says so.
type requirement struct {
	line          int
	path, version string
}

// requirements returns the requirements in the text of a go.mod: each line
// of a require directive, on its own or in a block.
func requirements(gomod string) []requirement {
	var rs []requirement
	block := false
	for i, line := range strings.Split(gomod, "\n") {
		code, _, _ := strings.Cut(line, "//")
		f := strings.Fields(strings.Replace(code, "require(", "require (", 1))
		for j := range f {
			f[j] = strings.Trim(f[j], `"`)
		}
		switch {
		case block && len(f) == 1 && f[0] == ")":
			block = false
		case block && len(f) >= 2:
			rs = append(rs, requirement{i + 1, f[0], f[1]})
		case len(f) == 2 && f[0] == "require" && f[1] == "(":
			block = true
		case len(f) >= 3 && f[0] == "require":
			rs = append(rs, requirement{i + 1, f[1], f[2]})
		}
	}
	return rs
}

// TestRequirementsRead checks requirements on a go.mod of each form a
// requirement takes, so that a clean TestNoZeroVersionRequired is not a
// parse that found nothing.
func TestRequirementsRead(t *testing.T) {
	const gomod = `module example.com/m

go 1.26.0

require example.com/one v0.0.0-00010101000000-000000000000

require (
	example.com/two v1.2.3 // indirect
	"example.com/three" v0.1.0
)

require(
	example.com/four v0.0.0-00010101000000-000000000000
)

replace example.com/one => ../one

replace (
	example.com/two v1.2.3 => ../two
)

exclude example.com/five v0.0.0-00010101000000-000000000000
`
	got := requirements(gomod)
	want := []requirement{
		{5, "example.com/one", zeroVersion},
		{8, "example.com/two", "v1.2.3"},
		{9, "example.com/three", "v0.1.0"},
		{13, "example.com/four", zeroVersion},
	}
	if !slices.Equal(got, want) {
		t.Errorf("requirements = %v; want %v", got, want)
	}
}
