//go:build linux

package attest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elastic/go-seccomp-bpf/arch"
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

// TestSandboxKernelMemoryOutsideBudget: every kind of IPC object is kernel memory that neither the
// private /tmp's size nor RLIMIT_AS counts (System V shared memory is the reviewer's
// TestSandboxMemoryBeyondBudget); the sandbox denies the whole class.
func TestSandboxKernelMemoryOutsideBudget(t *testing.T) {
	needSandbox(t)
	runEscapes2(t, []escape2{
		{name: "SysV message queue", py: `libc = ctypes.CDLL(None, use_errno=True)
q = libc.msgget(0, 0o1600)
if q < 0:
    raise OSError(ctypes.get_errno(), "msgget")
libc.msgctl(q, 0, None)`},
		{name: "SysV semaphores", py: `libc = ctypes.CDLL(None, use_errno=True)
s = libc.semget(0, 8, 0o1600)
if s < 0:
    raise OSError(ctypes.get_errno(), "semget")
libc.semctl(s, 0, 0)`},
		{name: "POSIX message queue", py: `try:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mq_open
except AttributeError:
    libc = ctypes.CDLL("librt.so.1", use_errno=True)
class Attr(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_long), ("maxmsg", ctypes.c_long), ("msgsize", ctypes.c_long), ("curmsgs", ctypes.c_long), ("pad", ctypes.c_long * 4)]
attr = Attr(0, 1, 1, 0)
name = b"/okf-escape-%d" % os.getpid()
q = libc.mq_open(name, os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(attr))
if q < 0:
    raise OSError(ctypes.get_errno(), "mq_open")
libc.mq_unlink(name)`},
	})
}

// TestSandboxWatchAndPersonality: watching the host's files through the read-only mounts (inotify
// reports when the host touches /usr or /etc files), and changing how the kernel runs the process
// (personality: no address-space randomization; modify_ldt on x86) are denied.
func TestSandboxWatchAndPersonality(t *testing.T) {
	needSandbox(t)
	cases := []escape2{
		{name: "inotify", py: `libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(0)
if fd < 0:
    raise OSError(ctypes.get_errno(), "inotify_init1")
if libc.inotify_add_watch(fd, b"/usr", 0xfff) < 0:
    raise OSError(ctypes.get_errno(), "inotify_add_watch")`},
		{name: "personality", py: `libc = ctypes.CDLL(None, use_errno=True)
if libc.personality(0x0040000) < 0:
    raise OSError(ctypes.get_errno(), "personality")`},
		{name: "personality, high bits set", py: `libc = ctypes.CDLL(None, use_errno=True)
if libc.personality(ctypes.c_ulong(0x100040000)) < 0:
    raise OSError(ctypes.get_errno(), "personality")`},
	}
	if runtime.GOARCH == "amd64" {
		cases = append(cases, escape2{name: "modify_ldt", py: `libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(64)
if libc.syscall(154, 0, buf, 64) < 0:
    raise OSError(ctypes.get_errno(), "modify_ldt")`})
	}
	runEscapes2(t, cases)
}

// TestSandboxLimits: locked memory, queued signals and POSIX message-queue bytes are bounded too.
func TestSandboxLimits(t *testing.T) {
	needSandbox(t)
	runEscapes2(t, []escape2{{name: "rlimits", py: fmt.Sprintf(`import resource
for r, most in ((resource.RLIMIT_MEMLOCK, %d), (resource.RLIMIT_SIGPENDING, %d), (resource.RLIMIT_MSGQUEUE, 0)):
    soft, hard = resource.getrlimit(r)
    if hard == resource.RLIM_INFINITY or hard > most:
        break
else:
    raise OSError("every limit is set")`, LimitLockedMemory, LimitPendingSignals)}})
}

// TestSandboxMountsReadOnly: of the attester's whole file system, only its private /tmp is
// writable: the system folders, every mount under them, the device nodes and the root itself are
// read-only mounts (a device is still read and written through one).
func TestSandboxMountsReadOnly(t *testing.T) {
	needSandbox(t)
	// The root cannot be listed (Landlock), so the test looks at what the sandbox shows: the root,
	// each system path and device node, and one level under each folder (their submounts).
	runEscapes2(t, []escape2{{name: "a writable mount", py: fmt.Sprintf(`bad = []
def look(p):
    try:
        if not os.statvfs(p).f_flag & os.ST_RDONLY:
            bad.append(p)
    except OSError:
        pass
look("/")
for p in %s:
    if os.path.islink(p):
        continue
    look(p)
    if os.path.isdir(p):
        try:
            for e in os.listdir(p):
                look(p + "/" + e)
        except OSError:
            pass
if not bad:
    raise OSError("every mount is read-only")`, pyList(append(append([]string{}, systemRO...), devNodes...)))}})
}

// TestSandboxStillWorks: what the denials must leave working does work in the sandbox: the device
// nodes (written, read), asking for the personality, the private /tmp.
func TestSandboxStillWorks(t *testing.T) {
	needSandbox(t)
	if !PythonAvailable() {
		t.Skip("python3 is not available")
	}
	script := `import os, ctypes

def attest(**_):
    libc = ctypes.CDLL(None, use_errno=True)
    with open("/dev/null", "w") as f:
        f.write("x")
    with open("/dev/urandom", "rb") as f:
        assert len(f.read(8)) == 8
    with open("/dev/zero", "rb") as f:
        assert f.read(4) == b"\0\0\0\0"
    assert libc.personality(0xffffffff) >= 0, "personality query"
    with open(os.environ["TMPDIR"] + "/w", "w") as f:
        f.write("ok")
    return {"ok": True, "reason": "works", "details": {}}
`
	r, _ := attestIn(t, "s.py", map[string]string{"s.py": script}, Options{AllowExec: true, Timeout: 20 * time.Second})
	if r.Outcome != Pass {
		t.Errorf("got %s (%s), stderr %q; want pass", r.Outcome, deref(r.Reason), r.StderrTail)
	}
}

// TestSandboxNewerSyscalls: a system call newer than the seccomp library's table (one the kernel
// has, such as file_setattr) is answered ENOSYS in the sandbox, as an older kernel would.
func TestSandboxNewerSyscalls(t *testing.T) {
	needSandbox(t)
	if !PythonAvailable() {
		t.Skip("python3 is not available")
	}
	info, err := arch.GetInfo("")
	if err != nil {
		t.Skip(err)
	}
	newest := 0
	for _, nr := range info.SyscallNames {
		newest = max(newest, nr)
	}
	script := fmt.Sprintf(`import ctypes

def attest(**_):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall(%d, -1, 0, 0, 0, 0)
    e = ctypes.get_errno()
    return {"ok": e != 38, "reason": "errno %%d" %% e, "details": {}}
`, newest+1)
	for _, sandboxed := range []bool{false, true} {
		r, _ := attestIn(t, "s.py", map[string]string{"s.py": script}, Options{AllowExec: true, Timeout: 20 * time.Second, unconfined: !sandboxed})
		switch {
		case !sandboxed && r.Outcome != Pass:
			t.Skipf("this kernel has no system call %d: %s (%s)", newest+1, r.Outcome, deref(r.Reason))
		case sandboxed && r.Outcome != Fail:
			t.Errorf("system call %d reached the kernel in the sandbox: %s (%s), stderr %q", newest+1, r.Outcome, deref(r.Reason), r.StderrTail)
		}
	}
}

// pyList is a Python list literal of strings.
func pyList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
