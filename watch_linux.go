package counter

import "golang.org/x/sys/unix"

// clocksourcePath is the file in which Linux names its current clocksource.
const clocksourcePath = "/sys/devices/system/clocksource/clocksource0/current_clocksource"

// sysfsFile is a file of sysfs, by its descriptor: sysfs makes the text
// again on each read at offset 0, so one pread there reads it afresh, into a
// caller's buffer, with no allocation.
type sysfsFile int

func (f sysfsFile) readAll(b []byte) (int, error) { return unix.Pread(int(f), b, 0) }
func (f sysfsFile) close() error                  { return unix.Close(int(f)) }

// openClocksource opens Linux's clocksource file.
func openClocksource() (clocksourceFile, error) {
	fd, err := unix.Open(clocksourcePath, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return sysfsFile(fd), nil
}
