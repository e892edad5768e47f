package counter_test

import (
	"bytes"
	"log"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
)

// TestExamplesLog runs the examples that log what they find, whose figures
// no Output comment can fix, and checks every line they log against the
// form the example promises: a snippet of the README that logs nothing, or
// logs a wrong unit, fails here.
func TestExamplesLog(t *testing.T) {
	dur := `-?[0-9.]+(ns|µs|ms|s)`
	for _, tc := range []struct {
		name  string
		run   func()
		lines []string // a pattern for each line logged, in order; the last repeats
	}{
		{"Example", Example, []string{`^handled in ` + dur + `$`}},
		{"ExampleHistogram", func() { synctest.Test(t, func(*testing.T) { ExampleHistogram() }) },
			// Each second: the Summary's line, then Draw's two lines of it
			// and its rows.
			[]string{`^([0-9]+ spans(: mean ` + dur + `, p50 ` + dur + `, p90 ` + dur + `, p99 ` + dur + `, p99\.9 ` + dur + `, max ` + dur + `)?` +
				`|mean ` + dur + `, p50 ` + dur + `, p90 ` + dur + `, p99 ` + dur + `, p99\.9 ` + dur + `, max ` + dur +
				`| *` + dur + ` – ` + dur + ` +[0-9]+( [█▏▎▍▌▋▊▉]+)?( +(p50|p90|p99|p99\.9|max)( (p90|p99|p99\.9|max))*)?)$`}},
		{"ExampleCounter_Floor", ExampleCounter_Floor,
			[]string{`^fmt.Sprint: p50 ` + dur + `, p99 ` + dur + `, with the reads' own ` + dur + ` taken off$`}},
		{"ExampleDiscoverDetails", ExampleDiscoverDetails, []string{
			`^counter (at [0-9.]+ [kMG]?Hz from [a-z0-9-]+, found in ` + dur + `|refused after ` + dur + `: counter: .+)$`,
			`^last measurement over ` + dur + `: spread [0-9.]+ ppm, -?[0-9.]+ ppm from the reported rate$`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			flags, out := log.Flags(), log.Writer()
			log.SetFlags(0)
			log.SetOutput(&buf)
			defer func() { log.SetFlags(flags); log.SetOutput(out) }()
			tc.run()
			got := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
			if buf.Len() == 0 {
				t.Fatal("logged nothing")
			}
			for i, line := range got {
				p := tc.lines[min(i, len(tc.lines)-1)]
				if !regexp.MustCompile(p).MatchString(line) {
					t.Errorf("line %d %q; want it to match %s", i+1, line, p)
				}
			}
		})
	}
}
