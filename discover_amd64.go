//go:build !purego

package counter

// discover refuses a counter that is not invariant, and takes the rate CPUID
// reports, checked or measured by settle.
func discover() (Discovery, error) {
	detectFeatures()
	hz, src, err := rateFromCPUID(cpuid)
	if err != nil {
		return Discovery{}, err
	}
	return settle(hz, src, measurer())
}
