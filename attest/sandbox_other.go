//go:build !unix

package attest

import "os/exec"

// isolate has no process groups to use here: a timeout kills the attester process only.
func isolate(cmd *exec.Cmd) {}

// killGroup kills the attester process; there are no process groups here.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
