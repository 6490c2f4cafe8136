//go:build unix

package okf

import "syscall"

// openNonblock makes opening a named pipe return at once instead of waiting for a writer; it has no
// effect on reading a regular file.
const openNonblock = syscall.O_NONBLOCK

// openNoFollow makes an open fail on a symbolic link at the path's last component.
const openNoFollow = syscall.O_NOFOLLOW
