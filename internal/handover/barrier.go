package handover

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// A Barrier is how the reader orders the writers' plain stores with its own
// accesses, after it swaps their tallies and before it reads their words.
type Barrier uint8

const (
	// NoBarrier: the writers' stores are atomic (store_other.go), and so
	// ordered with the reader's already.
	NoBarrier Barrier = iota
	// Membarrier: membarrier(2) runs a full barrier on each CPU that runs
	// one of the process's threads.
	Membarrier
	// StopTheWorld: runtime.ReadMemStats stops the world, and every thread
	// that runs Go code passes through the scheduler's atomic instructions
	// to stop; a thread in a system call passed through them on its way
	// in.
	StopTheWorld
)

func (b Barrier) String() string {
	switch b {
	case NoBarrier:
		return "none"
	case Membarrier:
		return "membarrier"
	case StopTheWorld:
		return "stop the world"
	}
	return "Barrier(" + strconv.Itoa(int(b)) + ")"
}

var (
	registerOnce sync.Once
	// processBarrier is the barrier a new Collector takes: the first
	// ProcessBarrier decides it, and a membarrier that fails later lowers
	// it to StopTheWorld.
	processBarrier atomic.Uint32
)

// ProcessBarrier returns the barrier of a new Collector: none where
// writers store atomically; else membarrier(2) where the kernel lets this
// process register for it, which the first call does and which can take a
// fraction of a millisecond; else, or once a membarrier has failed,
// stopping the world.
func ProcessBarrier() Barrier {
	registerOnce.Do(func() {
		b := StopTheWorld
		switch {
		case !PlainStores:
			b = NoBarrier
		case registerMembarrier():
			b = Membarrier
		}
		processBarrier.Store(uint32(b))
	})
	return Barrier(processBarrier.Load())
}

// pass makes every thread of the process pass through a full barrier, as
// b says. Where membarrier(2) fails (a seccomp filter installed after the
// registration can refuse it), it stops the world instead, and b, and the
// barrier of every Collector made after, becomes StopTheWorld: pass never
// fails and never panics.
func (b *Barrier) pass() {
	trace(EventBarrier)
	switch *b {
	case Membarrier:
		if membarrier() == nil {
			return
		}
		*b = StopTheWorld
		processBarrier.Store(uint32(StopTheWorld))
		fallthrough
	case StopTheWorld:
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
	}
}

// Barriers returns the barriers a Collector can pass on this machine and
// build, for tests and benchmarks that force each in turn: none where
// writers store atomically; else membarrier(2) where the process has it,
// and stopping the world.
func Barriers() []Barrier {
	switch ProcessBarrier() {
	case NoBarrier:
		return []Barrier{NoBarrier}
	case Membarrier:
		return []Barrier{Membarrier, StopTheWorld}
	}
	return []Barrier{StopTheWorld}
}
