//go:build !amd64 || race

package counter

import "sync/atomic"

// Elsewhere, and in a race build, a Recorder publishes with atomic stores:
// Go's atomics are sequentially consistent on every architecture, so each
// store is ordered with the stores before it and with the loads after it (on
// arm64 a store-release and a load-acquire, STLR and LDAR, give this without
// a full barrier).

// plainStores reports whether a store here may be reordered with a later
// load of another word; atomic stores never are.
const plainStores = false

func publish64(p *uint64, v uint64)          { atomic.StoreUint64(p, v) }
func publish32(p *uint32, v uint32)          { atomic.StoreUint32(p, v) }
func publishDelta(p *Tickdelta, v Tickdelta) { atomic.StoreInt64((*int64)(p), int64(v)) }
