//go:build !purego

package counter

import "testing"

// TestReadFrequency checks that CNTFRQ_EL0 holds a rate discovery could
// accept: 1 MHz to 10 GHz (62.5 MHz under qemu, 24 MHz on Apple silicon,
// 1 GHz from Armv8.6 on).
func TestReadFrequency(t *testing.T) {
	hz := readFrequency()
	t.Logf("CNTFRQ_EL0 = %d Hz", hz)
	if hz < 1e6 || hz > 10e9 {
		t.Fatalf("readFrequency() = %v Hz; want 1 MHz to 10 GHz", hz)
	}
}
