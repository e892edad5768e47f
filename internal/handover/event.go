package handover

// An Event is a step of the reader that the protocol orders: each swap of
// a writer's tally comes before the barrier, and the barrier before each
// read of a journal. The handoverstep build reports them (step_on.go).
type Event uint8

const (
	EventSwap      Event = iota // a writer's tally swapped for a spare
	EventBarrier                // the barrier passed
	EventJournal                // a writer's journal read
	EventSwapWhole              // a writer's tally swapped holding its lock, which needs no barrier
	EventRetiring               // a writer about to be retired: attached cleared, its cur not yet closed
	EventRetired                // a writer retired: its cur closed, not yet off the list
)
