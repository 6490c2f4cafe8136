//go:build linux

package attest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSandboxSignalEndsAttester: okf stopped by SIGTERM, SIGINT or SIGHUP (a CI runner cancelling
// the job, timeout(1), Ctrl-C) kills the attester and removes its host working folder, then ends
// as the signal would have ended it. Before, okf died at once and left both behind (the attester
// until its parent-death signal, the folder for good).
func TestSandboxSignalEndsAttester(t *testing.T) {
	needSandbox(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			okf := exec.Command(os.Args[0], "-test.run=^TestSandboxAttesterHelperSleeper$")
			okf.Env = append(os.Environ(), "OKF_ATTACK3_SLEEPER=sh", "TMPDIR="+tmp)
			okf.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := okf.Start(); err != nil {
				t.Fatal(err)
			}
			if len(waitFound("sleep", "273")) == 0 {
				okf.Process.Kill()
				okf.Wait()
				t.Skip("the attester did not start")
			}
			okf.Process.Signal(sig)
			err := okf.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != sig {
				t.Errorf("okf did not end by the signal %v: %v", sig, err)
			}
			left := waitGone("sleep", "273")
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			if len(left) > 0 {
				t.Errorf("the attester (pid %v) still runs after okf got %v", left, sig)
			}
			if m, _ := filepath.Glob(filepath.Join(tmp, "okf-attest-*")); len(m) > 0 {
				t.Errorf("the attester's working folder was left behind after %v: %v", sig, m)
			}
		})
	}
}

// TestSandboxOkfGoneBeforeStart: okf may die in the launcher's window where the change of
// identity has cleared its parent-death signal and it is not set again yet. The launcher then
// finds its lifeline hung up and starts nothing (getppid cannot tell: in the PID namespace the
// parent is outside).
func TestSandboxOkfGoneBeforeStart(t *testing.T) {
	needSandbox(t)
	tmp := t.TempDir()
	marker := "okf-started-" + filepath.Base(tmp)
	cmd, err := sandboxCommand([]string{"/bin/sh", "-c", "echo " + marker}, "/", tmp, []string{"PATH=/usr/bin:/bin"}, nil, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer closeExtra(cmd)
	// okf is gone: its end of the lifeline is closed before the launcher looks.
	if lw, ok := lifelines.LoadAndDelete(cmd); ok {
		lw.(*os.File).Close()
	}
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), marker) {
		t.Errorf("the launcher started the attester although okf was gone: %q", out)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != launcherFailed {
		t.Errorf("the launcher exited %v, want %d", cmd.ProcessState, launcherFailed)
	}
}
