//go:build amd64 && !race

package handover

import (
	"sync/atomic"
	"unsafe"
)

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
func store8(p *uint8, v uint8)    { *p = v }

// load8 loads the count at p, which its writer may store to meanwhile: an
// access of a byte is one on amd64.
func load8(p *uint8) uint8       { return *p }
func storeInt(p *int64, v int64) { *p = v }

// Release stores 0 to *p, a lock word its caller holds, giving the lock
// up: on amd64 a plain store, which no earlier load or store passes.
func Release(p *uint32) { *p = 0 }

// loadCounts copies src into dst, as long, with atomic loads, as src's
// writer may store to it meanwhile: two counts a load where src's storage
// is aligned to 8 bytes, as a tally's is (its counts start where their
// allocation does, and Go aligns an allocation of 8 bytes or more). An
// aligned load of 8 bytes is one access on amd64, so each count is read
// whole, as with a load of each; nothing orders the counts' loads among
// themselves, and nothing needs to (see the package doc).
func loadCounts(dst, src []uint32) {
	dst = dst[:len(src)]
	n := 0
	if len(src) >= 2 && uintptr(unsafe.Pointer(&src[0]))%8 == 0 {
		n = len(src) &^ 1
		d := unsafe.Slice((*uint64)(unsafe.Pointer(&dst[0])), n/2)
		s := unsafe.Slice((*uint64)(unsafe.Pointer(&src[0])), n/2)
		for i := range s {
			d[i] = atomic.LoadUint64(&s[i])
		}
	}
	for i := n; i < len(src); i++ {
		dst[i] = atomic.LoadUint32(&src[i])
	}
}
