//go:build unix

package attest

import (
	"os"

	"golang.org/x/sys/unix"
)

// openNoFollow opens the entry name of the open folder d for reading: never following a symbolic
// link, never blocking on a named pipe or a device.
func openNoFollow(d *os.File, name string) (*os.File, error) {
	for {
		fd, err := unix.Openat(int(d.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "openat", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}
