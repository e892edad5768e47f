package handover

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A mutation is one change to the store order of writer.go, to the
// barrier of collector.go, to the path of a writer with a lock or to the
// reader's handling of an exemplar, applied to a scratch copy of this
// package.
type mutation struct {
	name string
	file string // one of mutatedFiles
	// edits are replacements of byte ranges of the original file, none
	// overlapping.
	edits []edit
	// forbidden says whether the package doc's proof forbids the change,
	// so that a test must fail; an allowed change must pass.
	forbidden bool
	// why is the rule it breaks, or why it is allowed.
	why string
}

type edit struct {
	from, to int
	text     string
}

// apply returns src with m's edits made.
func (m mutation) apply(src []byte) []byte {
	var out bytes.Buffer
	at := 0
	for _, e := range m.edits {
		out.Write(src[at:e.from])
		out.WriteString(e.text)
		at = e.to
	}
	out.Write(src[at:])
	return out.Bytes()
}

// A unit is one row of the package doc's table as writer.go makes it: the
// statement before a step() call.
type unit struct {
	label      string
	rank       int // 0 seq, 1 the journal words and the load, 2 jmark, 3 the tally, 4 done
	from, to   int // the statement's bytes
	block, pos int // its block and its place among the block's units
}

// unitLabels name a unit by what its statement stores, in order of test.
var unitLabels = []struct {
	re    *regexp.Regexp
	label string
	rank  int
}{
	{regexp.MustCompile(`&w\.seq\b`), "seq", 0},
	{regexp.MustCompile(`&w\.jd\b`), "jd", 1},
	{regexp.MustCompile(`&w\.jkind\b`), "jkind", 1},
	{regexp.MustCompile(`w\.cur\.Load\(\)`), "load of cur", 1},
	{regexp.MustCompile(`&w\.jlo\b`), "jlo", 1},
	{regexp.MustCompile(`&w\.jhi\b`), "jhi", 1},
	{regexp.MustCompile(`&w\.jUnknown\b`), "jUnknown", 1},
	{regexp.MustCompile(`&w\.jexTag\b`), "the exemplar's journal", 1},
	{regexp.MustCompile(`&w\.jmark\b`), "jmark", 2},
	{regexp.MustCompile(`&t\.counts\[i\]|t\.setCount\(p, c\)`), "count", 3},
	{regexp.MustCompile(`&t\.touched\b`), "t.touched", 3},
	{regexp.MustCompile(`&t\.lo\b`), "t.lo", 3},
	{regexp.MustCompile(`&t\.hi\b`), "t.hi", 3},
	{regexp.MustCompile(`&t\.max\b`), "t.max", 3},
	{regexp.MustCompile(`&t\.min\b`), "t.min", 3},
	{regexp.MustCompile(`&t\.unknownCPU\b`), "t.unknownCPU", 3},
	{regexp.MustCompile(`\.put\(s, d,`), "the exemplar's slot", 3},
	{regexp.MustCompile(`&w\.done\b`), "done", 4},
}

// rules names what the rank of each side of a swap breaks.
func swapRule(a, b unit) (forbidden bool, why string) {
	switch {
	case a.rank == b.rank && a.rank == 1:
		return false, "allowed: journal words (and the load) in any order between seq and jmark"
	case a.rank == b.rank && a.rank == 3:
		return false, "allowed: the tally's stores in any order after jmark"
	case b.rank == 4:
		return true, "R4: done last"
	case a.rank == 0:
		return true, "R1: seq first"
	case b.rank == 2:
		return true, "R2: the journal before its mark"
	}
	return true, "R3: the mark before the tally"
}

// mutatedFiles are the files mutations change.
var mutatedFiles = []string{"writer.go", "collector.go", "flight.go", "journal.go", "tally.go"}

// mutationsOf returns every mutation of writer.go's Record, RecordExemplar
// and put, of collector.go's barrier, and of the paths listed below, the
// files' sources in src.
func mutationsOf(t *testing.T, src map[string][]byte) []mutation {
	writer, collector := src["writer.go"], src["collector.go"]
	var ms []mutation
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "writer.go", writer, 0)
	if err != nil {
		t.Fatal(err)
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || fn.Name.Name != "Record" && fn.Name.Name != "RecordExemplar" && fn.Name.Name != "put" {
			continue
		}
		var units []unit
		block := 0
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			b, ok := n.(*ast.BlockStmt)
			if !ok {
				return true
			}
			block++
			pos := 0
			for i, st := range b.List {
				if i == 0 || !isStep(st) {
					continue
				}
				prev := b.List[i-1]
				u := unit{from: off(prev.Pos()), to: off(prev.End()), block: block, pos: pos}
				text := string(writer[u.from:u.to])
				for _, l := range unitLabels {
					if l.re.MatchString(text) {
						u.label, u.rank = l.label, l.rank
						break
					}
				}
				if u.label == "" {
					t.Fatalf("%s: no label for the store %q", fn.Name.Name, text)
				}
				units = append(units, u)
				pos++
			}
			return true
		})
		name := fn.Name.Name
		var seq, load unit
		for i, u := range units {
			switch u.label {
			case "seq":
				seq = u
			case "load of cur":
				load = u
			}
			forbidden, why := true, "every row stores what the reader reads"
			if u.label == "done" {
				forbidden, why = false, "allowed: done only spares the reader a copy, and the journal does without it"
			}
			ms = append(ms, mutation{
				name: name + ": no " + u.label, file: "writer.go",
				edits:     []edit{{u.from, u.to, "_ = 0"}},
				forbidden: forbidden, why: why,
			})
			if i+1 < len(units) && units[i+1].block == u.block {
				v := units[i+1]
				forbidden, why := swapRule(u, v)
				ms = append(ms, mutation{
					name: name + ": " + v.label + " before " + u.label, file: "writer.go",
					edits: []edit{
						{u.from, u.to, string(writer[v.from:v.to])},
						{v.from, v.to, string(writer[u.from:u.to])},
					},
					forbidden: forbidden, why: why,
				})
			}
		}
		ms = append(ms, mutation{
			name: name + ": the load of cur before seq", file: "writer.go",
			edits: []edit{
				{seq.from, seq.from, string(writer[load.from:load.to]) + "\n\tstep()\n\t"},
				{load.from, load.to, "_ = 0"},
			},
			forbidden: true, why: "R1: seq before the load, which the barrier orders",
		})
	}

	fc, err := parser.ParseFile(fset, "collector.go", collector, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range fc.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "Interval" {
			continue
		}
		for i, st := range fn.Body.List {
			ifs, ok := st.(*ast.IfStmt)
			if !ok || !strings.Contains(string(collector[off(ifs.Pos()):off(ifs.End())]), "c.barrier.pass()") {
				continue
			}
			pass := ifs.Body.List[0]
			ms = append(ms, mutation{
				name: "Interval: no barrier", file: "collector.go",
				edits:     []edit{{off(pass.Pos()), off(pass.End()), ""}},
				forbidden: true, why: "the barrier between the swaps and the journals",
			})
			next := fn.Body.List[i+1]
			ms = append(ms, mutation{
				name: "Interval: the barrier after the collects", file: "collector.go",
				// The swaps stay first: begin's result is kept, and only
				// the barrier moves, after the collects.
				edits: []edit{
					{off(ifs.Pos()), off(ifs.End()), "took := " + string(collector[off(ifs.Cond.Pos()):off(ifs.Cond.End())])},
					{off(next.End()), off(next.End()), "\n\tif took {\n\t\t" + string(collector[off(pass.Pos()):off(pass.End())]) + "\n\t}"},
				},
				forbidden: true, why: "the barrier between the swaps and the journals",
			})
		}
	}
	// The paths that take a tally whole without reading its journal: a
	// writer listed with a lock (ListLocked), whose tally Interval takes
	// only holding the lock, and collect's before the copy, only where seq
	// has moved since the barrier; and the retirement of the writers
	// closed while an Interval runs.
	for _, lm := range []struct{ name, file, old, new, why string }{
		{"Interval: a locked writer's tally taken whole without its lock", "collector.go",
			"w.lock != nil && tryLock(w.lock)", "w.lock != nil",
			"a tally is whole only where its writer's lock is held"},
		{"collect: a tally taken whole before the copy without seq moved", "collector.go",
			"if atomic.LoadUint64(&w.seq) != s || ended {", "if true {",
			"a tally is whole without its journal only where a later record has begun"},
		{"RecordExemplar: the exemplar's journal after jmark", "writer.go",
			exJournal + "\tstep()\n\tstore64(&w.jlo, lo)\n\tstep()\n\tstore64(&w.jmark, mark(c, t, s))\n\tstep()\n" + countStore,
			"store64(&w.jlo, lo)\n\tstep()\n\tstore64(&w.jmark, mark(c, t, s))\n\tstep()\n" + exJournal + "\tstep()\n" + countStore,
			"R2: the journal, the exemplar's included, before its mark"},
		{"RecordExemplar: the exemplar's slot before jmark", "writer.go",
			exJournal + "\tstep()\n\tstore64(&w.jlo, lo)\n\tstep()\n\tstore64(&w.jmark, mark(c, t, s))\n\tstep()\n" + countStore,
			exJournal + "\tstep()\n\tstore64(&w.jlo, lo)\n\tstep()\n\tif keep {\n\t\tx.put(s, d, p, e)\n\t}\n\tstep()\n\tstore64(&w.jmark, mark(c, t, s))\n\tstep()\n" + countStore,
			"R3: the mark before the tally, the exemplar's slot included"},
		{"placeIn: the copy's slot left as seen", "journal.go",
			"c.ex[slotOf(BucketOf(uint64(j.d)))] = slot{seq: s, d: j.d, ex: j.ex}", "_ = s",
			"a slot the record in flight writes may be torn in the copy: the journal's is whole"},
		{"finish: the exemplar of a record found by its words left out", "flight.go",
			"dst.AddExemplar(d, &e)", "_, _ = d, e",
			"a record that ended after its tally's copy left its exemplar in the tally"},
		{"place: the exemplar of a record placed by its journal left out", "journal.go",
			"\tif j.kept {\n\t\tdst.AddExemplar(j.d, &j.ex)\n\t}", "",
			"a record placed by its journal has its exemplar there"},
		{"retire: attached cleared after the swap", "collector.go",
			"w.attached.Store(false)\n\ttrace(EventRetiring)\n\tif !w.cur.CompareAndSwap(bare, closed) {\n\t\tw.attached.Store(true) // a record put a tally in front: w stays\n\t\treturn false\n\t}\n\ttrace(EventRetired)",
			"trace(EventRetiring)\n\tif !w.cur.CompareAndSwap(bare, closed) {\n\t\treturn false\n\t}\n\ttrace(EventRetired)\n\tw.attached.Store(false)",
			"a writer that finds closed must push itself: attached is clear before the swap"},
		{"retire: a writer whose last record is not yet in a Dist", "collector.go",
			"if w.flight.holding() && !w.flight.in {\n\t\treturn false\n\t}\n\tif !ended {", "if !ended {",
			"a record held aside is known only to its listed writer's flight"},
		{"countOf: a bare tally takes a count apart", "tally.go",
			"\tif t.bare {\n\t\treturn 0, 0, false\n\t}\n", "",
			"a record that loads a bare tally must begin another, so that one found ended wrote the tally taken"},
		{"closedAfter: any Close ends the record in flight", "collector.go",
			"return w.closedAt.Load() == s+1", "return w.closedAt.Load() != 0",
			"only the record Close followed has ended"},
	} {
		src := src[lm.file]
		at := bytes.Index(src, []byte(lm.old))
		if at < 0 || bytes.Count(src, []byte(lm.old)) != 1 {
			t.Fatalf("%s: %q is not once in %s", lm.name, lm.old, lm.file)
		}
		ms = append(ms, mutation{
			name: lm.name, file: lm.file,
			edits:     []edit{{at, at + len(lm.old), lm.new}},
			forbidden: true, why: lm.why,
		})
	}
	return ms
}

// countStore is Record's and RecordExemplar's store of the count.
const countStore = "\tif narrow {\n\t\tstore8(&t.small[i], uint8(c))\n\t} else {\n\t\tstore32(&t.counts[i], c)\n\t}"

// exJournal is RecordExemplar's store of the exemplar's journal.
const exJournal = "if keep {\n\t\tstore64(&w.jex[0], e[0])\n\t\tstore64(&w.jex[1], e[1])\n\t\tstore64(&w.jex[2], e[2])\n\t\tstore64(&w.jex[3], e[3])\n\t\tstore64(&w.jexTag, s|exKept)\n\t}\n"

// isStep reports whether st is a call of step().
func isStep(st ast.Stmt) bool {
	e, ok := st.(*ast.ExprStmt)
	if !ok {
		return false
	}
	c, ok := e.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := c.Fun.(*ast.Ident)
	return ok && id.Name == "step" && len(c.Args) == 0
}

// TestMutations applies every mutation of the store order (and of the
// retirement of closed writers) to a scratch copy of this package and runs
// the handoverstep tests and the tests of Close and retirement on it: each
// change the proof forbids must fail them, each it allows must pass, and this
// package as it is must pass. It compiles the package once a mutation
// (about a minute in all), so it runs only where COUNTER_MUTATE is set,
// as CI sets it.
func TestMutations(t *testing.T) {
	if os.Getenv("COUNTER_MUTATE") == "" {
		t.Skip("set COUNTER_MUTATE=1 to apply every mutation of the store order to a scratch copy")
	}
	srcs := map[string][]byte{}
	for _, name := range mutatedFiles {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		srcs[name] = b
	}
	scratch := t.TempDir()
	pkg := filepath.Join(scratch, "internal", "handover")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		copyFile(t, filepath.Join("..", "..", name), filepath.Join(scratch, name))
	}
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		copyFile(t, name, filepath.Join(pkg, name))
	}
	run := func() (string, bool) {
		cmd := exec.Command("go", "test", "-tags", "handoverstep", "-count=1",
			"-run", "^(TestRecordAtEachStore|TestBarrierBetweenSwapsAndJournals|TestCloseNeverWaits|TestRetireRacesARecord|TestIdleWriterWithARecordInFlight|TestRecordEndsBetweenBarrierAndCollect)$", "./internal/handover")
		cmd.Dir = scratch
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		return string(out), err == nil
	}
	if out, ok := run(); !ok {
		t.Fatalf("the package as it is fails the handoverstep tests:\n%s", out)
	}
	for _, m := range mutationsOf(t, srcs) {
		src := srcs[m.file]
		if err := os.WriteFile(filepath.Join(pkg, m.file), m.apply(src), 0o644); err != nil {
			t.Fatal(err)
		}
		out, passed := run()
		failedTest := regexp.MustCompile(`--- FAIL: (\w+)`).FindStringSubmatch(out)
		built := !strings.Contains(out, "[build failed]") && !strings.Contains(out, "[setup failed]")
		switch {
		case !passed && failedTest == nil && !built:
			t.Logf("%-50s does not compile (a data dependency): %s", m.name, firstLine(out))
		case !passed && failedTest == nil:
			// It built, and the tests died before any reported: a mutation
			// must be caught by what the proof says, not by a crash.
			t.Errorf("%-50s crashed the tests; want a test to catch it (%s):\n%s", m.name, m.why, out)
		case m.forbidden && passed:
			t.Errorf("%-50s passed; want a failure (%s)", m.name, m.why)
		case !m.forbidden && !passed:
			t.Errorf("%-50s failed %s; want a pass (%s):\n%s", m.name, failedTest[1], m.why, out)
		case passed:
			t.Logf("%-50s passes, as %s", m.name, m.why)
		default:
			t.Logf("%-50s caught by %s (%s)", m.name, failedTest[1], m.why)
		}
		if err := os.WriteFile(filepath.Join(pkg, m.file), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstLine returns the first line of out that says what is wrong.
func firstLine(out string) string {
	for l := range strings.SplitSeq(out, "\n") {
		if strings.Contains(l, ".go:") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(out)
}
