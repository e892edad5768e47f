package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tickstamp/counter/bench/internal/bare"
)

// TestCommittedFilesAreGenerated fails when a committed bare_GOARCH.s is not
// what the generator writes: it was edited by hand, or the table was changed
// without go generate.
func TestCommittedFilesAreGenerated(t *testing.T) {
	for _, a := range arches {
		t.Run(a.goarch, func(t *testing.T) {
			committed, err := os.ReadFile(filepath.Join("..", a.file()))
			if err != nil {
				t.Fatal(err)
			}
			if d := firstDifference(string(committed), string(generate(a))); d != "" {
				t.Errorf("%s is not what baregen writes (run go generate ./internal/bare in the bench module): %s", a.file(), d)
			}
		})
	}
}

// TestReadsAreTheCounterStubs fails when a read's sequence in the table, or
// the checks ahead of it, differ from what the counter package's stub in
// read_GOARCH.s executes.
func TestReadsAreTheCounterStubs(t *testing.T) {
	for _, a := range arches {
		t.Run(a.goarch, func(t *testing.T) {
			root := filepath.Join("..", "..", "..", "..", "read_"+a.goarch+".s")
			src, err := os.ReadFile(root)
			if err != nil {
				t.Fatal(err)
			}
			for _, err := range checkReads(a, string(src)) {
				t.Errorf("%s: %v", root, err)
			}
		})
	}
}

// TestDriftIsCaught edits one instruction of each root file and of each
// generated file, and expects the checks above to see it; a change of
// comments or alignment alone in a root file must pass.
func TestDriftIsCaught(t *testing.T) {
	for _, a := range arches {
		t.Run(a.goarch, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "read_"+a.goarch+".s"))
			if err != nil {
				t.Fatal(err)
			}
			if errs := checkReads(a, string(src)); len(errs) != 0 {
				t.Skipf("read_%s.s differs from the table already, as TestReadsAreTheCounterStubs reports", a.goarch)
			}
			for _, r := range uniqueReads(a) {
				last := code(r.seq[len(r.seq)-1])
				edited, ok := editInstruction(string(src), r.root, last, last+"\n\t"+code(r.seq[0]))
				if !ok {
					t.Fatalf("no %q in %s to edit", last, r.root)
				}
				if errs := checkReads(a, edited); len(errs) == 0 {
					t.Errorf("%s with %q repeated after %q: no drift reported", r.root, code(r.seq[0]), last)
				}
				restyled, _ := editInstruction(string(src), r.root, last, strings.ReplaceAll(last, " ", "\t  ")+" // a comment")
				if errs := checkReads(a, restyled); len(errs) != 0 {
					t.Errorf("%s with %q restyled: %v; want no drift", r.root, last, errs)
				}
			}

			gen := string(generate(a))
			r := uniqueReads(a)[0]
			ins := code(r.seq[0])
			edited, ok := editInstruction(gen, r.unrolled, ins, ins+"\n\t"+ins)
			if !ok {
				t.Fatalf("no %q in the generated %s to edit", ins, r.unrolled)
			}
			if d := firstDifference(edited, gen); d == "" {
				t.Errorf("%s with %q doubled: no difference reported", a.file(), ins)
			}
		})
	}
}

// TestReadsIsBareReads checks that the functions repeat their sequence as many
// times as package bare says they do.
func TestReadsIsBareReads(t *testing.T) {
	if reads != bare.Reads {
		t.Fatalf("baregen repeats each sequence %d times; bare.Reads is %d", reads, bare.Reads)
	}
}

// editInstruction returns src with the first instruction of symbol's body
// that reads ins (fields separated by single spaces) replaced by
// replacement, and whether there was one.
func editInstruction(src, symbol, ins, replacement string) (string, bool) {
	lines := strings.SplitAfter(src, "\n")
	in := false
	for i, line := range lines {
		fields := strings.Fields(line)
		if len(fields) >= 2 && fields[0] == "TEXT" {
			in = fields[1] == "·"+symbol+"(SB),"
			continue
		}
		c, _, _ := strings.Cut(line, "//")
		if in && strings.Join(strings.Fields(c), " ") == code(ins) {
			lines[i] = "\t" + replacement + "\n"
			return strings.Join(lines, ""), true
		}
	}
	return src, false
}

// checkReads compares each read of a with its root stub in src, the text of
// read_GOARCH.s: the root's instructions from its entry to its first RET
// must be the read's guard, its sequence, the store of the reading and RET.
// Comments and spacing do not count.
func checkReads(a *arch, src string) []error {
	bodies := textBodies(src)
	var errs []error
	for _, r := range uniqueReads(a) {
		body, ok := bodies[r.root]
		if !ok {
			errs = append(errs, fmt.Errorf("no TEXT ·%s", r.root))
			continue
		}
		got := body
		for i, ins := range body {
			if ins == "RET" {
				got = body[:i+1]
				break
			}
		}
		var want []string
		want = append(want, r.guard...)
		for _, ins := range r.seq {
			want = append(want, code(ins))
		}
		want = append(want, a.store, "RET")
		if d := firstDifference(strings.Join(got, "\n"), strings.Join(want, "\n")); d != "" {
			errs = append(errs, fmt.Errorf("%s's path to the counter is not what baregen's table copies for %s: %s", r.root, r.stub, d))
		}
	}
	return errs
}

// textBodies returns the instructions and labels of each TEXT symbol in src,
// an assembly file, by name without its package dot: comments dropped,
// fields separated by one space.
func textBodies(src string) map[string][]string {
	bodies := make(map[string][]string)
	name := ""
	for line := range strings.Lines(src) {
		c, _, _ := strings.Cut(line, "//")
		fields := strings.Fields(c)
		switch {
		case len(fields) == 0:
		case fields[0] == "TEXT" && len(fields) > 1:
			name = strings.TrimSuffix(strings.TrimPrefix(fields[1], "·"), "(SB),")
			bodies[name] = []string{}
		case strings.HasPrefix(fields[0], "#"):
			name = ""
		case name != "":
			bodies[name] = append(bodies[name], strings.Join(fields, " "))
		}
	}
	return bodies
}

// uniqueReads returns each read of a once, in the order of its sections.
func uniqueReads(a *arch) []*read {
	var rs []*read
	seen := make(map[*read]bool)
	for _, s := range a.sections {
		for _, r := range s.reads {
			if !seen[r] {
				seen[r] = true
				rs = append(rs, r)
			}
		}
	}
	return rs
}

// firstDifference describes the first line where got and want differ, or
// returns "" where they are equal.
func firstDifference(got, want string) string {
	if got == want {
		return ""
	}
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		gl, wl := "(end)", "(end)"
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d is %q; want %q", i+1, gl, wl)
		}
	}
	return "they differ"
}
