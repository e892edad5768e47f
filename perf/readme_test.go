package perf_test

import (
	"io"
	"log"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestREADMESnippet checks that the README's perf section names an example
// this package has, ExampleOpenGroup, which countWork's body makes (the
// README left the snippet out for room).
func TestREADMESnippet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skip(err)
	}
	section := regexp.MustCompile("(?s)\n## Counting events[^\n]*\n(.*?)\n## ").FindSubmatch(readme)
	if section == nil || !strings.Contains(string(section[1]), "`ExampleOpenGroup`") {
		t.Fatal("the README's \"## Counting events\" section does not name ExampleOpenGroup")
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?s)\nfunc ExampleOpenGroup\(\) \{\n.*?countWork\(`).Match(src) {
		t.Fatal("example_test.go has no ExampleOpenGroup that calls countWork")
	}
}

// TestExamplesRun runs the examples that have no output to compare, which
// go test only compiles, and checks what each prints and logs against the
// forms it can take here: counted where the platform has the counters, a
// refusal that says why where it has not. A path that would crash (a nil
// group after a refusal) fails too.
func TestExamplesRun(t *testing.T) {
	dur := `[0-9.]+(ns|µs|ms|s)`
	refused := `^perf: cannot count .+`
	for _, tc := range []struct {
		name    string
		example func()
		forms   []string // each line printed or logged matches one of these
	}{
		{"Example", Example, []string{
			`^counting time only: ` + refused[1:],
			`^sum 1999998 in ` + dur + `$`,
			`^sum 1999998 in ` + dur + `: [0-9]+ instructions, [0-9]+ cycles, [0-9.]+ per cycle, [0-9.]+ GHz$`,
		}},
		{"ExampleOpen", ExampleOpen, []string{refused, `^[0-9]+ page faults filling 64 MiB$`}},
		{"ExampleOpenGroup", ExampleOpenGroup, []string{
			refused,
			`^counter: .+`, // Discover refused
			`^` + dur + `: [0-9]+ instructions, [0-9]+ cycles$`,
			`^sum 1999998$`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lines := captureOutput(t, tc.example)
			if len(lines) == 0 {
				t.Fatal("printed and logged nothing")
			}
			for _, line := range lines {
				if !slices.ContainsFunc(tc.forms, func(f string) bool { return regexp.MustCompile(f).MatchString(line) }) {
					t.Errorf("%q matches none of %q", line, tc.forms)
				}
			}
		})
	}
}

// captureOutput runs f with os.Stdout and the log sent to a pipe, and
// returns the lines written, without the log's timestamps.
func captureOutput(t *testing.T, f func()) []string {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, logOut, flags := os.Stdout, log.Writer(), log.Flags()
	os.Stdout = w
	log.SetOutput(w)
	log.SetFlags(0)
	read := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		read <- b
	}()
	func() {
		defer func() {
			os.Stdout = stdout
			log.SetOutput(logOut)
			log.SetFlags(flags)
			w.Close()
		}()
		f()
	}()
	return trimmedLines(string(<-read))
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
