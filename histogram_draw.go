package counter

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// Draw writes a text picture of the distribution to w, its spans converted
// at rate r: first the [Summary], its count and spans apart on one line,
// its figures on the next, and its max trace on a third where it has one,
// then a row for each step of time from the row of
// the least span to that of the largest. The rows' bounds are 1, 2 and 5
// times each power of ten nanoseconds; each row gives its bounds, its
// count, a bar as long as its share of the fullest row (in eighths of a
// character), and the percentiles (p50, p90, p99, p99.9) and the maximum
// that fall in it. No line is wider than 80 columns; testdata/draw holds
// pictures of a few distributions.
//
// A span counts in the row of its bucket's middle, the value Quantile
// gives for it, so a row's count is exact but for spans within
// [QuantileError] of its bounds. Where the Snapshot holds no span in the
// distribution, Draw writes the Summary's line alone. It returns w's first
// error; and, writing nothing, an error for the zero TickRate, which would
// draw every span at 0 (see [Snapshot.Summary]), a nil Snapshot or a nil w.
func (s *Snapshot) Draw(w io.Writer, r TickRate) error {
	switch {
	case s == nil || r.t == nil:
		return refuseSummary("Draw", s, r)
	case w == nil:
		return errors.New("counter: Snapshot.Draw to a nil io.Writer: pass the writer to draw on")
	}
	var b strings.Builder
	m := s.Summary(r)
	if m.Count == 0 {
		b.WriteString(m.String())
		b.WriteByte('\n')
	} else {
		// The Summary's line, on two lines of at most 80 columns: the
		// count and the spans apart, then the figures.
		b.Write(appendApart(appendCount(nil, m.Count), m.Negative, m.Migrated))
		b.WriteByte('\n')
		b.Write(m.appendFigures(nil))
		b.WriteByte('\n')
		if t := m.appendTrace(nil, ""); len(t) > 0 {
			b.Write(t)
			b.WriteByte('\n')
		}
		drawRows(&b, s, r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// The widths of a row of Draw: the bounds, the count, the bar; the marks
// take at most len("p50 p90 p99 p99.9 max") after.
const (
	widthBounds = 17
	widthCount  = 9
	widthBar    = 30
)

// A drawRow is one row of Draw: the spans from lo up to, not including, hi.
type drawRow struct {
	lo, hi time.Duration
	count  uint64
	marks  []string
}

// drawRows writes the rows of Draw for the non-empty s.
func drawRows(b *strings.Builder, s *Snapshot, r TickRate) {
	rows := drawRowsFor(s.Min().Duration(r), s.Max().Duration(r))
	at := func(d time.Duration) *drawRow {
		for i := range rows {
			if d < rows[i].hi {
				return &rows[i]
			}
		}
		return &rows[len(rows)-1]
	}
	for bk := range s.Buckets() {
		mid := bk.Min + (bk.Max-bk.Min+1)/2
		mid = min(max(mid, s.Min()), s.Max())
		at(mid.Duration(r)).count += bk.Count
	}
	for _, m := range [...]struct {
		name string
		d    Tickdelta
	}{{"p50", s.Quantile(0.5)}, {"p90", s.Quantile(0.9)}, {"p99", s.Quantile(0.99)}, {"p99.9", s.Quantile(0.999)}, {"max", s.Max()}} {
		row := at(m.d.Duration(r))
		row.marks = append(row.marks, m.name)
	}
	var most uint64
	for _, row := range rows {
		most = max(most, row.count)
	}
	for _, row := range rows {
		bounds := shortDuration(row.lo) + " – " + shortDuration(row.hi)
		b.WriteString(strings.Repeat(" ", max(widthBounds-len([]rune(bounds)), 0)))
		b.WriteString(bounds)
		count := strconv.FormatUint(row.count, 10)
		b.WriteString(strings.Repeat(" ", max(widthCount+1-len(count), 1)))
		b.WriteString(count)
		bar := drawBarOf(row.count, most)
		if bar != "" || len(row.marks) != 0 {
			b.WriteByte(' ')
			b.WriteString(bar)
		}
		if len(row.marks) != 0 {
			b.WriteString(strings.Repeat(" ", widthBar-len([]rune(bar))+1))
			b.WriteString(strings.Join(row.marks, " "))
		}
		b.WriteByte('\n')
	}
}

// eighths are the block characters of a bar's last cell, from one eighth
// of a cell to seven.
var eighths = [...]string{"▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// drawBarOf returns the bar of a row of count spans where the fullest row
// has most: drawBar cells for most, in eighths of a cell, and at least an
// eighth for any count above 0.
func drawBarOf(count, most uint64) string {
	if count == 0 || most == 0 {
		return ""
	}
	e := (count*widthBar*8 + most/2) / most // eighths, rounded
	e = max(e, 1)
	bar := strings.Repeat("█", int(e/8))
	if e%8 != 0 {
		bar += eighths[e%8-1]
	}
	return bar
}

// drawSteps are the upper bounds of Draw's rows: 1, 2 and 5 times each
// power of ten nanoseconds, from one nanosecond to 5·10¹⁸; a last row
// holds what is above.
var drawSteps = func() (b []time.Duration) {
	for p := time.Duration(1); ; p *= 10 {
		b = append(b, p, 2*p, 5*p)
		if p == 1e18 {
			return b
		}
	}
}()

// drawRowsFor returns the rows of Draw from the one that holds lo to the
// one that holds hi.
func drawRowsFor(lo, hi time.Duration) []drawRow {
	rowOf := func(d time.Duration) int {
		for k, b := range drawSteps {
			if d < b {
				return k
			}
		}
		return len(drawSteps)
	}
	var rows []drawRow
	for k := rowOf(lo); k <= rowOf(hi); k++ {
		row := drawRow{hi: math.MaxInt64}
		if k > 0 {
			row.lo = drawSteps[k-1]
		}
		if k < len(drawSteps) {
			row.hi = drawSteps[k]
		}
		rows = append(rows, row)
	}
	return rows
}
