//go:build !linux

package attest

import (
	"errors"
	"os/exec"
	"runtime"
	"time"
)

// MachineIsolation reports that no sandbox exists here: okf's sandbox is built on Linux Landlock.
func MachineIsolation() Isolation {
	return Isolation{Why: "okf's sandbox needs Linux Landlock; this is " + runtime.GOOS}
}

func sandboxCommand(argv []string, dir, tmp string, env []string, ro []string, timeout time.Duration) (*exec.Cmd, error) {
	return nil, errors.New(MachineIsolation().Why)
}

func closeExtra(*exec.Cmd) {}

func launch(spec *sandboxSpec) error {
	return errors.New(MachineIsolation().Why)
}
func launcherFailure(*exec.Cmd) string { return "" }
