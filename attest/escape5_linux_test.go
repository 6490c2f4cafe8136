//go:build linux

package attest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestSandboxAttesterHelperBigCopy is not a test: TestSandboxSignalDuringCopy runs it in a child
// process that it signals while okf copies the bundle into the attester's working folder.
func TestSandboxAttesterHelperBigCopy(t *testing.T) {
	if os.Getenv("OKF_ATTACK4_BIGCOPY") == "" {
		t.Skip("helper for TestSandboxSignalDuringCopy")
	}
	files := map[string]string{"s.sh": "#!/bin/sh\ncat >/dev/null\necho '{\"ok\": true, \"reason\": null, \"details\": {}}'\n"}
	filler := strings.Repeat("x", 8192)
	for d := range 40 {
		for f := range 100 {
			files[fmt.Sprintf("data/d%d/f%d.txt", d, f)] = filler
		}
	}
	attestIn(t, "s.sh", files, Options{Timeout: 20 * time.Second})
}

// TestSandboxSignalDuringCopy: okf stopped by SIGTERM while it copies the bundle into the
// attester's host working folder (before any attester runs) leaves that folder behind. The signal
// handler removes the folder while the copy goes on in another goroutine, which recreates folders
// and files in it (os.MkdirAll, copyConfined) until the re-raised signal ends okf; README says the
// folder is removed on SIGINT, SIGTERM or SIGHUP.
func TestSandboxSignalDuringCopy(t *testing.T) {
	needSandbox(t)
	for try := range 5 {
		tmp := t.TempDir()
		okf := exec.Command(os.Args[0], "-test.run=^TestSandboxAttesterHelperBigCopy$")
		okf.Env = append(os.Environ(), "OKF_ATTACK4_BIGCOPY=1", "TMPDIR="+tmp)
		okf.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := okf.Start(); err != nil {
			t.Fatal(err)
		}
		// Signal as soon as the copy has begun (its first folder of data exists).
		started := false
		for range 20000 {
			if m, _ := filepath.Glob(filepath.Join(tmp, "okf-attest-*", "bundle", "data", "d1")); len(m) > 0 {
				started = true
				break
			}
			time.Sleep(500 * time.Microsecond)
		}
		okf.Process.Signal(syscall.SIGTERM)
		err := okf.Wait()
		if !started {
			t.Logf("try %d: the copy was not seen under way", try)
			continue
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
			t.Logf("try %d: okf did not end by SIGTERM: %v", try, err)
		}
		if m, _ := filepath.Glob(filepath.Join(tmp, "okf-attest-*")); len(m) > 0 {
			n := 0
			filepath.WalkDir(m[0], func(string, os.DirEntry, error) error { n++; return nil })
			t.Fatalf("try %d: SIGTERM during the bundle's copy left the attester's working folder behind: %v (%d entries)", try, m, n)
		}
	}
}

// TestSandboxHostWideAIO: io_setup is allowed, and the kernel's pool of asynchronous I/O events
// (fs.aio-max-nr, 65,536 by default) is one for the whole machine, counted for no user and no
// namespace. The attester takes all of it; until it ends, every io_setup on the host (databases,
// QEMU, anything using Linux AIO) fails with EAGAIN. Measured from the CLI as root and as uid
// 1000: 64 contexts of 1,024 events, then EAGAIN inside and on the host.
func TestSandboxHostWideAIO(t *testing.T) {
	needSandbox(t)
	nr := map[string]int{"amd64": 206, "arm64": 0, "riscv64": 0}[runtime.GOARCH]
	if _, ok := map[string]bool{"amd64": true, "arm64": true, "riscv64": true}[runtime.GOARCH]; !ok {
		t.Skip("io_setup's number is not known here")
	}
	if b, err := os.ReadFile("/proc/sys/fs/aio-max-nr"); err != nil || len(strings.TrimSpace(string(b))) > 6 {
		t.Skip("fs.aio-max-nr is unknown or too large to take in a test")
	}
	runEscapes2(t, []escape2{{name: "io_setup takes the machine's AIO pool", py: fmt.Sprintf(`libc = ctypes.CDLL(None, use_errno=True)
for i in range(1024):
    ctx = ctypes.c_ulong(0)
    if libc.syscall(%d, 1024, ctypes.byref(ctx)) < 0:
        break
ctx = ctypes.c_ulong(0)
if libc.syscall(%d, 1, ctypes.byref(ctx)) == 0 or ctypes.get_errno() != 11:
    raise OSError(ctypes.get_errno(), "the pool is not exhausted")`, nr, nr)}})
}

// TestSandboxHostFileLocks: the read-only bind mounts are the host's own files, and flock (or a
// read lock with fcntl) needs only a descriptor open for reading: the attester locks the host's
// /etc/ld.so.cache (any file under /usr, the Python prefixes) and every host process that locks
// the same file waits, or fails with LOCK_NB, for as long as the attester runs.
func TestSandboxHostFileLocks(t *testing.T) {
	needSandbox(t)
	const target = "/etc/ld.so.cache"
	if _, err := os.Stat(target); err != nil {
		t.Skip(target + " is missing")
	}
	var busy atomic.Bool
	runEscapes2(t, []escape2{{
		name: "flock on a host file through a read-only mount",
		py: `import fcntl, time
f = open("` + target + `", "rb")
fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
time.sleep(1.5)`,
		before: func(t *testing.T) func() {
			busy.Store(false)
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				for range 400 { // at most 400 x 50 ms
					select {
					case <-stop:
						return
					default:
					}
					if f, err := os.Open(target); err == nil {
						if syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) == syscall.EWOULDBLOCK {
							busy.Store(true)
						} else {
							syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
						}
						f.Close()
					}
					time.Sleep(50 * time.Millisecond)
				}
			}()
			return func() { close(stop); <-done }
		},
		check: func(t *testing.T, sandboxed bool) {
			if sandboxed && busy.Load() {
				t.Errorf("the host could not lock %s while the sandboxed attester held it", target)
			}
		},
	}})
}

// TestSandboxSocketBuffersBeyondBudget: the buffers of an AF_UNIX socketpair (allowed) and of
// pipes are kernel memory that neither the private /tmp's size nor RLIMIT_AS counts: one process of
// 256 descriptors holds about 46 MiB in 100 socketpairs (measured from the CLI as root and as uid
// 1000) and 27 MiB more in pipes; 128 processes some 7 GiB. Without a memory cgroup okf cannot
// count them, and denying socketpair and pipe breaks interpreters, so README states the bound
// there is: processes (RLIMIT_NPROC) x descriptors (RLIMIT_NOFILE) x a socket or pipe's buffer.
// This test holds the sandbox to the descriptor factor of that bound: one process cannot hold more
// than LimitOpenFiles descriptors of socketpairs (so of buffers), where unconfined it can.
func TestSandboxSocketBuffersBeyondBudget(t *testing.T) {
	needSandbox(t)
	runEscapes2(t, []escape2{{
		name: "more socketpairs than RLIMIT_NOFILE",
		py: fmt.Sprintf(`held = []
while len(held) < %d:
    held.append(socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM))`, LimitOpenFiles/2+8),
	}})
}

// TestSandboxIgnoredHangupKeepsAttester: okf started with SIGHUP ignored (nohup, a job started by
// a runner that ignores it) is asked to go on when the terminal closes. It does go on, but its
// handler kills the attester anyway (an error result: "exited with status 137") and removes its
// folder: the signal does not "do what it would have done". The design: a signal okf was started
// with ignored is not caught at all, so the attester runs on to its verdict.
func TestSandboxIgnoredHangupKeepsAttester(t *testing.T) {
	needSandbox(t)
	tmp := t.TempDir()
	okf := exec.Command("/bin/sh", "-c", `trap "" HUP; exec "$0" -test.run='^TestSandboxAttesterHelperSleeper$'`, os.Args[0])
	okf.Env = append(os.Environ(), "OKF_ATTACK3_SLEEPER=sh", "TMPDIR="+tmp)
	okf.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := okf.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Kill(-okf.Process.Pid, syscall.SIGKILL)
		okf.Wait()
		for _, pid := range waitGone("sleep", "273") {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}()
	if len(waitFound("sleep", "273")) == 0 {
		t.Skip("the attester did not start")
	}
	okf.Process.Signal(syscall.SIGHUP)
	time.Sleep(1500 * time.Millisecond) // okf's handler holds its lock a second after re-raising
	if len(survivors("sleep", "273")) == 0 {
		t.Errorf("okf ignores SIGHUP, yet a SIGHUP killed its attester")
	}
}

// TestSandboxAttesterForgesLauncherFailure: the launcher says it failed by exiting 125 with a line
// starting "okf sandbox: " on stderr, the attester's own stderr. An attester that ran, confined,
// writes that line and exits 125: okf reports that the sandbox could not start it, with the
// attester's words as the cause (here a made-up missing layer and an invitation to
// --unsafe-no-sandbox), a lie about the run that asks the user to turn the sandbox off.
func TestSandboxAttesterForgesLauncherFailure(t *testing.T) {
	needSandbox(t)
	r, _ := attestIn(t, "forge.sh", map[string]string{"forge.sh": "#!/bin/sh\ncat >/dev/null\n" +
		"echo 'okf sandbox: landlock: not available; pass --unsafe-no-sandbox to run it' >&2\nexit 125\n"},
		Options{Timeout: 20 * time.Second})
	if strings.Contains(deref(r.Reason), "sandbox could not start") {
		t.Errorf("an attester that ran made okf report a sandbox failure: %q", deref(r.Reason))
	}
}

// TestSandboxDatagramToNamedSocket: seccomp denies socket() but allows an AF_UNIX socketpair, and
// a datagram socket from one is not bound to its peer for sending: sendto() with a path reaches any
// named datagram socket the attester can see (connect() re-targets it too). Here a host service's
// socket under a read-only path (a Python prefix, an attester's folder outside the bundle, any
// folder mounted for the attester) receives the attester's datagram.
func TestSandboxDatagramToNamedSocket(t *testing.T) {
	needSandbox(t)
	py, err := filepath.EvalSymlinks("/usr/bin/python3")
	if err != nil {
		t.Skip("no /usr/bin/python3")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	openDirs(t, dir)
	sock := filepath.Join(dir, "service.sock")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_DGRAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: sock}); err != nil {
		t.Fatal(err)
	}
	os.Chmod(sock, 0o777)
	syscall.SetNonblock(fd, true)
	tmp := t.TempDir()
	script := `import socket
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
a.sendto(b"escaped", "` + sock + `")
print("sent")`
	cmd, err := sandboxCommand([]string{py, "-I", "-c", script}, "/", tmp, []string{"PATH=/usr/bin:/bin"}, []string{dir}, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer closeExtra(cmd)
	out, _ := cmd.CombinedOutput()
	buf := make([]byte, 64)
	n, _, err := syscall.Recvfrom(fd, buf, 0)
	if err == nil && string(buf[:n]) == "escaped" {
		t.Errorf("the sandboxed attester sent a datagram to the host's named socket %s (output %q)", sock, out)
	} else {
		t.Logf("blocked: %q", out)
	}
}

// TestSandboxAttesterHelperPartialCopy is not a test: TestSandboxSignalDuringCopyPartialBundle runs
// it with SIGHUP ignored and signals it while okf copies the bundle.
func TestSandboxAttesterHelperPartialCopy(t *testing.T) {
	if os.Getenv("OKF_ATTACK4_PARTIAL") == "" {
		t.Skip("helper for TestSandboxSignalDuringCopyPartialBundle")
	}
	files := map[string]string{"zz/count.sh": "#!/bin/sh\ncat >/dev/null\nn=$(find . -name '*.txt' | wc -l)\n" +
		"echo \"{\\\"ok\\\": true, \\\"reason\\\": \\\"$n\\\", \\\"details\\\": {}}\"\n"}
	filler := strings.Repeat("x", 8192)
	for d := range 40 {
		for f := range 100 {
			files[fmt.Sprintf("data/d%d/f%d.txt", d, f)] = filler
		}
	}
	r, _ := attestIn(t, "zz/count.sh", files, Options{Timeout: 20 * time.Second})
	fmt.Printf("RESULT %s %s\n", r.Outcome, deref(r.Reason))
}

// TestSandboxSignalDuringCopyPartialBundle: okf that lives on after the signal (SIGHUP ignored
// under nohup, or a program with its own handler) has had the attester's folder removed under the
// copy, which goes on and fills it again: the attester then runs on a bundle with files missing,
// and its verdict is reported as the bundle's (measured from the CLI: pass, "saw 2853 of 4000 data
// files", exit 0). With SIGHUP ignored at start it is not caught now, so the copy is whole; the
// case of a program that lives on through its own handler is TestSandboxSignalDuringCopyOwnHandler.
func TestSandboxSignalDuringCopyPartialBundle(t *testing.T) {
	needSandbox(t)
	for try := range 5 {
		tmp := t.TempDir()
		okf := exec.Command("/bin/sh", "-c", `trap "" HUP; exec "$0" -test.run='^TestSandboxAttesterHelperPartialCopy$' -test.v`, os.Args[0])
		okf.Env = append(os.Environ(), "OKF_ATTACK4_PARTIAL=1", "TMPDIR="+tmp)
		var out strings.Builder
		okf.Stdout = &out
		if err := okf.Start(); err != nil {
			t.Fatal(err)
		}
		for range 20000 {
			if m, _ := filepath.Glob(filepath.Join(tmp, "okf-attest-*", "bundle", "data", "d1")); len(m) > 0 {
				break
			}
			time.Sleep(500 * time.Microsecond)
		}
		okf.Process.Signal(syscall.SIGHUP)
		okf.Wait()
		for _, l := range strings.Split(out.String(), "\n") {
			if f := strings.Fields(l); len(f) == 3 && f[0] == "RESULT" && f[1] == "pass" && f[2] != "4000" {
				t.Fatalf("try %d: the attester ran on a partial copy (%s of 4000 data files) and passed", try, f[2])
			}
		}
	}
}

// TestSandboxAttesterHelperOwnHandler is not a test: TestSandboxSignalDuringCopyOwnHandler runs it
// as a program with its own SIGTERM handler, and signals it while okf copies the bundle.
func TestSandboxAttesterHelperOwnHandler(t *testing.T) {
	if os.Getenv("OKF_ATTACK5_OWNHANDLER") == "" {
		t.Skip("helper for TestSandboxSignalDuringCopyOwnHandler")
	}
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGTERM) // the program lives on after okf's handler re-raises it
	TestSandboxAttesterHelperPartialCopy(t)
}

// TestSandboxSignalDuringCopyOwnHandler: a program that handles SIGTERM itself lives on after okf's
// handler; the run the signal interrupted (its copy stopped, its folder removed) must be an error
// that says so, never a verdict on a partial bundle, and the folder must not come back.
func TestSandboxSignalDuringCopyOwnHandler(t *testing.T) {
	needSandbox(t)
	seen := false
	for try := range 5 {
		tmp := t.TempDir()
		okf := exec.Command(os.Args[0], "-test.run=^TestSandboxAttesterHelperOwnHandler$", "-test.v")
		okf.Env = append(os.Environ(), "OKF_ATTACK5_OWNHANDLER=1", "OKF_ATTACK4_PARTIAL=1", "TMPDIR="+tmp)
		var out strings.Builder
		okf.Stdout = &out
		if err := okf.Start(); err != nil {
			t.Fatal(err)
		}
		started := false
		for range 20000 {
			if m, _ := filepath.Glob(filepath.Join(tmp, "okf-attest-*", "bundle", "data", "d1")); len(m) > 0 {
				started = true
				break
			}
			time.Sleep(500 * time.Microsecond)
		}
		okf.Process.Signal(syscall.SIGTERM)
		okf.Wait()
		if !started {
			continue
		}
		for _, l := range strings.Split(out.String(), "\n") {
			f := strings.Fields(l)
			if len(f) < 2 || f[0] != "RESULT" {
				continue
			}
			if f[1] == "pass" && (len(f) < 3 || f[2] != "4000") {
				t.Fatalf("try %d: the attester ran on a partial copy and passed: %q", try, l)
			}
			if f[1] == "error" && strings.Contains(l, "interrupted by terminated") {
				seen = true
			}
		}
		if m, _ := filepath.Glob(filepath.Join(tmp, "okf-attest-*")); len(m) > 0 {
			t.Fatalf("try %d: the interrupted run's working folder is still there: %v", try, m)
		}
	}
	if !seen {
		t.Skip("the copy was never interrupted under way")
	}
}
