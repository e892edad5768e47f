package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/tickstamp/counter"
)

// Exit statuses.
const (
	exitUsable  = 0 // discovery found a rate
	exitRefused = 1 // discovery refused the counter
	exitUsage   = 2 // the command line was wrong
	exitWrite   = 3 // the report, or the usage -h asked for, could not be written
	exitWatch   = 4 // -watch saw an event that made the counter untrusted
)

// A discoverFunc finds the counter's rate: counter.DiscoverDetails, or a
// stand-in in tests.
type discoverFunc func() (counter.Counter, counter.Discovery, error)

// A format is how counterinfo prints what it finds.
type format int

const (
	formatTable     format = iota // the table, and -watch's lines of text
	formatJSON                    // -json: one JSON document, the report, indented
	formatJSONLines               // -json -watch: JSON Lines, one compact object a line
)

// The kinds of object -json -watch prints, a line each, in their "kind"
// field: the report first, then an event a line as the watch raises them,
// then the watch's summary last. The document -json prints without -watch
// is the report, and says so too.
const (
	kindReport  = "report"
	kindEvent   = "event"
	kindSummary = "summary"
)

// options are the command line's settings.
type options struct {
	json      bool
	window    time.Duration // drift window
	crossCore time.Duration // budget of the cross-core check; 0 skips it
	watch     time.Duration // how long -watch runs the watch live; 0 for not at all
	period    time.Duration // the live watch's period
	discover  discoverFunc
}

// format returns the format o asks for.
func (o options) format() format {
	switch {
	case !o.json:
		return formatTable
	case o.watch > 0:
		return formatJSONLines
	}
	return formatJSON
}

// run is the command: it parses args, inspects the machine, prints the
// report to stdout and problems with the command line to stderr, and returns
// the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return runWith(counter.DiscoverDetails, args, stdout, stderr)
}

// runWith is run with discover in place of counter.DiscoverDetails.
func runWith(discover discoverFunc, args []string, stdout, stderr io.Writer) int {
	opts, status, ok := parseArgs(args, stdout, stderr)
	if !ok {
		return status
	}
	opts.discover = discover
	r, c, disc := inspect(opts)
	if err := writeReport(stdout, r, opts.format()); err != nil {
		fmt.Fprintf(stderr, "counterinfo: the report could not be written: %v\n", err)
		return exitWrite
	}
	if !r.Usable {
		if opts.watch > 0 {
			fmt.Fprintln(stderr, "counterinfo: -watch: not run: discovery refused the counter")
		}
		return exitRefused
	}
	if opts.watch > 0 {
		if !isTerminal(stdout) {
			// Into a pipe or a file the watch prints nothing until an
			// event or its end: say on stderr that it is at work.
			fmt.Fprintf(stderr, "counterinfo: watching the counter for %v, a check every %v: each event prints as it happens, the refined rate at the end\n", opts.watch, opts.period)
		}
		untrusted, notRun, err := watchLive(stdout, c, disc, opts.watch, opts.period, opts.json)
		if err != nil {
			fmt.Fprintf(stderr, "counterinfo: -watch: the watch's output could not be written: %v\n", err)
			return exitWrite
		}
		if notRun != nil {
			// The report stands, and no event was seen: say why there
			// was no watch, and keep the report's status.
			fmt.Fprintf(stderr, "counterinfo: -watch: not run: %v\n", notRun)
			return exitUsable
		}
		if untrusted {
			return exitWatch
		}
	}
	return exitUsable
}

// writeReport prints r to out in format f: the table, one indented JSON
// document, or one compact JSON object on a line of its own (the first of
// -json -watch's JSON Lines). It returns the error of the write: a report
// nobody received must not end in a status that says all is well.
func writeReport(out io.Writer, r report, f format) error {
	switch f {
	case formatJSON:
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case formatJSONLines:
		// Encode writes the object and a newline in one write, and escapes
		// any newline within a string: the object is one line.
		return json.NewEncoder(out).Encode(r)
	}
	return writeTable(out, r)
}

// parseArgs parses the command line. Where it returns ok false, the command
// stops with status: 0 after -h, 2 after a usage error.
func parseArgs(args []string, stdout, stderr io.Writer) (opts options, status int, ok bool) {
	fs := newFlagSet(&opts)
	fs.SetOutput(stderr)
	// The flag package prints the usage on -h and after an error alike;
	// gather it, to print it on stdout for -h and on stderr otherwise.
	var usage bytes.Buffer
	fs.Usage = func() {
		out := fs.Output()
		defer fs.SetOutput(out)
		fs.SetOutput(&usage)
		fmt.Fprint(&usage, usageText)
		fs.PrintDefaults()
	}
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if _, err := stdout.Write(usage.Bytes()); err != nil {
			fmt.Fprintf(stderr, "counterinfo: the usage could not be written: %v\n", err)
			return opts, exitWrite, false
		}
		return opts, exitUsable, false
	case err != nil:
		// The flag package has printed the error on stderr already.
		stderr.Write(usage.Bytes())
		return opts, exitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "counterinfo: unexpected argument %q: the command takes only flags\n", fs.Arg(0))
		fs.Usage()
		stderr.Write(usage.Bytes())
		return opts, exitUsage, false
	}
	periodSet := false
	fs.Visit(func(f *flag.Flag) { periodSet = periodSet || f.Name == "period" })
	if msg := checkOptions(opts, periodSet); msg != "" {
		fmt.Fprintf(stderr, "counterinfo: %s\n", msg)
		return opts, exitUsage, false
	}
	return opts, 0, true
}

// checkOptions returns what in o cannot be honoured, as a message that
// names the flag and the least (or most) value it takes, or "" where o can
// be: a -window too short for the drift (leastWindow), a negative
// -crosscore or -watch, a -watch shorter than the watch's least period, a
// -period given without -watch (periodSet says whether it was given), and a
// -period the watch refuses or longer than -watch, given or by default. It
// measures nothing: the command checks its flags before any work.
func checkOptions(o options, periodSet bool) string {
	switch {
	case o.window < leastWindow:
		return fmt.Sprintf("-window %v: too short to measure the drift: the window must be at least %v, three of the watch's checks at its least period of %v", o.window, leastWindow, leastWatchPeriod)
	case o.crossCore < 0:
		return fmt.Sprintf("-crosscore %v: the time must be at least 0 (0 skips the check)", o.crossCore)
	case o.watch < 0:
		return fmt.Sprintf("-watch %v: the time must be at least 0 (0 does not watch)", o.watch)
	case o.watch == 0 && periodSet:
		return fmt.Sprintf("-period %v without -watch: -period is how often -watch checks: give -watch a time of at least the period (-watch %v)", o.period, o.period)
	case o.watch == 0:
		return ""
	case o.watch < leastWatchPeriod:
		return fmt.Sprintf("-watch %v: too short to watch: the time must be at least %v, the watch's least period (0 does not watch)", o.watch, leastWatchPeriod)
	}
	if err := checkWatchPeriod(o.period); err != nil {
		return fmt.Sprintf("-period %v: %v", o.period, err)
	}
	switch {
	case o.period < leastWatchPeriod:
		// This system has no watch to refuse it; -watch will say so.
		return fmt.Sprintf("-period %v: the period must be at least %v", o.period, leastWatchPeriod)
	case o.period > o.watch && periodSet:
		return fmt.Sprintf("-period %v: longer than -watch %v: the period must be at most the time watched (-period %v), or -watch at least the period (-watch %v)", o.period, o.watch, o.watch, o.period)
	case o.period > o.watch:
		return fmt.Sprintf("-watch %v: shorter than -period's default of %v: the time must be at least the period (-watch %v), or give a -period of %v to %v", o.watch, o.period, o.period, leastWatchPeriod, o.watch)
	}
	return ""
}

// newFlagSet returns the command's flags, set to fill opts.
func newFlagSet(opts *options) *flag.FlagSet {
	fs := flag.NewFlagSet("counterinfo", flag.ContinueOnError)
	fs.BoolVar(&opts.json, "json", false,
		"print JSON instead of the table: one document, the report; with -watch, JSON Lines, the report, the events and the summary a line each")
	fs.DurationVar(&opts.window, "window", 300*time.Millisecond,
		fmt.Sprintf("how long to compare the counter with the raw monotonic clock, to report its drift in ppm; at least %v", leastWindow))
	fs.DurationVar(&opts.crossCore, "crosscore", 200*time.Millisecond,
		"time to spend handing readings between CPUs (Linux), shared by every CPU pair; 0 skips the check")
	fs.DurationVar(&opts.watch, "watch", 0,
		"after the report, watch the counter live for this long (counter.Watch), printing each event, then the refined rate; at least -period; 0 does not watch")
	fs.DurationVar(&opts.period, "period", time.Second,
		fmt.Sprintf("the period of -watch's checks, from %v to -watch's time; only with -watch", leastWatchPeriod))
	return fs
}

// usageText opens the usage, before the flags' defaults.
const usageText = `Usage: counterinfo [-json] [-window d] [-crosscore d] [-watch d [-period d]]

counterinfo tells whether this machine's free-running counter (the TSC on
amd64, CNTVCT_EL0 on arm64) can be trusted for timing: the rate discovery
finds and where it came from, or why it refused; the platform facts behind
that; the counter's drift against the raw monotonic clock; the cost of each
read next to time.Now, and of the raw clock by the path the brackets take
(vdso or system call; bracket_read, bracket_read_ns); the counter's
resolution, its own increment (resolution_ticks, resolution_ns), beside the
least gap between two back-to-back reads (step_ticks, step_ns), about a
read's cost where reads are slower than the counter; the read floor, the
p50, p99 and max of empty Now->Now and Begin->End spans read back to back
(counter.Floor; in JSON floor_now_ticks, floor_now_ns,
floor_begin_end_ticks and floor_begin_end_ns), a max far above the p99
being an interrupt or a preemption; and, on Linux, whether readings handed
between CPUs ever go backwards, and how far each CPU's counter is from the
others'. With -watch it then keeps checking the counter as a service would
(counter.Watch), printing each event as it happens, and at the end the
refined rate.

Output: a table, and with -watch a line of text an event and the refined
rate. With -json, one JSON document, the report. With -json and -watch,
JSON Lines: one compact JSON object a line, each with a "kind" that says
what it is: the report first ("report", the document's fields), then an
event a line ("event"), and the watch's summary last ("summary":
refined_rate_hz, refined_uncertainty_ppm, state, ...). Where discovery
refuses the counter or the watch cannot run, the report is the only line.

Exit status: 0 when the counter is usable, 1 when discovery refused it, 2
on a usage error (before any measurement), 3 when the report could not be
written, 4 when -watch saw an event that made the counter untrusted. -h
prints this on standard output and exits 0.

Flags:
`
