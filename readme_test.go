package counter_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMESnippetsAreExamples checks that every Go snippet in the README
// is, line for line, the body of a compiled example: so a snippet that does
// not compile fails the build of the examples, and one that panics fails
// the test that runs its example. A snippet's lines must appear, in order
// and with nothing between them, among the lines of one example file's
// (leading whitespace and blank lines ignored on both sides).
func TestREADMESnippetsAreExamples(t *testing.T) {
	snippets := goSnippets(t, "README.md")
	if len(snippets) == 0 {
		t.Fatal("the README has no Go snippets: is this the right file?")
	}
	files, err := filepath.Glob("example*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join("*", "example*_test.go"))
	files = append(files, more...)
	// The integrations' examples, each in a module of its own.
	more, _ = filepath.Glob(filepath.Join("export", "*", "example*_test.go"))
	files = append(files, more...)
	var examples [][]string
	for _, f := range files {
		examples = append(examples, codeLines(t, f))
	}
	for i, s := range snippets {
		found := false
		for _, e := range examples {
			if containsRun(e, s) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("README snippet %d is in no example file:\n%s", i+1, strings.Join(s, "\n"))
		}
	}
}

// goSnippets returns the trimmed, non-blank lines of each ```go block.
func goSnippets(t *testing.T, path string) [][]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	var cur []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.TrimSpace(line) == "```go":
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			out = append(out, cur)
		case in:
			if s := strings.TrimSpace(line); s != "" {
				cur = append(cur, s)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// codeLines returns the trimmed, non-blank lines of a Go file.
func codeLines(t *testing.T, path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if s := strings.TrimSpace(line); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// containsRun reports whether run appears in lines as consecutive elements.
func containsRun(lines, run []string) bool {
	for i := 0; i+len(run) <= len(lines); i++ {
		match := true
		for j := range run {
			if lines[i+j] != run[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// TestTestCommandCoversEveryModule checks that the README's test command
// tests every module of the repository: the command is go test of the
// pattern github.com/tickstamp/counter/..., go.work uses every directory
// that has a go.mod, and each of those modules' paths is under the
// pattern, so that go test, in the workspace, matches their packages.
func TestTestCommandCoversEveryModule(t *testing.T) {
	const pattern = "github.com/tickstamp/counter/..."
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\ngo test "+pattern+"\n") {
		t.Errorf("the README's test command is not go test %s", pattern)
	}
	work, err := os.ReadFile("go.work")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, line := range strings.Split(string(work), "\n") {
		if f := strings.TrimSpace(line); strings.HasPrefix(f, ".") {
			used[filepath.Clean(f)] = true
		}
	}
	modules := 0
	err = filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.Name() != "go.mod" {
			return nil
		}
		modules++
		dir := filepath.Dir(path)
		if !used[dir] {
			t.Errorf("go.work does not use %s, which has a go.mod", dir)
		}
		mod, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		first, _, _ := strings.Cut(string(mod), "\n")
		if p := strings.TrimPrefix(first, "module "); p != strings.TrimSuffix(pattern, "/...") && !strings.HasPrefix(p, strings.TrimSuffix(pattern, "...")) {
			t.Errorf("%s's module %s is not under %s", path, p, pattern)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if modules < 4 {
		t.Errorf("found %d modules; want the library's and its export modules' at least", modules)
	}
}

// TestREADMEImagesExist checks that each image the README shows is in the
// repository.
func TestREADMEImagesExist(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	images := regexp.MustCompile(`!\[[^\]]*\]\(([^)]+)\)`).FindAllStringSubmatch(string(b), -1)
	if len(images) == 0 {
		t.Error("the README shows no figure")
	}
	for _, m := range images {
		if _, err := os.Stat(m[1]); err != nil {
			t.Errorf("the README shows %s: %v", m[1], err)
		}
	}
}
