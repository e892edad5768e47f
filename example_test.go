package counter_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"time"

	"github.com/tickstamp/counter"
)

// A service discovers the counter once, stamps its hot path with Now, and
// converts the spans later, off the hot path; where discovery refuses, the
// same code runs on the monotonic clock. This is the README's first
// snippet; TestExamplesLog runs it and checks what it logs.
func Example() {
	msg := "a request"
	c, err := counter.Discover() // once, at start-up
	if err != nil {
		c = counter.Monotonic() // the runtime's monotonic clock, same type
	}

	start := c.Now() // the hot path: one ordered counter read, no system call
	handle(msg)
	span := c.Now().Sub(start) // a Tickdelta: store it, send it

	// Later, on a logger goroutine:
	log.Printf("handled in %v", span.Duration(c.Rate()))
}

func handle(string) { work() }

// Apple silicon's counter runs at 24 MHz: 24 ticks are a microsecond, and a
// second is 24,000,000 ticks.
func ExampleTickdelta_Duration() {
	rate, err := counter.NewTickRate(24_000_000)
	if err != nil {
		panic(err)
	}
	start, end := counter.Tickstamp(1_000_000), counter.Tickstamp(1_000_024)
	ticks := end.Sub(start)
	fmt.Println(ticks, "at", rate, "is", ticks.Duration(rate))
	fmt.Println(time.Second, "at", rate, "is", rate.Ticks(time.Second))
	// Output:
	// 24 ticks at 24 MHz is 1µs
	// 1s at 24 MHz is 24000000 ticks
}

// At 3 GHz a nanosecond is three ticks: an exact multiple converts exactly,
// and any other count lands within a nanosecond of its exact value.
func ExampleTickRate_Ticks() {
	rate, _ := counter.NewTickRate(3_000_000_000)
	fmt.Println(counter.Tickdelta(3000).Duration(rate))
	fmt.Println(counter.Tickdelta(1000).Duration(rate)) // 333.33 ns, to 333 or 334
	fmt.Println(rate.Ticks(time.Microsecond))
	// Output:
	// 1µs
	// 333ns
	// 3000 ticks
}

// A span past what a time.Duration holds saturates to its end.
func ExampleTickdelta_Duration_saturates() {
	slow, _ := counter.NewTickRate(1)
	fmt.Println(counter.Tickdelta(math.MaxInt64).Duration(slow) == time.Duration(math.MaxInt64))
	fmt.Println(counter.Tickdelta(math.MinInt64).Duration(slow) == time.Duration(math.MinInt64))
	// Output:
	// true
	// true
}

// A counter that never ticks has no rate.
func ExampleNewTickRate() {
	_, err := counter.NewTickRate(0)
	fmt.Println(err)
	rate, _ := counter.NewTickRate(2_299_999_917)
	fmt.Println(rate)
	// Output:
	// counter: a rate of 0 Hz is no rate
	// 2.299999917 GHz
}

func ExampleParseTickRate() {
	for _, s := range []string{"2.3GHz", "24 MHz", "1000000000 Hz", "62500 kHz", "1.5 Hz"} {
		rate, err := counter.ParseTickRate(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-14q %v (%d Hz)\n", s, rate, rate.Hertz())
	}
	// Output:
	// "2.3GHz"       2.3 GHz (2300000000 Hz)
	// "24 MHz"       24 MHz (24000000 Hz)
	// "1000000000 Hz" 1 GHz (1000000000 Hz)
	// "62500 kHz"    62.5 MHz (62500000 Hz)
	// counter: invalid tick rate "1.5 Hz": not a whole number of hertz
}

// A rate sits in a config as text, and a reading as a plain integer; both
// come back exactly.
func ExampleTickRate_MarshalText() {
	type config struct {
		Rate  counter.TickRate  `json:"rate"`
		Epoch counter.Tickstamp `json:"epoch"`
	}
	rate, _ := counter.NewTickRate(2_300_000_000)
	b, _ := json.Marshal(config{Rate: rate, Epoch: 123456789})
	fmt.Println(string(b))

	var c config
	if err := json.Unmarshal([]byte(`{"rate": "19.2 MHz", "epoch": 42}`), &c); err != nil {
		panic(err)
	}
	fmt.Println(c.Rate, c.Epoch)
	// Output:
	// {"rate":"2.3 GHz","epoch":123456789}
	// 19.2 MHz 42 ticks
}

// A rate is a command-line flag through flag.TextVar.
func ExampleTickRate_UnmarshalText() {
	fs := flag.NewFlagSet("service", flag.ContinueOnError)
	var rate counter.TickRate
	fs.TextVar(&rate, "rate", counter.TickRate{}, "the counter's rate, where discovery cannot find it")
	if err := fs.Parse([]string{"-rate", "24MHz"}); err != nil {
		panic(err)
	}
	fmt.Println(rate, rate.Hertz())
	// Output: 24 MHz 24000000
}
