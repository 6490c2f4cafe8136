//go:build !unix

package attest

import (
	"errors"
	"os"
)

// openNoFollow has no openat here: the copy reads through the bundle's FileSystem instead
// (confined, capped, but following a link that stays inside the bundle).
func openNoFollow(d *os.File, name string) (*os.File, error) {
	return nil, errors.ErrUnsupported
}
