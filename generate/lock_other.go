//go:build !unix

package generate

// Lock is a no-op where flock is not available: concurrent runs on one bundle are not prevented.
func Lock(out, holder string) (unlock func(), err error) { return func() {}, nil }
