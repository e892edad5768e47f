// Package zerocall calls every exported function and method of a package
// with nil and zero values, and checks that each call refuses them loudly:
// with an error, or with a panic whose message starts with the package's
// prefix and names the type or function called, never with a runtime error
// such as a nil dereference. It is for tests only.
//
// A package's test lists each exported function, and each exported method
// of an exported type, as a [Func]; [Run] parses the package in the test's
// directory and fails where one is missing, so that a new exported name
// without a row fails the test. Methods of unexported types are left out:
// no caller can hold a nil or zero one.
//
// The cases of a function are its parameters, the receiver first, each
// made nil or zero in turn while the others hold valid values: "nil x" for
// a pointer, interface, func, map, slice or channel x, "zero x" for a
// struct x and for a pointer to a zero struct, and "all nil" with every one
// of them nil (zero, for a struct) at once where there are two or more.
// Parameters of other kinds (numbers, strings, booleans) always hold a
// valid value: nil and zero values are what this package checks, not
// ranges.
package zerocall

import (
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// A Func is one exported function or method and what its nil and zero
// cases do, each map keyed by a case's name ("nil dst", "zero h").
type Func struct {
	// Fn is the function, or the method expression of the method:
	// (*counter.Histogram).Interval, counter.Counter.Now.
	Fn any

	// Valid holds the cases where nil or zero is a valid input, each with
	// what the doc says of it: the call returns normally, with no error.
	Valid map[string]string

	// Runtime holds the cases left to Go's own run-time panic, each with
	// why: a hot path, where a check would cost every call a branch, or a
	// function another change is rewriting. The call must panic.
	Runtime map[string]string

	// Skip holds the cases that are not called, each with why.
	Skip map[string]string

	// Custom calls a case itself, returning the call's error if it has
	// one, where the case needs what a valid value cannot give (a
	// testing.B from a running benchmark, say). Its outcome is judged as a
	// generated call's. A name that is not one of the generated cases adds
	// a case.
	Custom map[string]func() error

	// Later, where not nil, returns the error that a generated call's
	// results report afterwards, where they report it so: a
	// prometheus.Collector that New never refuses, whose Register returns
	// the error. It is called where the call itself returned no error.
	Later func(results []any) error
}

// A Value makes valid values of one type, a fresh one for each call, for
// the parameters that a case leaves valid.
type Value struct {
	typ  reflect.Type
	make func() reflect.Value
}

// Make returns the Value of type T that fresh makes: for an interface
// type, name T explicitly (Make[counter.Clock](...)).
func Make[T any](fresh func() T) Value {
	return Value{reflect.TypeFor[T](), func() reflect.Value {
		v := fresh()
		return reflect.ValueOf(&v).Elem()
	}}
}

// timeout bounds each call: a nil channel, say, blocks for ever.
const timeout = 30 * time.Second

// Run checks that funcs list exactly the exported functions and methods of
// the package in the test's directory, as the build of this test selects
// its files, and calls each case of each, in a subtest named after the
// function and the case. prefix is the package's ("counter: "), which
// every panic and error must start with; an error may instead start with
// one of errPrefixes, a sibling package's whose sentinel errors the
// package returns as they are.
func Run(t *testing.T, prefix string, values []Value, funcs []Func, errPrefixes ...string) {
	t.Helper()
	decls, err := exported(".")
	if err != nil {
		t.Fatal(err)
	}
	valid := make(map[reflect.Type]func() reflect.Value)
	for _, v := range values {
		valid[v.typ] = v.make
	}
	seen := make(map[string]bool)
	for _, f := range funcs {
		name := nameOf(f.Fn)
		params, ok := decls[name]
		switch {
		case !ok:
			t.Errorf("%s: a row for no exported function or method of the package", name)
			continue
		case seen[name]:
			t.Errorf("%s: two rows", name)
			continue
		}
		seen[name] = true
		p := prefixes{prefix, append([]string{prefix}, errPrefixes...)}
		t.Run(name, func(t *testing.T) { runFunc(t, p, name, params, valid, f) })
	}
	for _, name := range slices.Sorted(maps.Keys(decls)) {
		if !seen[name] {
			t.Errorf("%s: exported, and not in the table: add a row for it", name)
		}
	}
}

// A call is one case: the arguments, the receiver first, each a nil or
// zero value or, where it is the zero reflect.Value, a valid value to make
// at the call; or a custom call.
type call struct {
	name   string
	args   []reflect.Value
	custom func() error
	// missing names a type the case needs a valid value of and has none.
	missing reflect.Type
}

// prefixes are what a package's panics and errors start with.
type prefixes struct {
	panics string
	errors []string
}

// runFunc checks f's rows against its cases and calls each case.
func runFunc(t *testing.T, p prefixes, name string, params []string, valid map[reflect.Type]func() reflect.Value, f Func) {
	fn := reflect.ValueOf(f.Fn)
	if n := fn.Type().NumIn(); n != len(params) {
		t.Fatalf("%v takes %d arguments, its receiver counted; its declaration has %d: %v", fn.Type(), n, len(params), params)
	}
	calls := cases(fn.Type(), params, valid)
	names := make(map[string]bool)
	for _, c := range calls {
		names[c.name] = true
	}
	for _, m := range []map[string]string{f.Valid, f.Runtime, f.Skip} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !names[k] && f.Custom[k] == nil {
				t.Errorf("case %q: in the row, and not a case of %s %v", k, name, slices.Sorted(maps.Keys(names)))
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(f.Custom)) {
		if !names[k] {
			calls = append(calls, call{name: k})
		}
	}
	if len(calls) == 0 {
		t.Logf("%s takes no nil or zero value", name)
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			if why, ok := f.Skip[c.name]; ok {
				t.Skip(why)
			}
			if c.custom = f.Custom[c.name]; c.custom == nil && c.missing != nil {
				t.Fatalf("no valid %v to call with: add a Value of it, or a Custom call or a Skip of this case", c.missing)
			}
			_, isValid := f.Valid[c.name]
			why, isRuntime := f.Runtime[c.name]
			o := do(t, fn, c, valid, f.Later)
			if msg := verdict(p, subject(name), o, isValid, isRuntime); msg != "" {
				t.Fatal(msg)
			}
			if _, ok := o.p.(runtime.Error); ok {
				t.Logf("panicked with %v, as the row allows: %s", o.p, why)
			}
		})
	}
}

// cases returns the calls of a function of type ft whose parameters, the
// receiver first, are named params: one for each nil or zero value of
// each parameter, and "all nil" where two or more parameters have one.
func cases(ft reflect.Type, params []string, valid map[reflect.Type]func() reflect.Value) []call {
	var calls []call
	all := call{name: "all nil", args: make([]reflect.Value, ft.NumIn())}
	varied := 0
	for i := range ft.NumIn() {
		vs := variants(ft.In(i))
		for _, v := range vs {
			c := call{name: v.name + " " + params[i], args: make([]reflect.Value, ft.NumIn())}
			c.args[i] = v.value
			calls = append(calls, c)
		}
		if len(vs) > 0 {
			varied++
			all.args[i] = vs[0].value
		}
	}
	if varied >= 2 {
		calls = append(calls, all)
	}
	for i := range calls {
		for j, a := range calls[i].args {
			t := ft.In(j)
			if !a.IsValid() && valid[t] == nil && variants(t) != nil {
				calls[i].missing = t
			}
		}
	}
	return calls
}

// A variant is a nil or zero value of a parameter's type, and its name.
type variant struct {
	name  string
	value reflect.Value
}

// variants returns the nil and zero values of type t that a case takes.
func variants(t reflect.Type) []variant {
	switch t.Kind() {
	case reflect.Pointer:
		vs := []variant{{"nil", reflect.Zero(t)}}
		if t.Elem().Kind() == reflect.Struct {
			vs = append(vs, variant{"zero", reflect.New(t.Elem())})
		}
		return vs
	case reflect.Interface, reflect.Func, reflect.Map, reflect.Slice, reflect.Chan:
		return []variant{{"nil", reflect.Zero(t)}}
	case reflect.Struct:
		return []variant{{"zero", reflect.Zero(t)}}
	}
	return nil
}

// argsOf returns c's arguments, each valid one made now: a Value's, or the
// zero value of a type that has no nil or zero case.
func argsOf(ft reflect.Type, c call, valid map[reflect.Type]func() reflect.Value) []reflect.Value {
	args := slices.Clone(c.args)
	for j, a := range args {
		if a.IsValid() {
			continue
		}
		if fresh := valid[ft.In(j)]; fresh != nil {
			args[j] = fresh()
		} else {
			args[j] = reflect.Zero(ft.In(j))
		}
	}
	return args
}

// makeArgs returns argsOf, failing t where a Value panics making one.
func makeArgs(t *testing.T, ft reflect.Type, c call, valid map[reflect.Type]func() reflect.Value) (args []reflect.Value) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("making the valid arguments: %v", p)
		}
	}()
	return argsOf(ft, c, valid)
}

// An outcome is what a call did: returned, with or without an error, or
// panicked with p.
type outcome struct {
	returned bool
	err      error
	panicked bool
	p        any
}

// do makes the call c of fn, with valid values made from valid, on a
// goroutine of its own, and returns what it did, failing t where it has not
// returned within the timeout.
func do(t *testing.T, fn reflect.Value, c call, valid map[reflect.Type]func() reflect.Value, later func([]any) error) outcome {
	var args []reflect.Value
	if c.custom == nil {
		args = makeArgs(t, fn.Type(), c, valid)
	}
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if p := recover(); p != nil {
				o.panicked, o.p = true, p
			}
			done <- o
		}()
		if c.custom != nil {
			o.err = c.custom()
		} else {
			out := invoke(fn, args)
			if o.err = results(out); o.err == nil && later != nil {
				o.err = later(interfaces(out))
			}
		}
		o.returned = true
	}()
	select {
	case o := <-done:
		if !o.returned && !o.panicked {
			t.Fatal("the call ended its goroutine (runtime.Goexit) without returning or panicking")
		}
		return o
	case <-time.After(timeout):
		t.Fatalf("the call has not returned after %v: it blocks (on a nil channel?)", timeout)
		return outcome{}
	}
}

// invoke calls fn with args, passing a variadic function's last argument as
// its slice.
func invoke(fn reflect.Value, args []reflect.Value) []reflect.Value {
	if fn.Type().IsVariadic() {
		return fn.CallSlice(args)
	}
	return fn.Call(args)
}

// results returns the error among out, and runs each iterator among them
// to its end, so that a nil that an iterator reads only when ranged over
// panics here too.
func results(out []reflect.Value) error {
	var err error
	for _, v := range out {
		if isSeq(v.Type()) && !v.IsNil() {
			yield := reflect.MakeFunc(v.Type().In(0), func([]reflect.Value) []reflect.Value {
				return []reflect.Value{reflect.ValueOf(true)}
			})
			v.Call([]reflect.Value{yield})
		}
		if e, ok := v.Interface().(error); ok && e != nil {
			err = e
		}
	}
	return err
}

// interfaces returns the values of vs.
func interfaces(vs []reflect.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v.Interface()
	}
	return out
}

// isSeq reports whether t is an iterator's type: func(yield func(...) bool).
func isSeq(t reflect.Type) bool {
	if t.Kind() != reflect.Func || t.NumIn() != 1 || t.NumOut() != 0 {
		return false
	}
	y := t.In(0)
	return y.Kind() == reflect.Func && y.NumOut() == 1 && y.Out(0).Kind() == reflect.Bool
}

// verdict returns why o is not what a nil or zero value should get, ""
// where it is: a returned error or a panic, each with a message that
// starts with one of p's, a panic's naming subject too; a normal return
// where valid; any panic where runtimeOK.
func verdict(p prefixes, subject string, o outcome, valid, runtimeOK bool) string {
	switch {
	case o.panicked:
		msg := fmt.Sprint(o.p)
		if _, ok := o.p.(runtime.Error); ok && !runtimeOK {
			return fmt.Sprintf("panicked with a run-time error: %s; want an error or a panic that starts with %q", msg, p.panics)
		} else if ok {
			return ""
		}
		switch {
		case valid:
			return fmt.Sprintf("panicked: %s; want a normal return, as the row says nil or zero is valid here", msg)
		case !strings.HasPrefix(msg, p.panics):
			return fmt.Sprintf("panic %q; want a message that starts with %q", msg, p.panics)
		case !strings.Contains(msg, subject):
			return fmt.Sprintf("panic %q; want a message that names %s", msg, subject)
		}
	case o.err != nil:
		switch msg := o.err.Error(); {
		case valid:
			return fmt.Sprintf("returned the error %q; want none, as the row says nil or zero is valid here", msg)
		case runtimeOK:
			return fmt.Sprintf("returned the error %q; want a panic, as the row says", msg)
		case !slices.ContainsFunc(p.errors, func(prefix string) bool { return strings.HasPrefix(msg, prefix) }):
			return fmt.Sprintf("error %q; want a message that starts with one of %q", msg, p.errors)
		}
	case !valid:
		return fmt.Sprintf("returned normally; want an error or a panic that starts with %q, or a row that says nil or zero is valid here", p.panics)
	}
	return ""
}

// subject returns what a panic of the function or method name must name:
// the receiver's type, or the function.
func subject(name string) string {
	typ, _, ok := strings.Cut(name, ".")
	if ok {
		return typ
	}
	return name
}

// nameOf returns the name of the function or method expression fn as a
// row and an error name it: "NewHistogram", "Histogram.Interval".
func nameOf(fn any) string {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		panic(fmt.Sprintf("zerocall: Func.Fn is a %v, not a function", v.Kind()))
	}
	full := runtime.FuncForPC(v.Pointer()).Name() // "path/pkg.(*T).M", "path/pkg.F"
	full = full[strings.LastIndex(full, "/")+1:]
	_, name, _ := strings.Cut(full, ".")
	name = strings.NewReplacer("(*", "", ")", "").Replace(name)
	return strings.TrimSuffix(name, "-fm")
}

// exported returns the exported functions of the package in dir, and the
// exported methods of its exported types, by name, each with the names of
// its parameters, the receiver first: in the files that go/build's default
// context selects, which holds every exported name (they live in files
// without build constraints).
func exported(dir string) (map[string][]string, error) {
	pkg, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	decls := make(map[string][]string)
	for _, file := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, file), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			name, params := fd.Name.Name, []string(nil)
			if fd.Recv != nil {
				typ := ReceiverType(fd.Recv.List[0].Type)
				if !ast.IsExported(typ) {
					continue
				}
				name = typ + "." + name
				params = fieldNames(fd.Recv, strings.ToLower(typ[:1])+typ[1:])
			}
			decls[name] = append(params, fieldNames(fd.Type.Params, "")...)
		}
	}
	if len(decls) == 0 {
		return nil, errors.New("zerocall: no exported function or method in " + dir)
	}
	return decls, nil
}

// ReceiverType returns the name of a method's receiver type: T for T, *T,
// T[P] and *T[P].
func ReceiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// fieldNames returns the names of a parameter list's parameters, one for
// each, unnamed and blank ones as unnamed (the receiver's type, or "argN").
func fieldNames(fl *ast.FieldList, unnamed string) []string {
	var names []string
	if fl == nil {
		return nil
	}
	for _, f := range fl.List {
		if len(f.Names) == 0 {
			names = append(names, cmp.Or(unnamed, fmt.Sprintf("arg%d", len(names)+1)))
			continue
		}
		for _, n := range f.Names {
			if n.Name == "_" {
				names = append(names, cmp.Or(unnamed, fmt.Sprintf("arg%d", len(names)+1)))
			} else {
				names = append(names, n.Name)
			}
		}
	}
	return names
}
