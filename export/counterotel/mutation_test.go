package counterotel_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// A mutation is one change to buckets.go, series.go, family.go or
// producer.go that breaks a rule of the package doc or of the code's
// comments, which some test must catch.
type mutation struct {
	name, file string
	old, new   string // old occurs once in file
}

var mutations = []mutation{
	{"fit lets one bucket more", "buckets.go",
		"for (hi>>k)-(lo>>k) >= l.maxSize {", "for (hi>>k)-(lo>>k) > l.maxSize {"},
	{"fit lowers the scale one too far", "buckets.go",
		"for (hi>>k)-(lo>>k) >= l.maxSize {", "for (hi>>k)-(lo>>k) >= l.maxSize-1 {"},
	{"index shifts once too often", "buckets.go",
		"i := t.indexOf(v, l, r) >> (l.exp.Scale() - t.scale)", "i := t.indexOf(v, l, r) >> (l.exp.Scale() - t.scale + 1)"},
	{"a known value's bucket is another value's", "buckets.go",
		"if k.v == v {", "if k.v != 0 {"},
	{"a value's bucket is known at the scale of another point", "buckets.go",
		"t.known[0] = knownValue{v, i}", "t.known[0] = knownValue{v, i >> 1}"},
	{"downscale misplaces the offset", "buckets.go",
		"lo := t.offset >> k\n", "lo := (t.offset + 1) >> k\n"},
	{"a bucket handed on by the ends is lost", "../ends.go",
		"return BucketIndex(m), m.Count, true", "return BucketIndex(m), m.Count, false"},
	{"a bucket at the first end's place counts between the ends", "../ends.go",
		"return e.lo < i && i < e.hi", "return e.lo <= i && i < e.hi"},
	{"a bucket handed on by the ends keeps the count it had", "../ends.go",
		"return BucketIndex(m), m.Count, true", "return BucketIndex(m), n, true"},
	{"widen leaves old counts in new buckets", "buckets.go",
		"clear(t.counts[shift+old:])", ""},
	{"reset keeps the ends", "buckets.go",
		"*t = tally{scale: l.maxScale, counts: t.counts[:0]}", "*t = tally{ends: t.ends, scale: l.maxScale, counts: t.counts[:0]}"},
	{"a point's scale is its counts'", "buckets.go",
		"dp.Scale -= k", ""},
	{"the ends' values are of another Snapshot", "buckets.go",
		"t.ends.Values(least, most)", "t.ends.Values(least+1, most)"},
	{"counts copied to the first bucket", "buckets.go",
		"copy(counts[t.offset-lo:], t.counts)", "copy(counts, t.counts)"},
	{"a delta Produce leaves its Interval out of the cumulative counts", "series.go",
		"sr.cumulative.add(in, &p.layout, pl)", "if !b.histDelta {\n\t\tsr.cumulative.add(in, &p.layout, pl)\n\t}"},
	{"the cumulative counts are the Interval's", "series.go",
		"sr.cumulative.add(in, &p.layout, pl)", "sr.cumulative.reset(&p.layout)\n\tsr.cumulative.add(in, &p.layout, pl)"},
	{"a place is one bucket off", "buckets.go",
		"return l.exp.Index(export.Seconds(", "return 1 + l.exp.Index(export.Seconds("},
	{"a row of places is another row's", "../memo.go",
		"row[j] = m.work(BucketAt(k*memoRowBuckets + j))", "row[j] = m.work(BucketAt((k+1)%memoRows*memoRowBuckets + j))"},
	{"a placed bucket shifts once too often", "buckets.go",
		"Between(s) {\n\t\ti, ok := pl.Known(k)\n\t\tif !ok {\n\t\t\ti = pl.Value(k)\n\t\t}\n\t\ti >>= shift & 31",
		"Between(s) {\n\t\ti, ok := pl.Known(k)\n\t\tif !ok {\n\t\t\ti = pl.Value(k)\n\t\t}\n\t\ti >>= (shift + 1) & 31"},
	{"a taken bucket shifts once too often", "../place.go",
		"row[kk%memoRowBuckets]>>shift", "row[kk%memoRowBuckets]>>(shift+1)"},
	{"a taken bucket is placed one slot off", "../place.go",
		">>shift) - first", ">>shift) - first + 1"},
	{"a taken bucket shifts once too often in the assembly", "../place_amd64.s",
		"SARQ  CX, SI", "SARQ  CX, SI\n\tSARQ  $1, SI"},
	{"a taken bucket is placed one slot off in the assembly", "../place_amd64.s",
		"SUBQ  first+64(FP), SI", "SUBQ  first+64(FP), SI\n\tINCQ  SI"},
	{"the first end of a taken tally is placed as a bucket between the ends", "../place.go",
		"lowBits(lo-w<<6)", "lowBits(lo-w<<6-1)"},
	{"a taken tally is placed at the layout's scale, not its own", "buckets.go",
		"k, n, ok := t.ends.PlaceTaken(tk, uint(l.exp.Scale()-t.scale), pl, t.offset, t.counts)",
		"k, n, ok := t.ends.PlaceTaken(tk, 0, pl, t.offset, t.counts)"},
	{"a taken bucket is handed on one bucket off", "../direct.go",
		"yield(off+j, uint64(c))", "yield(off+j+1, uint64(c))"},
	{"a delta Produce places a taken bucket in the cumulative counts alone", "series.go",
		"p.delta.place(k, n, &p.layout, p.cur.pl)", ""},
	{"a delta Produce keeps the previous Interval's buckets", "series.go",
		"\tif b.histDelta {\n\t\tp.delta.reset(&p.layout)\n\t}", ""},
	{"a bucket is placed at the wrong rate", "buckets.go",
		"export.Seconds(export.Middle(b), r)", "export.Seconds(export.Middle(b), r)*2"},
	{"a sum that counts no span has a point", "series.go",
		"if n := s.Negative(); n > 0 {", "if n := s.Negative(); n >= 0 {"},
	{"a sum's points start at the histogram's first", "producer.go",
		"DataPoints: b.migs[migFrom:to:to]", "DataPoints: b.migs[from:to:to]"},
	{"the negative sum's points start at the histogram's first", "producer.go",
		"DataPoints: b.negs[negFrom:to:to]", "DataPoints: b.negs[from:to:to]"},
	{"a sum without a point is exported", "producer.go",
		"if to := len(b.negs); to > negFrom {", "if to := len(b.negs); to >= negFrom {"},
	{"a point's counts overlap the next's", "series.go",
		"r.free = r.free[n:]", "r.free = r.free[n-1:]"},
	{"a point's counts have room past them", "series.go",
		"c := r.free[:n:n]", "c := r.free[:n]"},
	{"each point's counts are a block", "series.go",
		"if n > len(r.free) {", "if n > 0 {"},
	{"the blocks do not grow", "series.go",
		"r.last = max(n, min(2*r.last, maxBlock))", "r.last = max(n, min(r.last, maxBlock))"},
	{"a family's new series starts at the Produce that sees it", "family.go",
		"p.newSeries(fr.seriesAttrs(values), fr.last)", "p.newSeries(fr.seriesAttrs(values), p.fam.now)"},
	{"a family's later series start at its registration", "family.go",
		"r.fam.last = p.fam.now\n", "\n"},
	{"a family's taken buckets go to the series before", "family.go",
		"\tp.begin(&p.out, sr, r.rate)\n", "\tif p.cur.sr == nil {\n\t\tp.begin(&p.out, sr, r.rate)\n\t}\n\tp.cur.sr = sr\n"},
	{"the overflow point is not marked", "family.go",
		"p.newSeries(fr.overflowAttrs(), fr.last)", "p.newSeries(fr.attrs, fr.last)"},
	{"each label's attribute has another label's key", "family.go",
		"attribute.String(fr.labels[i], v)", "attribute.String(fr.labels[len(values)-1-i], v)"},
	{"a registration's value of any type may be a series'", "family.go",
		"kv.Value.Type() != attribute.STRING || ", ""},
	{"a family's attribute of any type may be another's series'", "family.go",
		"if v.Type() != attribute.STRING {", "if v.Type() == attribute.EMPTY {"},
}

// TestMutations builds the package with each mutation, through go test's
// -overlay, and runs the tests of the points on it: each must fail, and
// the package as it is must pass. It builds the package once a mutation,
// so it runs only where COUNTER_MUTATE is set, as for internal/handover.
func TestMutations(t *testing.T) {
	if os.Getenv("COUNTER_MUTATE") == "" {
		t.Skip("set COUNTER_MUTATE=1 to run the tests on every mutation of buckets.go, series.go, family.go and producer.go")
	}
	dir := t.TempDir()
	run := func(replace map[string]string) (string, bool) {
		overlay, err := json.Marshal(map[string]map[string]string{"Replace": replace})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "overlay.json")
		if err := os.WriteFile(path, overlay, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "test", "-count=1", "-overlay", path,
			"-run", "^(TestLimits|TestAgainstSDK|TestTemporality|TestTemporalitySwitch|TestDefaultLimits|TestNothingRecorded|TestFamily|TestFamilyErrors|TestNewOutput|TestNegativeAndMigrated|TestSeveralRegistrations|TestRoom|TestFamilyProduceAllocations)$", ".")
		cmd.Env = append(os.Environ(), "COUNTER_MUTATE=")
		out, err := cmd.CombinedOutput()
		return string(out), err == nil
	}
	if out, ok := run(map[string]string{}); !ok {
		t.Fatalf("the package as it is fails:\n%s", out)
	}
	for i, m := range mutations {
		if strings.HasSuffix(m.file, "_amd64.s") && runtime.GOARCH != "amd64" {
			continue // not built here
		}
		src, err := os.ReadFile(m.file)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), m.old); n != 1 {
			t.Errorf("%s: %q is in %s %d times, want once", m.name, m.old, m.file, n)
			continue
		}
		abs, err := filepath.Abs(m.file)
		if err != nil {
			t.Fatal(err)
		}
		mutated := filepath.Join(dir, strings.Repeat("m", i+1)+".go")
		if err := os.WriteFile(mutated, []byte(strings.Replace(string(src), m.old, m.new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, passed := run(map[string]string{abs: mutated})
		failed := regexp.MustCompile(`--- FAIL: (\w+)`).FindStringSubmatch(out)
		switch {
		case passed:
			t.Errorf("%-55s passed; want a failure", m.name)
		case failed == nil && strings.Contains(out, "panic: "):
			t.Logf("%-55s caught by a panic", m.name)
		case failed == nil:
			t.Errorf("%-55s does not build:\n%s", m.name, out)
		default:
			t.Logf("%-55s caught by %s", m.name, failed[1])
		}
	}
}
