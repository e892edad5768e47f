//go:build !amd64 || race

package handover

import (
	"sync/atomic"
	"unsafe"
)

// Elsewhere, and in a race build, a writer stores with atomic stores: Go's
// atomics are sequentially consistent on every architecture, so each store
// is ordered with the stores before it and with the loads after it (on
// arm64 a store-release and a load-acquire, STLR and LDAR, give this
// without a full barrier).

// PlainStores reports whether a writer's store may be reordered with its
// later load of another word; atomic stores never are.
const PlainStores = false

func store64(p *uint64, v uint64) { atomic.StoreUint64(p, v) }
func store32(p *uint32, v uint32) { atomic.StoreUint32(p, v) }

// store8 stores v at p, a narrow tally's count, as Go has no atomic store
// of a byte: an atomic store of the aligned word that holds it, whose other
// bytes it keeps, read first (the writer alone stores to its tally, so no
// store of theirs is lost).
func store8(p *uint8, v uint8) {
	wp := (*uint32)(unsafe.Pointer(uintptr(unsafe.Pointer(p)) &^ 3))
	w := atomic.LoadUint32(wp)
	(*[4]uint8)(unsafe.Pointer(&w))[uintptr(unsafe.Pointer(p))&3] = v
	atomic.StoreUint32(wp, w)
}

// load8 loads the count at p, which its writer may store to meanwhile,
// with an atomic load of the aligned word that holds it.
func load8(p *uint8) uint8 {
	w := atomic.LoadUint32((*uint32)(unsafe.Pointer(uintptr(unsafe.Pointer(p)) &^ 3)))
	return (*[4]uint8)(unsafe.Pointer(&w))[uintptr(unsafe.Pointer(p))&3]
}
func storeInt(p *int64, v int64) { atomic.StoreInt64(p, v) }

// Release stores 0 to *p, a lock word its caller holds, giving the lock
// up, with an atomic store.
func Release(p *uint32) { atomic.StoreUint32(p, 0) }

// loadCounts copies src into dst, as long, with an atomic load of each
// count, as src's writer may store to it meanwhile.
func loadCounts(dst, src []uint32) {
	dst = dst[:len(src)]
	for i := range src {
		dst[i] = atomic.LoadUint32(&src[i])
	}
}
