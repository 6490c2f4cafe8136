//go:build linux

package attest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Escape attempts found by review. Each showed a hole in the sandbox and failed before it was
// closed: the copy through the bundle's door, the launcher staying process 1 with its parent-death
// signal set again, seccomp on System V IPC, read-only device mounts.

// TestSandboxCopyFollowsSwappedFolder: the bundle is copied for the attester by okf, with okf's
// rights, through plain paths (os.Lstat + os.Open on b.Root/p) rather than through the bundle's
// door (os.Root). Whoever can write the checkout (another local user, the usual case for a root
// okf in CI) swaps a folder for a symbolic link after the load and before the copy, and the
// attester receives the link's target: any file okf can read, which it then prints.
// Reproduced against the real CLI by a loop of renameat2(RENAME_EXCHANGE) run as uid 1000 while a
// root okf ran `okf attest verify`: 7 runs out of 25 printed a root-only file.
func TestSandboxCopyFollowsSwappedFolder(t *testing.T) {
	needSandbox(t)
	secretDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(secretDir, "key.txt"), []byte("outside-secret-9f2c\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	res := "s.sh"
	files := map[string]string{
		"c.md":        contractWith(res),
		"s.sh":        escapeScript("grep -q outside-secret-9f2c sub/key.txt"),
		"sub/key.txt": "decoy\n",
	}
	writeFiles(t, dir, files)
	b := loadBundle(t, dir)
	// The checkout's owner swaps sub for a link, in the window between load and copy.
	if err := os.RemoveAll(filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secretDir, filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	// The door refuses the same path: the copy is the only reader that follows it.
	if _, err := b.FileSystem().ReadFile("sub/key.txt"); err == nil {
		t.Log("note: the bundle's door read sub/key.txt through the link too")
	}
	comp := Find(b, "c", false)
	text, err := comp.ComputationText()
	if err != nil {
		t.Fatal(err)
	}
	receipt := json.RawMessage(`{"executed_sql": "SELECT SUM(amount) FROM sales WHERE year = @year", "result": [12]}`)
	r := Attest(b, comp, NewRequest(comp, text, map[string]any{"year": 2025}, receipt, json.RawMessage("12.0")),
		Options{AllowExec: true, Timeout: 20 * time.Second})
	if r.Outcome != Fail {
		t.Errorf("the attester read a file outside the bundle through a folder swapped for a link after the load: got %s (%s), stderr %q; want fail (blocked)",
			r.Outcome, deref(r.Reason), r.StderrTail)
	}
}

// TestSandboxAttesterHelperSleeper is not a test: TestSandboxAttesterOutlivesOkf runs it in a
// child process that it then kills, as a CI runner cancelling the job or a timeout(1) would.
func TestSandboxAttesterHelperSleeper(t *testing.T) {
	kind := os.Getenv("OKF_ATTACK3_SLEEPER")
	if kind == "" {
		t.Skip("helper for TestSandboxAttesterOutlivesOkf")
	}
	opts := Options{Timeout: 20 * time.Second}
	if kind == "sh" {
		attestIn(t, "s.sh", map[string]string{"s.sh": "#!/bin/sh\ncat >/dev/null\nexec sleep 273\n"}, opts)
		return
	}
	// A Python attester first clears its parent-death signal (any process may), then sleeps.
	attestIn(t, "s.py", map[string]string{"s.py": "import ctypes, os\n\ndef attest(**_):\n" +
		"    ctypes.CDLL(None).prctl(1, 0, 0, 0, 0)\n    os.execv('/bin/sleep', ['sleep', '274'])\n"}, opts)
}

// TestSandboxAttesterOutlivesOkf: the attester is in its own process group and PID namespace, and
// only okf's timer kills it. When okf itself dies (SIGKILL, or SIGTERM, which Go does not catch
// here), the attester keeps running, unbounded in time: as root because the launcher's change
// of uid clears the parent-death signal; as any user because the attester may clear it itself.
func TestSandboxAttesterOutlivesOkf(t *testing.T) {
	needSandbox(t)
	for _, c := range []struct{ kind, arg string }{{"sh", "273"}, {"py", "274"}} {
		t.Run(c.kind, func(t *testing.T) {
			if c.kind == "py" && !PythonAvailable() {
				t.Skip("python3 is not available")
			}
			okf := exec.Command(os.Args[0], "-test.run=^TestSandboxAttesterHelperSleeper$")
			// A SIGKILLed okf leaves its host working folder behind (README): in this test's folder.
			okf.Env = append(os.Environ(), "OKF_ATTACK3_SLEEPER="+c.kind, "TMPDIR="+t.TempDir())
			okf.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := okf.Start(); err != nil {
				t.Fatal(err)
			}
			if len(waitFound("sleep", c.arg)) == 0 {
				okf.Process.Kill()
				okf.Wait()
				t.Skip("the attester did not start")
			}
			// okf dies as a CI runner's cancellation would kill it (its whole process group).
			syscall.Kill(-okf.Process.Pid, syscall.SIGKILL)
			okf.Wait()
			left := waitGone("sleep", c.arg)
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			if len(left) > 0 {
				t.Errorf("the attester (pid %v) still runs after okf was killed: nothing bounds its time any more", left)
			}
		})
	}
}

// TestSandboxMemoryBeyondBudget: seccomp denies memfd_create because memory files would escape
// the disk budget, but System V shared memory is the same thing and is allowed: segments are
// counted neither by the private /tmp's size nor by RLIMIT_AS (a detached segment takes no address
// space), and the new IPC namespace keeps the kernel's unlimited shmmax and shmall. One process
// holds as much memory as it likes (here 4 x 16 MiB against an 8 MiB budget; against the CLI,
// 3 x 128 MiB against 256 MiB with the attester's own RLIMIT_AS lowered to 200 MiB).
func TestSandboxMemoryBeyondBudget(t *testing.T) {
	needSandbox(t)
	savedBudget := diskBudget
	diskBudget = 8 << 20
	defer func() { diskBudget = savedBudget }()
	runEscapes2(t, []escape2{{
		name: "SysV shared memory",
		py: `libc = ctypes.CDLL(None, use_errno=True)
libc.shmget.restype = ctypes.c_int
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
seg, held = 16 << 20, []
for i in range(4):
    sid = libc.shmget(0, seg, 0o1600)
    if sid < 0:
        raise OSError(ctypes.get_errno(), "shmget")
    p = libc.shmat(sid, None, 0)
    if p is None or p == ctypes.c_void_p(-1).value:
        raise OSError(ctypes.get_errno(), "shmat")
    ctypes.memset(p, 0x5a, seg)
    held.append(sid)
    libc.shmdt(ctypes.c_void_p(p))
for sid in held:
    libc.shmctl(sid, 0, None)
if len(held) * seg <= 8 << 20:
    raise OSError("within the budget")`,
	}})
}

// TestSandboxDeviceTimes: the four device nodes are bind mounts of the host's, writable, and a
// file's times can be set to now by anyone who may write it (utimensat with no times): the
// attester changes the host's /dev/null, /dev/zero, /dev/random and /dev/urandom times.
func TestSandboxDeviceTimes(t *testing.T) {
	needSandbox(t)
	var before syscall.Stat_t
	runEscapes2(t, []escape2{{
		name: "touch /dev/null",
		sh:   "touch -c /dev/null",
		before: func(t *testing.T) func() {
			syscall.Stat("/dev/null", &before)
			return func() {}
		},
		check: func(t *testing.T, sandboxed bool) {
			var after syscall.Stat_t
			syscall.Stat("/dev/null", &after)
			if sandboxed && after.Mtim != before.Mtim {
				t.Errorf("the host's /dev/null mtime changed from %v to %v", before.Mtim, after.Mtim)
			}
		},
	}})
}
