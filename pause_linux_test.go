package counter_test

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tickstamp/counter"
	"github.com/tickstamp/counter/internal/race"
)

// pauseChildEnv marks the re-executed test binary as TestDiscoverThroughAPause's
// child.
const pauseChildEnv = "COUNTER_PAUSE_CHILD"

// TestPauseHelperProcess is TestDiscoverThroughAPause's child: for each line
// it reads, it prints "start", discovers, and prints "ok HZ SPREAD_PPM" or
// "refused MESSAGE".
func TestPauseHelperProcess(t *testing.T) {
	if os.Getenv(pauseChildEnv) != "1" {
		t.Skip("the child of TestDiscoverThroughAPause")
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		fmt.Println("start")
		_, d, err := counter.DiscoverDetails()
		if err != nil {
			fmt.Println("refused", strings.ReplaceAll(err.Error(), "\n", " "))
			continue
		}
		spread := 0.0
		if d.Source == counter.SourceMeasured {
			spread = d.SpreadPPM
		}
		fmt.Println("ok", d.Rate.Hertz(), spread)
	}
}

// TestDiscoverThroughAPause stops a child process with SIGSTOP while it
// discovers, for 0.1 to 5 s, and continues it with SIGCONT: each discovery
// gives a rate as good as an undisturbed one, or refuses with a true
// message; never "the raw clock did not advance", which a stopped process
// used to say. COUNTER_PAUSES sets how many stops (CI runs 30; by default
// 2, each 0.1 s).
func TestDiscoverThroughAPause(t *testing.T) {
	if os.Getenv(pauseChildEnv) == "1" {
		t.Skip("already the child")
	}
	if race.Enabled {
		t.Skip("the race detector slows the child's 10 ms measurement past what a pause test can judge")
	}
	c, ref, err := counter.DiscoverDetails()
	if err != nil {
		t.Skipf("discovery refuses here: %v", err)
	}
	_ = c
	if ref.Source != counter.SourceMeasured {
		t.Skipf("the rate comes from %v here, not a measurement a pause could spoil", ref.Source)
	}
	pauses, longest := 2, 100*time.Millisecond
	if v := os.Getenv("COUNTER_PAUSES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("COUNTER_PAUSES=%q: want a count", v)
		}
		pauses, longest = n, 5*time.Second
	}

	args := []string{os.Args[0], "-test.run=^TestPauseHelperProcess$", "-test.count=1"}
	if wrapper := os.Getenv("COUNTER_TEST_EXEC"); wrapper != "" {
		args = append(strings.Fields(wrapper), args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), pauseChildEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	next := func() string {
		for lines.Scan() {
			if l := lines.Text(); l == "start" || strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "refused ") {
				return l
			}
		}
		t.Fatalf("the child ended: %v", lines.Err())
		return ""
	}
	// The rate and spread of an undisturbed discovery in the child, the
	// reference the paused ones are judged by, with this process's.
	discover := func(pause time.Duration) string {
		fmt.Fprintln(stdin, "discover")
		if l := next(); l != "start" {
			t.Fatalf("the child said %q; want start", l)
		}
		if pause > 0 {
			// Discovery measures for about 10 ms after a little set-up:
			// stop the child somewhere in that.
			time.Sleep(time.Duration(rand.Int64N(int64(12 * time.Millisecond))))
			if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			time.Sleep(pause)
			if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
		}
		return next()
	}
	refHz := float64(ref.Rate.Hertz())
	spreadRef := ref.SpreadPPM
	if l := discover(0); strings.HasPrefix(l, "ok ") {
		t.Logf("undisturbed in the child: %s (this process: %d Hz, spread %.3f ppm)", l, ref.Rate.Hertz(), spreadRef)
	}

	var good, refused int
	var worst float64
	for i := range pauses {
		pause := 100*time.Millisecond + time.Duration(rand.Int64N(int64(longest-100*time.Millisecond)+1))
		l := discover(pause)
		if rest, ok := strings.CutPrefix(l, "refused "); ok {
			refused++
			t.Logf("stop %d, %v: refused: %s", i, pause, rest)
			if strings.Contains(rest, "did not advance") {
				t.Errorf("stopped for %v, the child refused falsely: %s", pause, rest)
			}
			continue
		}
		var hz uint64
		var spread float64
		if _, err := fmt.Sscanf(l, "ok %d %g", &hz, &spread); err != nil {
			t.Fatalf("the child said %q: %v", l, err)
		}
		ppm := (float64(hz) - refHz) / refHz * 1e6
		worst = max(worst, math.Abs(ppm))
		// As good as an undisturbed discovery: within what the two
		// measurements' spreads allow, and never by more than a few ppm,
		// which a window cut short by the stop and fitted as it was would
		// exceed.
		if bound := 2 + 4*(spread+spreadRef); math.Abs(ppm) > bound {
			t.Errorf("stop %d, %v: %d Hz, %+.3f ppm from this process's rate; want within %.2f ppm", i, pause, hz, ppm, bound)
			continue
		}
		good++
	}
	t.Logf("%d stops of 0.1 to %v: %d rates as good as undisturbed ones (worst %.3f ppm), %d refusals", pauses, longest, good, worst, refused)
	if refused > pauses/10 {
		t.Errorf("%d of %d paused discoveries refused; want at most a tenth", refused, pauses)
	}
}
