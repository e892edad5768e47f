// Package counter reads the processor's free-running counter, the
// time-stamp counter on amd64 and the generic timer's virtual count on
// arm64, and turns spans of its ticks into time.
//
// A service discovers the counter once at start-up, stamps its hot paths with
// raw readings that cost one instruction, and converts the spans between
// them to [time.Duration] later, off the hot path.
//
// # Readings, spans and rates
//
// A [Tickstamp] is one reading, in ticks. Its origin is whatever the hardware
// or the hypervisor chose, so a reading by itself means nothing: only the
// difference of two readings, a [Tickdelta], is a span, and only a span
// converts to time. Readings are unsigned and wrap modulo 2⁶⁴;
// [Tickstamp.Sub] reads their wrapping difference as signed, so a reading a
// few ticks behind another gives a small negative span.
//
// A [TickRate] is the counter's rate in hertz. [Tickdelta.Duration] turns a
// span into nanoseconds and [TickRate.Ticks] turns a duration into ticks.
// Each conversion is a 128-bit multiply and a shift by a factor the rate
// worked out once, with no division: the result is the exact quotient when
// that is a whole number, and otherwise the whole number just below or just
// above it, never further off. A result past the int64 range saturates to
// its nearest end, as [time.Duration] arithmetic does in the standard
// library's Add and Sub methods. These promises hold for every count and every rate
// from 1 Hz to 2⁶⁴−1 Hz, and a property test checks them against math/big.
//
// The zero TickRate is no rate: it converts everything to zero.
//
// # Spelling
//
// Readings and spans print as "1000 ticks" and rates as the largest unit
// that leaves a whole part, exactly: "24 MHz", "62.5 MHz", "2.299999917 GHz".
// [ParseTickstamp], [ParseTickdelta] and [ParseTickRate] read those forms
// back to the same value, and all three types implement
// [encoding.TextMarshaler] and [encoding.TextUnmarshaler], so they sit in
// JSON, YAML and TOML configs and cross process boundaries as text. A
// [*TickRate] is also a [flag.Value].
package counter
