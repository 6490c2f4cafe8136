//go:build !unix

package okf

// openNonblock is 0 where the system has no O_NONBLOCK; named pipes there are not files of a folder.
const openNonblock = 0

// openNoFollow is 0 where the system has no O_NOFOLLOW.
const openNoFollow = 0
