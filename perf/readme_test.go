package perf_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADMESnippet checks that the README's perf snippet is countWork's
// body, line for line but for indentation and the final return nil, so that
// it compiles (and runs, below) as the example does.
func TestREADMESnippet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skip(err)
	}
	section := regexp.MustCompile("(?s)\n## Counting events[^\n]*\n.*?\n```go\n(.*?)```").FindSubmatch(readme)
	if section == nil {
		t.Fatal("the README has no Go snippet under \"## Counting events\"")
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)\nfunc countWork\([^\n]*\{\n(.*?)\n\}\n`).FindSubmatch(src)
	if body == nil {
		t.Fatal("example_test.go has no countWork")
	}
	want, got := trimmedLines(string(body[1])), trimmedLines(string(section[1]))
	// The snippet ends where the function has nothing left but to succeed.
	if n := len(want); n > 0 && want[n-1] == "return nil" {
		want = want[:n-1]
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the README's snippet:\n%s\nis not countWork's body:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestExamplesRun runs the examples that have no output to compare, which
// go test only compiles, so that a path that would crash (a nil group after
// a refusal) fails here, where the platform lets them run.
func TestExamplesRun(t *testing.T) {
	for name, example := range map[string]func(){
		"Example":          Example,
		"ExampleOpen":      ExampleOpen,
		"ExampleOpenGroup": ExampleOpenGroup,
	} {
		t.Run(name, func(t *testing.T) { example() })
	}
}

func trimmedLines(s string) []string {
	var lines []string
	for line := range strings.Lines(s) {
		if l := strings.TrimSpace(line); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}
