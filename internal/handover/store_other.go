//go:build !amd64 || race

package handover

import "sync/atomic"

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
func storeInt(p *int64, v int64)  { atomic.StoreInt64(p, v) }

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
