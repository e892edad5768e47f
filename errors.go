package counter

import "errors"

// The refusals of [Discover], [DiscoverDetails] and [MeasureRate]. Each one's
// message says why there is no rate, and its doc what to do instead. Test
// for them with [errors.Is]: where a refusal has details to give, its error
// wraps the sentinel in a message that gives them.
var (
	// ErrNotInvariant is the refusal of a counter that CPUID does not promise
	// to be invariant: one that may tick slower while the core saves power,
	// stop while it sleeps, or not exist. Virtual machines whose hypervisor
	// hides the invariant bit refuse too, even where the host's counter is
	// invariant. Use [Monotonic] instead; or, where you know better
	// (the host is invariant and the guest stays on it), make a [Counter]
	// with [New] and the rate of [MeasureRate].
	ErrNotInvariant = errors.New("counter: CPUID does not promise an invariant time-stamp counter")

	// ErrNoRate is the refusal where nothing gave a rate: CPUID reports none
	// and this system has no raw clock to measure the counter against. Make
	// a [Counter] with [New] and a rate known from elsewhere (a config, or a
	// discovery on the same machine under Linux), or use [Monotonic].
	ErrNoRate = errors.New("counter: CPUID reports no rate and there is no raw clock here to measure one against")

	// ErrRateOutOfRange is wrapped by the refusal of a rate outside 1 MHz to
	// 10 GHz, the rates of real counters: the rate or the counter is broken.
	// The error's message gives the rate; [Discovery] gives it and its
	// source. Use [Monotonic] instead.
	ErrRateOutOfRange = errors.New("counter: rate out of range")

	// ErrDisabled is the refusal where the calling thread has asked the
	// kernel to make RDTSC fault (Linux's prctl(PR_SET_TSC, PR_TSC_SIGSEGV)),
	// so that the first read of the counter would kill the process. Discover
	// and MeasureRate ask before they read any clock, about the calling
	// thread, and keep their goroutine on it until they return; Discover's
	// per-CPU check, which reads on a thread of its own, asks again there and
	// refuses with this error too. The flag is per thread, kept across execve
	// and inherited by the threads created afterwards: a [Counter] made on a
	// thread without it faults on a thread with it, and a [Watch] skips a
	// per-CPU check whose thread has it.
	//
	// A Go program rarely lives to see this error. Go's runtime on amd64
	// executes RDTSC itself, at start-up and whenever a thread sleeps on a
	// contended runtime lock; and it reads its clock through the vDSO, which
	// executes RDTSC where the kernel's clocksource is tsc, kvm-clock or the
	// Hyper-V TSC page with a stable TSC, and makes a system call only for
	// clocksources it cannot read, such as hpet and acpi_pm. So where the
	// kernel enforces the flag, a Go program started with it dies before
	// main, and a thread that sets it may die at any of the runtime's reads,
	// at a moment no library chooses: at its next clock read wherever the
	// vDSO reads the TSC, as time.Now and a [Monotonic] Counter do. Some
	// hypervisors accept and report the flag without enforcing it; RDTSC
	// keeps working there, and this error is what such a thread sees.
	//
	// What works: clear the flag with prctl(PR_SET_TSC, PR_TSC_ENABLE) on the
	// thread that set it, and discover again. Where it must stay, read the
	// time with a raw clock_gettime system call (CLOCK_MONOTONIC_RAW through
	// [syscall.Syscall], not the vDSO): the kernel reads its clock where the
	// flag does not apply, and a raw system call returns without running the
	// scheduler, so it executes no RDTSC of the runtime's either. Nothing
	// keeps the runtime from reading the counter on that thread at other
	// moments, as said above.
	ErrDisabled = errors.New("counter: RDTSC faults on this thread (prctl PR_TSC_SIGSEGV)")

	// ErrMeasure is wrapped by every failure to measure the rate: the
	// thread kept moving between CPUs, it ran too little of the window for
	// the brackets to fill it, or the clocks did not advance. The message
	// says which. Try again on a quieter machine, or pin the thread
	// first; or use [Monotonic] instead.
	ErrMeasure = errors.New("counter: could not measure the rate")

	// ErrCPUsDisagree is wrapped by the refusal of counters that disagree
	// between CPUs: the counters of the CPUs this process may run on are
	// offset from one another by more than the measurement can explain, so
	// a span that starts on one CPU and ends on another is wrong by that
	// offset, and may be negative. The error's message names each CPU out
	// of bound, its offset and its bound; [Discovery.CPUs] holds every
	// CPU's. Use [Monotonic] instead, or pin the process to CPUs that agree
	// and discover again.
	ErrCPUsDisagree = errors.New("counter: the CPUs' counters disagree")
)

// errZeroRate is the error of a rate of 0 Hz: a counter that never ticks has
// no rate. [NewTickRate] returns it, and [ParseTickRate] and [NewAnchor]
// wrap it.
var errZeroRate = errors.New("counter: a rate of 0 Hz is no rate")

// errNoBracket is the error of an anchoring whose clock read less after the
// wall clock than before it in every bracket: a clock that runs backwards,
// which cannot be anchored.
var errNoBracket = errors.New("counter: the clock ran backwards across the wall-clock read in every bracket")

// A wrapError is an error with its own message that also wraps a sentinel,
// for errors.Is, without repeating the sentinel's text.
type wrapError struct {
	msg     string
	wrapped error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.wrapped }
