//go:build amd64 && !race

package handover

// On amd64 a writer stores with plain stores. The processor makes stores
// visible in program order, and Go's compiler keeps stores in program order
// too (each takes the memory state the one before it left), so a reader
// that loads a word one of these stores wrote also sees every store the
// writer made before it. A race build takes store_other.go's atomic stores
// instead, which the race detector understands.

// PlainStores reports whether a writer's store may be reordered with its
// later load of another word, which only an asymmetric fence or a locked
// instruction prevents (see Barrier).
const PlainStores = true

func store64(p *uint64, v uint64) { *p = v }
func store32(p *uint32, v uint32) { *p = v }
func storeInt(p *int64, v int64)  { *p = v }

// Release stores 0 to *p, a lock word its caller holds, giving the lock
// up: on amd64 a plain store, which no earlier load or store passes.
func Release(p *uint32) { *p = 0 }
