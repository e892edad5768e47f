package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestInstead checks that each refusal, wrapped as discovery wraps it, gets
// its one line of advice and the go doc of its own sentinel, and that a
// refusal of no known sentinel still gets a line.
func TestInstead(t *testing.T) {
	for _, a := range advice {
		t.Run(a.name, func(t *testing.T) {
			got := instead(fmt.Errorf("counter: a refusal: %w", a.err))
			want := a.do + "; see go doc counter." + a.name
			if got != want {
				t.Errorf("instead = %q; want %q", got, want)
			}
			// One line, short enough to read in a terminal: a pointer,
			// not the sentinel's doc.
			if strings.Contains(a.do, "\n") || len(a.do) > 100 {
				t.Errorf("advice %q: want one line of at most 100 bytes; the doc says the rest", a.do)
			}
		})
	}
	for _, err := range []error{fmt.Errorf("no counter here: %w", errors.ErrUnsupported), errors.New("counter: something new")} {
		if got := instead(err); !strings.HasPrefix(got, "use counter.Monotonic()") || !strings.HasSuffix(got, "see go doc counter.Discover") {
			t.Errorf("instead(%q) = %q; want counter.Monotonic() and a pointer to Discover's doc", err, got)
		}
	}
}

// TestAdviceNamesItsSentinel checks that each pointer names the sentinel
// it matches: package counter declares a variable of that name, made by
// errors.New with the sentinel's message, so that go doc finds the doc of
// the refusal the advice is for.
func TestAdviceNamesItsSentinel(t *testing.T) {
	files, err := filepath.Glob("../../*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in the package's directory (%v)", err)
	}
	msgs := map[string]string{} // a sentinel's name → its message
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			v, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, name := range v.Names {
				if i < len(v.Values) {
					if msg, ok := errorsNew(v.Values[i]); ok {
						msgs[name.Name] = msg
					}
				}
			}
			return true
		})
	}
	for _, a := range advice {
		msg, ok := msgs[a.name]
		if !ok {
			t.Errorf("package counter declares no sentinel %s", a.name)
		} else if msg != a.err.Error() {
			t.Errorf("counter.%s says %q; the advice named for it is for %q", a.name, msg, a.err)
		}
	}
}

// errorsNew returns the message of e where it is errors.New("...").
func errorsNew(e ast.Expr) (string, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "New" {
		return "", false
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "errors" {
		return "", false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	msg, err := strconv.Unquote(lit.Value)
	return msg, err == nil
}
