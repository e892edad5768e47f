// Command vetcopy copies a Snapshot, which go vet must report:
// TestSnapshotCopyCaughtByVet runs it.
package main

import "github.com/tickstamp/counter"

func main() {
	var a counter.Snapshot
	b := a
	_ = b.Count()
}
