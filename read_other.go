//go:build (!amd64 && !arm64) || purego

package counter

// backend names the implementation of the reads that this build runs.
const backend = "nanotime"

// detectFeatures has nothing to detect where the runtime's clock is read.
func detectFeatures() {}

// Every read is the runtime's monotonic clock, in nanoseconds, whatever the
// Counter's mono flag says, so the marks are the plain read: a read costs a
// call of tens of nanoseconds into the runtime (on Linux the vDSO, which
// orders its own counter read after earlier loads), and no fence this
// package could put around it would make the marks sharper than that.

func stampNow(bool) uint64 { return uint64(nanotime()) }

func stampUnordered(bool) uint64 { return uint64(nanotime()) }

func stampBegin(bool) uint64 { return uint64(nanotime()) }

func stampEnd(bool) uint64 { return uint64(nanotime()) }

func stampCPU(bool) (Tickstamp, int) { return Tickstamp(nanotime()), -1 }

func stampFenced(bool) uint64 { return uint64(nanotime()) }
