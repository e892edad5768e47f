package counter_test

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// figure matches a comment line that quotes a measured-looking figure: a
// number with a unit of time, ppm or a percentage.
var figure = regexp.MustCompile(`^\s*//.*[0-9](\s*(ns|µs|us|ms|ppm)\b|%)`)

// TestDocCommentsStateContracts keeps measured figures out of the comments
// of the repository's non-test Go and assembly (.s) files: a comment states
// what is promised, in words and formulas, and the figures live in
// BENCHMARKS.md, with the command and the machine that made them. A few
// comment lines name a constant of a contract in a unit (a flag's default, a
// tolerance's cap); there may be at most ten such lines in all.
func TestDocCommentsStateContracts(t *testing.T) {
	const most = 10
	var hits []string
	asm := 0 // assembly files read, so that a filter that drops them shows
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || strings.HasSuffix(path, "_test.go") || !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".s") {
			return nil
		}
		if strings.HasSuffix(path, ".s") {
			asm++
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			if figure.MatchString(sc.Text()) {
				hits = append(hits, path+":"+strings.TrimSpace(sc.Text()))
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if asm == 0 {
		t.Error("read no assembly file; the figures in .s comments go unchecked")
	}
	if len(hits) > most {
		t.Errorf("%d comment lines quote a figure; want at most %d (move measured ones to BENCHMARKS.md):\n%s", len(hits), most, strings.Join(hits, "\n"))
	}
	t.Logf("%d comment lines quote a figure, in Go and %d assembly files", len(hits), asm)
}
