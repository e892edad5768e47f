//go:build !purego

package counter

// reported returns the rate the firmware wrote into CNTFRQ_EL0, for discover
// to check or measure. The generic timer is invariant by the architecture,
// so nothing is refused here.
func reported() (hz uint64, src RateSource, err error) {
	detectFeatures()
	return readFrequency(), SourceFrequencyReg, nil
}
