//go:build !unix

package attest

import (
	"errors"
	"os"
)

// run is one external attester under way; without process groups or POSIX signals here, nothing
// more is done on an interrupt than the system does.
type run struct{}

func track(tmp string) *run { return &run{} }
func (r *run) started(int)  {}
func (r *run) done()        {}

func (r *run) interrupted() os.Signal       { return nil }
func (r *run) writing(f func() error) error { return f() }

var errInterrupted = errors.New("interrupted by a signal")
