//go:build unix

package okf

import "syscall"

// openNonblock makes opening a named pipe return at once instead of waiting for a writer; it has no
// effect on reading a regular file.
const openNonblock = syscall.O_NONBLOCK
