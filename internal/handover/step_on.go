//go:build handoverstep

package handover

// Stepping reports whether this build has the handoverstep hooks.
const Stepping = true

// OnStep, where set, runs after each store of a record (and after its load
// of the tally), on the writer's goroutine: a test stops a writer there, as
// the operating system may, and runs a reader meanwhile.
var OnStep func()

// OnTrace, where set, runs at each event of the reader that the protocol
// orders.
var OnTrace func(Event)

// distrustDone, where set, makes the reader ignore every writer's done
// (Writer.ended), as the proof allows: done only spares it work. A test
// sets it to take the path that the journal alone makes exact.
var distrustDone bool

func step() {
	if OnStep != nil {
		OnStep()
	}
}

func trace(e Event) {
	if OnTrace != nil {
		OnTrace(e)
	}
}
