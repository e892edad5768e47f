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

// options are the command line's settings.
type options struct {
	json      bool
	window    time.Duration // drift window
	crossCore time.Duration // budget of the cross-core check; 0 skips it
	watch     time.Duration // how long -watch runs the watch live; 0 for not at all
	period    time.Duration // the live watch's period
	discover  discoverFunc
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
	r, c := inspect(opts)
	if err := writeReport(stdout, r, opts.json); err != nil {
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
		untrusted, notRun, err := watchLive(stdout, c, opts.watch, opts.period, opts.json)
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

// writeReport prints r to out, as one JSON object where asJSON is set and as
// the table otherwise, and returns the error of the write: a report nobody
// received must not end in a status that says all is well.
func writeReport(out io.Writer, r report, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
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
	if opts.window <= 0 {
		fmt.Fprintf(stderr, "counterinfo: -window %v: the window must be longer than zero\n", opts.window)
		return opts, exitUsage, false
	}
	if opts.watch < 0 {
		fmt.Fprintf(stderr, "counterinfo: -watch %v: the time must not be negative (0 does not watch)\n", opts.watch)
		return opts, exitUsage, false
	}
	if err := checkWatchPeriod(opts.period); err != nil {
		fmt.Fprintf(stderr, "counterinfo: -period %v: %v\n", opts.period, err)
		return opts, exitUsage, false
	}
	if opts.crossCore < 0 {
		fmt.Fprintf(stderr, "counterinfo: -crosscore %v: the time must not be negative (0 skips the check)\n", opts.crossCore)
		return opts, exitUsage, false
	}
	return opts, 0, true
}

// newFlagSet returns the command's flags, set to fill opts.
func newFlagSet(opts *options) *flag.FlagSet {
	fs := flag.NewFlagSet("counterinfo", flag.ContinueOnError)
	fs.BoolVar(&opts.json, "json", false, "print one JSON object instead of the table")
	fs.DurationVar(&opts.window, "window", 300*time.Millisecond,
		"how long to compare the counter with the raw monotonic clock, to report its drift in ppm")
	fs.DurationVar(&opts.crossCore, "crosscore", 200*time.Millisecond,
		"time to spend handing readings between CPUs (Linux), shared by every CPU pair; 0 skips the check")
	fs.DurationVar(&opts.watch, "watch", 0,
		"after the report, watch the counter live for this long (counter.Watch), printing each event, then the refined rate; 0 does not watch")
	fs.DurationVar(&opts.period, "period", time.Second, "the period of -watch's checks")
	return fs
}

// usageText opens the usage, before the flags' defaults.
const usageText = `Usage: counterinfo [-json] [-window d] [-crosscore d] [-watch d [-period d]]

counterinfo tells whether this machine's free-running counter (the TSC on
amd64, CNTVCT_EL0 on arm64) can be trusted for timing: the rate discovery
finds and where it came from, or why it refused; the platform facts behind
that; the counter's drift against the raw monotonic clock; the cost of each
read next to time.Now, and of the brackets' read of the raw clock (vdso or
system call; bracket_read, bracket_read_ns); the smallest step between
reads; the read floor, the
p50, p99 and max of empty Now->Now and Begin->End spans read back to back
(counter.Floor; in JSON floor_now_ticks, floor_now_ns, floor_begin_end_ticks
and floor_begin_end_ns); and, on Linux, whether readings handed between CPUs
ever go backwards, and how far each CPU's counter is from the others'.
With -watch it then keeps checking the counter as a service would
(counter.Watch), printing each event as it happens, a line each (a JSON
object a line with -json), and at the end the refined rate
(refined_rate_hz, refined_uncertainty_ppm).

Exit status: 0 when the counter is usable, 1 when discovery refused it,
2 on a usage error, 3 when the report could not be written, 4 when -watch
saw an event that made the counter untrusted. -h prints
this on standard output and exits 0.

Flags:
`
