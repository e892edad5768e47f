//go:build !linux

package counter

import "errors"

// openClocksource returns an error: only Linux names its clocksource in a
// file, so the watch's clocksource check is off elsewhere.
func openClocksource() (clocksourceFile, error) {
	return nil, errors.ErrUnsupported
}
