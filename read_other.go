//go:build (!amd64 && !arm64) || purego

package counter

// backend names the implementation of the reads that this build runs.
const backend = "nanotime"

// detectFeatures has nothing to detect where the runtime's clock is read.
func detectFeatures() {}

// Every read is the runtime's monotonic clock, in nanoseconds, so the marks
// are the plain read: a read costs a call of tens of nanoseconds into the
// runtime (on Linux the vDSO, which orders its own counter read), and no
// fence this package could put around it would make the marks sharper than
// that.

func readStamp() uint64 { return uint64(nanotime()) }

func readBegin() uint64 { return uint64(nanotime()) }

func readEnd() uint64 { return uint64(nanotime()) }

func readCPU() (Tickstamp, int) { return Tickstamp(nanotime()), -1 }
