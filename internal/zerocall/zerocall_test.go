package zerocall

import (
	"errors"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestExported checks the names and parameters read from a package: its
// exported functions and the exported methods of its exported types, in
// the files the build selects.
func TestExported(t *testing.T) {
	got, err := exported("testdata/pkg")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"F":   {"p", "s", "n"},
		"T.M": {"t", "x"},
		"T.N": {"t", "arg1", "y"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("exported = %v; want %v", got, want)
	}
}

// A probe has a method of each kind of receiver, for TestNameOf.
type probe struct{}

func (probe) Value()    {}
func (*probe) Pointer() {}

// TestNameOf checks the names rows are known by.
func TestNameOf(t *testing.T) {
	for _, c := range []struct {
		fn   any
		want string
	}{
		{probe.Value, "probe.Value"},
		{(*probe).Pointer, "probe.Pointer"},
		{exported, "exported"},
	} {
		if got := nameOf(c.fn); got != c.want {
			t.Errorf("nameOf(%T) = %q; want %q", c.fn, got, c.want)
		}
	}
}

// TestCases checks the cases made of a function's parameters: each nil or
// zero value in turn, numbers left valid, and all of them at once.
func TestCases(t *testing.T) {
	type S struct{ X int }
	ft := reflect.TypeFor[func(*S, []string, int, S, error)]()
	calls := cases(ft, []string{"a", "b", "n", "d", "e"}, nil)
	var got []string
	for _, c := range calls {
		got = append(got, c.name)
	}
	want := []string{"nil a", "zero a", "nil b", "zero d", "nil e", "all nil"}
	if !slices.Equal(got, want) {
		t.Errorf("cases = %q; want %q", got, want)
	}
	for _, c := range calls {
		// Every case but "all nil" leaves a parameter of a nil or zero
		// kind to hold a valid value, and no Value is given.
		if got, want := c.missing != nil, c.name != "all nil"; got != want {
			t.Errorf("%s: a type missing is %v; want %v", c.name, got, want)
		}
	}
	one := cases(reflect.TypeFor[func(*S, int)](), []string{"a", "n"}, nil)
	if len(one) != 2 || one[len(one)-1].name == "all nil" {
		t.Errorf("cases of one varied parameter = %d, the last %q; want 2 and no \"all nil\"", len(one), one[len(one)-1].name)
	}
}

// runtimeError is a run-time panic's value.
func runtimeError() (err runtime.Error) {
	defer func() { err = recover().(runtime.Error) }()
	var p *int
	_ = *p
	return nil
}

// TestVerdict checks which outcomes pass: an error or a named panic with
// the prefix, a normal return only where valid, a run-time panic only
// where the row allows it.
func TestVerdict(t *testing.T) {
	rt := runtimeError()
	for _, c := range []struct {
		name             string
		o                outcome
		valid, runtimeOK bool
		fails            string // a word of the failure, "" for none
	}{
		{"named panic", outcome{panicked: true, p: "pkg: T.M: a nil x"}, false, false, ""},
		{"error panic", outcome{panicked: true, p: errors.New("pkg: T.M: a nil x")}, false, false, ""},
		{"unprefixed panic", outcome{panicked: true, p: "T.M: a nil x"}, false, false, "starts with"},
		{"unnamed panic", outcome{panicked: true, p: "pkg: a nil x"}, false, false, "names"},
		{"panic where valid", outcome{panicked: true, p: "pkg: T.M: a nil x"}, true, false, "normal return"},
		{"run-time panic", outcome{panicked: true, p: rt}, false, false, "run-time"},
		{"run-time panic allowed", outcome{panicked: true, p: rt}, false, true, ""},
		{"error", outcome{returned: true, err: errors.New("pkg: no")}, false, false, ""},
		{"unprefixed error", outcome{returned: true, err: errors.New("no")}, false, false, "starts with"},
		{"sibling's error", outcome{returned: true, err: errors.New("sibling: no")}, false, false, ""},
		{"sibling's panic", outcome{panicked: true, p: "sibling: T.M: no"}, false, false, "starts with"},
		{"error where valid", outcome{returned: true, err: errors.New("pkg: no")}, true, false, "want none"},
		{"error where a panic is", outcome{returned: true, err: errors.New("pkg: no")}, false, true, "want a panic"},
		{"return", outcome{returned: true}, false, false, "returned normally"},
		{"return where valid", outcome{returned: true}, true, false, ""},
		{"return where a panic is", outcome{returned: true}, false, true, "returned normally"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := verdict(prefixes{"pkg: ", []string{"pkg: ", "sibling: "}}, "T", c.o, c.valid, c.runtimeOK)
			switch {
			case c.fails == "" && got != "":
				t.Errorf("verdict = %q; want a pass", got)
			case c.fails != "" && !strings.Contains(got, c.fails):
				t.Errorf("verdict = %q; want a failure that says %q", got, c.fails)
			}
		})
	}
}
