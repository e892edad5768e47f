//go:build !purego

package counter

// discover takes the rate the firmware wrote into CNTFRQ_EL0, checked or
// measured by settle. The generic timer is invariant by the architecture.
func discover() (Discovery, error) {
	detectFeatures()
	return settle(readFrequency(), SourceFrequencyReg, measurer())
}
