//go:build !purego

package counter

// reported refuses a counter that is not invariant, and returns the rate
// CPUID reports, 0 for none, for discover to check or measure.
func reported() (hz uint64, src RateSource, err error) {
	detectFeatures()
	return rateFromCPUID(cpuid)
}
