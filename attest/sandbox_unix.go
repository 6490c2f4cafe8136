//go:build unix

package attest

import (
	"os/exec"
	"syscall"
)

// isolate puts the attester in its own process group, so a timeout kills it and every child it
// started, not just the first process.
func isolate(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// killGroup ends the attester and whatever it left running in its process group. In a PID
// namespace the kernel also ends every other process in it when the attester (its process 1) dies.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
