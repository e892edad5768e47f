package counter

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tickstamp/counter/internal/zerocall"
)

// maxExported is the most exported identifiers the package may have: 100
// until the readable results (Summary and its String, Snapshot's String,
// Summary and Draw, Tickdelta's Seconds and Nanoseconds, FloorSpans) each
// earned a place, and 119 once Family (NewFamily, With, Get, Labels, Len,
// Interval, ErrLabels and ErrLimit) did, 123 once exemplars (Exemplar,
// its two RecordExemplars and Snapshot.Exemplars) did, and 124 once
// Family.ForgetIdle did, which frees a Family's limit of idle series.
const maxExported = 124

// TestExportedIdentifiers counts the root package's exported identifiers
// as a user meets them in the linux/amd64 build: types, functions, methods
// of exported types, and each exported constant and variable name. Each
// one is a name a user must learn and the package must keep; the count
// stays at or under maxExported.
func TestExportedIdentifiers(t *testing.T) {
	names := exportedIdentifiers(t, ".")
	t.Logf("%d exported identifiers", len(names))
	if len(names) > maxExported {
		t.Errorf("%d exported identifiers; want at most %d:\n%v", len(names), maxExported, names)
	}
}

// exportedIdentifiers returns the exported identifiers of the package in
// dir, in its non-test files that the linux/amd64 build selects, sorted.
func exportedIdentifiers(t *testing.T, dir string) []string {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH = "linux", "amd64"
	ctx.BuildTags = nil
	pkg, err := ctx.ImportDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var names []string
	for _, f := range pkg.GoFiles {
		file, err := parser.ParseFile(fset, filepath.Join(dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			names = append(names, declNames(decl)...)
		}
	}
	slices.Sort(names)
	return names
}

// declNames returns the exported identifiers one declaration adds.
func declNames(decl ast.Decl) []string {
	var names []string
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() {
			return nil
		}
		if d.Recv == nil {
			return []string{"func " + d.Name.Name}
		}
		recv := zerocall.ReceiverType(d.Recv.List[0].Type)
		if !ast.IsExported(recv) {
			return nil
		}
		return []string{"method " + recv + "." + d.Name.Name}
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					names = append(names, "type "+s.Name.Name)
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() {
						names = append(names, d.Tok.String()+" "+n.Name)
					}
				}
			}
		}
	}
	return names
}

// TestExportedIdentifiersCounted checks the counter itself on a file of
// each kind of declaration, so that a count under the limit is not a count
// that missed something.
func TestExportedIdentifiersCounted(t *testing.T) {
	const src = `package p
type T int
type u int
type G[P any] struct{}
func F() {}
func f() {}
func (T) M() {}
func (*T) N() {}
func (T) m() {}
func (u) M() {}
func (*G[P]) M() {}
const A, b = 1, 2
var (
	V = 1
	w = 2
)
`
	file, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, decl := range file.Decls {
		got = append(got, declNames(decl)...)
	}
	slices.Sort(got)
	want := []string{"const A", "func F", "method G.M", "method T.M", "method T.N", "type G", "type T", "var V"}
	if !slices.Equal(got, want) {
		t.Errorf("counted %v; want %v", got, want)
	}
}
