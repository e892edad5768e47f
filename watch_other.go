//go:build !linux

package counter

import "errors"

// openClocksource returns an error: only Linux names its clocksource in a
// file, so the watch's clocksource check is off elsewhere.
func openClocksource() (read func([]byte) (int, error), close func() error, err error) {
	return nil, nil, errors.ErrUnsupported
}
