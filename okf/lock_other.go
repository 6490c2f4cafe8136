//go:build !unix

package okf

import "errors"

// LockBundle is a no-op where flock is not available: concurrent runs on one bundle are not prevented.
func LockBundle(out, holder string) (unlock func(), err error) { return func() {}, nil }

// LockFile is the file LockBundle holds in a bundle while a command writes it.
const LockFile = ".okf-gen.lock"

// ErrLocked is returned by LockBundle when another command holds the bundle.
var ErrLocked = errors.New("the bundle is locked")
