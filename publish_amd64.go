//go:build amd64 && !race

package counter

// On amd64 a Recorder publishes with plain stores. The processor makes
// stores visible in program order, and Go's compiler keeps stores in program
// order too (each takes the memory state the one before it left), so a
// reader that loads a word one of these stores wrote also sees every store
// the writer made before it. A race build takes publish_other.go's atomic
// stores instead, which the race detector understands.

// plainStores reports whether a store here may be reordered with a later
// load of another word, which only an asymmetric fence or a locked
// instruction prevents (see Histogram.barrier).
const plainStores = true

func publish64(p *uint64, v uint64)          { *p = v }
func publish32(p *uint32, v uint32)          { *p = v }
func publishDelta(p *Tickdelta, v Tickdelta) { *p = v }
