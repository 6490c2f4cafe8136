//go:build !unix

package attest

import "os/exec"

// isolate has no process groups to use here: a timeout kills the attester process only.
func isolate(cmd *exec.Cmd) {}

// killGroup has nothing to do without process groups.
func killGroup(cmd *exec.Cmd) {}
