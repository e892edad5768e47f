package counter

import "golang.org/x/sys/unix"

// clocksourcePath is the file in which Linux names its current clocksource.
const clocksourcePath = "/sys/devices/system/clocksource/clocksource0/current_clocksource"

// openClocksource opens Linux's clocksource file, and returns a read that
// reads it afresh from its start into a caller's buffer (one pread, no
// allocation: sysfs makes the text again on each read at offset 0) and the
// file's close.
func openClocksource() (read func([]byte) (int, error), close func() error, err error) {
	fd, err := unix.Open(clocksourcePath, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	read = func(b []byte) (int, error) { return unix.Pread(fd, b, 0) }
	return read, func() error { return unix.Close(fd) }, nil
}
