//go:build unix

package attest

import (
	"os"
	"syscall"
)

// openNoFollow opens the entry name of the open folder d for reading: never following a symbolic
// link, never blocking on a named pipe or a device.
func openNoFollow(d *os.File, name string) (*os.File, error) {
	for {
		fd, err := syscall.Openat(int(d.Fd()), name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "openat", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}
