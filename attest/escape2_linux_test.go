//go:build linux

package attest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// pyEscape is a Python attester that runs body (statements that raise when the attempt fails) and
// reports pass when it succeeded ("escaped") and fail when it did not ("blocked").
func pyEscape(body string) string {
	var b strings.Builder
	b.WriteString("import os, socket, sys, ctypes, platform\n\ndef attest(**_):\n    try:\n")
	for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
		b.WriteString("        " + l + "\n")
	}
	b.WriteString("        return {'ok': True, 'reason': 'escaped', 'details': {}}\n")
	b.WriteString("    except BaseException as e:\n        return {'ok': False, 'reason': 'blocked', 'details': {'error': repr(e)}}\n")
	return b.String()
}

// testUID is the identity the tests give a sandboxed attester when okf runs as root, so a file
// outside can be given to that user (the attacker owns it, as the metadata class says).
const testUID = 1879048200

// openDirs makes every folder above p searchable, so only the sandbox (not file modes) stands
// between an attester running as another user and p.
func openDirs(t *testing.T, p string) {
	t.Helper()
	for d := filepath.Dir(p); d != "/" && d != "."; d = filepath.Dir(d) {
		if strings.HasPrefix(d, os.TempDir()) || strings.HasPrefix(d, "/tmp") {
			os.Chmod(d, 0o755)
		}
	}
}

type escape2 struct {
	name string
	// sh is a shell condition (an executable attester); py a Python body (a Python attester).
	sh, py string
	// before runs before each run and returns what undoes it.
	before func(t *testing.T) func()
	// check inspects the world after each run.
	check func(t *testing.T, sandboxed bool)
	// killed: the sandbox kills the attempt (an error result) rather than failing it.
	killed bool
}

func runEscapes2(t *testing.T, cases []escape2) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.py != "" && !PythonAvailable() {
				t.Skip("python3 is not available")
			}
			for _, sandboxed := range []bool{true, false} {
				var undo func()
				if c.before != nil {
					undo = c.before(t)
				}
				opts := Options{Timeout: 20 * time.Second, unconfined: !sandboxed}
				files := map[string]string{}
				res := ""
				if c.py != "" {
					res = "escape.py"
					files[res] = pyEscape(c.py)
				} else {
					res = "escape.sh"
					files[res] = escapeScript(c.sh)
				}
				r, _ := attestInDir(t, res, files, opts, nil, true)
				if undo != nil {
					undo()
				}
				want := Fail
				if !sandboxed {
					want = Pass
				} else if c.killed {
					want = Error
				}
				if !sandboxed && c.killed && r.Outcome != Pass {
					t.Skipf("the attempt does not work here even unconfined: %s (%s) %q", r.Outcome, deref(r.Reason), r.StderrTail)
				}
				if r.Outcome != want {
					t.Errorf("sandboxed=%v: got %s (%s), details %s, stderr %q; want %s", sandboxed, r.Outcome, deref(r.Reason), r.Details, r.StderrTail, want)
				}
				if c.check != nil {
					c.check(t, sandboxed)
				}
			}
		})
	}
}

// TestSandboxEscapesBeyondLandlock tries what Landlock alone does not confine (issue 24): named
// Unix sockets and socket families it does not scope, file metadata outside, descriptors okf
// inherited, the session keyring, and the disk. Each attempt is also run unconfined, where it must
// succeed, so the test proves something.
func TestSandboxEscapesBeyondLandlock(t *testing.T) {
	needSandbox(t)
	beyondLandlock(t)
}

// TestSandboxEscapesRootWithoutUserNS runs every escape as a root okf does where user namespaces
// are disabled: the launcher is real root in the other namespaces, builds the root, and becomes
// the fresh uid before anything of the attester runs.
func TestSandboxEscapesRootWithoutUserNS(t *testing.T) {
	needSandbox(t)
	if os.Geteuid() != 0 {
		t.Skip("only a root okf runs attesters without a user namespace")
	}
	saved := isoNS
	isoNS = nsFlags
	defer func() { isoNS = saved }()
	if why := probe(nsFlags); why != "" {
		t.Fatalf("the sandbox cannot be built without a user namespace: %s", why)
	}
	t.Run("Landlock's", testEscapes)
	t.Run("beyond Landlock", beyondLandlock)
}

func beyondLandlock(t *testing.T) {
	savedUID := freshUID
	freshUID = func() int { return testUID }
	defer func() { freshUID = savedUID }()
	savedBudget := diskBudget
	diskBudget = 8 << 20
	defer func() { diskBudget = savedBudget }()

	outside := t.TempDir()
	openDirs(t, outside)
	os.Chmod(outside, 0o755)
	owner := os.Geteuid()
	if owner == 0 {
		owner = testUID
	}

	// A named stream socket, a named datagram socket and a UDP port, as a container runtime or a
	// syslog daemon would offer.
	streamPath := filepath.Join(outside, "runtime.sock")
	sl, err := net.Listen("unix", streamPath)
	if err != nil {
		t.Fatal(err)
	}
	defer sl.Close()
	os.Chmod(streamPath, 0o777)
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := sl.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	dgramPath := filepath.Join(outside, "log.sock")
	dl, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: dgramPath, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer dl.Close()
	os.Chmod(dgramPath, 0o777)
	udp, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	received := func(c net.PacketConn) bool {
		c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		buf := make([]byte, 64)
		_, _, err := c.ReadFrom(buf)
		return err == nil
	}
	noneAccepted := func(t *testing.T, sandboxed bool) {
		select {
		case <-accepted:
			if sandboxed {
				t.Error("the named socket outside accepted a connection from the sandboxed attester")
			}
		case <-time.After(300 * time.Millisecond):
		}
	}

	// A file outside the attester's folder that its own user owns.
	meta := filepath.Join(outside, "owned.txt")
	stamp := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	resetMeta := func(t *testing.T) func() {
		os.Remove(meta)
		if err := os.WriteFile(meta, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(meta, stamp, stamp)
		if err := os.Chown(meta, owner, owner); err != nil && os.Geteuid() == 0 {
			t.Fatal(err)
		}
		return nil
	}
	metaUnchanged := func(what string, changed func(st os.FileInfo) bool) func(t *testing.T, sandboxed bool) {
		return func(t *testing.T, sandboxed bool) {
			st, err := os.Stat(meta)
			if err != nil {
				t.Fatal(err)
			}
			if sandboxed && changed(st) {
				t.Errorf("the sandboxed attester changed the %s of a file outside", what)
			}
		}
	}

	secretFile := filepath.Join(t.TempDir(), "fd-secret")
	if err := os.WriteFile(secretFile, []byte("secret-fd-marker\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	cases := []escape2{
		{name: "connect to a named Unix socket outside",
			py:    "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\ns.connect(" + fmt.Sprintf("%q", streamPath) + ")",
			check: noneAccepted},
		{name: "datagram to a named Unix socket outside through a socketpair",
			py: "a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)\na.sendto(b'x', " + fmt.Sprintf("%q", dgramPath) + ")",
			check: func(t *testing.T, sandboxed bool) {
				if received(dl) && sandboxed {
					t.Error("the named datagram socket outside received a message from the sandboxed attester")
				}
			}},
		{name: "UDP datagram to 127.0.0.1",
			py: fmt.Sprintf("s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.sendto(b'x', ('127.0.0.1', %d))", udp.LocalAddr().(*net.UDPAddr).Port),
			check: func(t *testing.T, sandboxed bool) {
				if received(udp) && sandboxed {
					t.Error("the UDP port outside received a datagram from the sandboxed attester")
				}
			}},
		{name: "open a netlink socket",
			py: "s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)\ns.bind((0, 0))"},
		{name: "open a socket of any family but a Unix pair",
			py: "ok = []\nfor fam, typ in [(socket.AF_INET, socket.SOCK_STREAM), (socket.AF_INET6, socket.SOCK_DGRAM), (socket.AF_UNIX, socket.SOCK_STREAM), (socket.AF_NETLINK, socket.SOCK_DGRAM), (getattr(socket, 'AF_VSOCK', 40), socket.SOCK_STREAM), (getattr(socket, 'AF_PACKET', 17), socket.SOCK_DGRAM)]:\n" +
				"    try:\n        socket.socket(fam, typ).close()\n        ok.append(fam)\n    except OSError:\n        pass\nassert ok, 'no family'"},
		{name: "chmod a file it owns outside", sh: "chmod 600 " + meta + " 2>/dev/null",
			before: resetMeta, check: metaUnchanged("mode", func(st os.FileInfo) bool { return st.Mode().Perm() != 0o644 })},
		{name: "utime a file it owns outside", sh: "touch -m -d @1 " + meta + " 2>/dev/null",
			before: resetMeta, check: metaUnchanged("modification time", func(st os.FileInfo) bool { return !st.ModTime().Equal(stamp) })},
		{name: "set an xattr on a file it owns outside", py: "os.setxattr(" + fmt.Sprintf("%q", meta) + ", 'user.okf', b'escaped')",
			before: resetMeta, check: func(t *testing.T, sandboxed bool) {
				buf := make([]byte, 64)
				if n, err := unix.Getxattr(meta, "user.okf", buf); err == nil && sandboxed {
					t.Errorf("the sandboxed attester set an xattr on a file outside: %q", buf[:n])
				}
			}},
		{name: "chown a file it owns outside", sh: fmt.Sprintf("chown %d:0 %s 2>/dev/null || chgrp 0 %s 2>/dev/null", owner, meta, meta),
			before: func(t *testing.T) func() {
				resetMeta(t)
				if os.Geteuid() != 0 {
					t.Skip("a user other than root cannot give a file to a group it is not in")
				}
				return nil
			},
			check: metaUnchanged("group", func(st os.FileInfo) bool { return st.Sys().(*syscall.Stat_t).Gid != uint32(owner) })},
		{name: "read a descriptor okf inherited, whatever its number",
			py: "found = []\nfor fd in range(3, 1024):\n    try:\n        if b'secret-fd-marker' in os.pread(fd, 64, 0):\n            found.append(fd)\n    except OSError:\n        pass\nassert found, 'no descriptor'",
			before: func(t *testing.T) func() {
				f, err := os.Open(secretFile)
				if err != nil {
					t.Fatal(err)
				}
				// Without close-on-exec, as a file the CI shell opened (`exec 9<file`) reaches okf.
				if _, err := unix.FcntlInt(f.Fd(), unix.F_SETFD, 0); err != nil {
					t.Fatal(err)
				}
				return func() { f.Close() }
			}},
		{name: "read a key in okf's session keyring",
			py: "libc = ctypes.CDLL(None, use_errno=True)\nnr = {'x86_64': (249, 250), 'aarch64': (218, 219)}[platform.machine()]\n" +
				"kid = libc.syscall(nr[0], b'user', b'okf-escape-key', None, 0)\nassert kid > 0, 'request_key: %d' % ctypes.get_errno()\n" +
				"buf = ctypes.create_string_buffer(64)\nn = libc.syscall(nr[1], 11, kid, buf, 64)\nassert n > 0 and b'keyring-secret' in buf.raw, 'keyctl read'",
			before: func(t *testing.T) func() {
				// Credentials, the session keyring among them, are per thread: the key is added, and
				// the attester started, from this one thread, as a process's only thread would.
				runtime.LockOSThread()
				id, err := unix.AddKey("user", "okf-escape-key", []byte("keyring-secret"), unix.KEY_SPEC_SESSION_KEYRING)
				if err != nil {
					runtime.UnlockOSThread()
					t.Skip("cannot add a key to the session keyring:", err)
				}
				return func() {
					unix.KeyctlInt(unix.KEYCTL_REVOKE, id, 0, 0, 0)
					runtime.UnlockOSThread()
				}
			}},
		{name: "a 32-bit system call from a 64-bit process", killed: true,
			// getpid through int 0x80 (the i386 entry), from executable memory.
			py: "import mmap\nassert platform.machine() == 'x86_64', 'not x86_64'\n" +
				"m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n" +
				"m.write(b'\\xb8\\x14\\x00\\x00\\x00\\xcd\\x80\\xc3')\n" +
				"addr = ctypes.addressof(ctypes.c_char.from_buffer(m))\n" +
				"pid = ctypes.CFUNCTYPE(ctypes.c_int)(addr)()\nassert pid > 0, 'int 0x80: %d' % pid"},
		{name: "write more than the disk budget into memory files",
			py: "fds = [os.memfd_create('f%d' % i) for i in range(4)]\nfor fd in fds:\n    assert os.write(fd, bytes(4 << 20)) == 4 << 20"},
		{name: "make a user namespace to undo the sandbox", sh: "unshare -U -r true 2>/dev/null"},
		{name: "write more than the disk budget in files under the per-file limit",
			sh: "( for i in 1 2 3 4; do head -c 4194304 /dev/zero > \"$HOME/f$i\" || exit 1; done ) 2>/dev/null"},
	}
	runEscapes2(t, cases)
}

// TestSandboxNeverRoot: whatever the interpreter and wherever okf's binary lives, the attester
// never runs as uid 0 on the host, and its uid is not one another process on the machine uses
// (which could read its environment through /proc).
func TestSandboxNeverRoot(t *testing.T) {
	needSandbox(t)
	kinds := map[string]map[string]string{
		"executable": {"who.sh": "#!/bin/sh\ncat >/dev/null\nsleep 4252\necho '{\"ok\": true, \"reason\": null, \"details\": {}}'\n"},
	}
	if PythonAvailable() {
		kinds["python"] = map[string]string{"who.py": "import subprocess\ndef attest(**_):\n    subprocess.run(['sleep', '4252'])\n    return {'ok': True, 'reason': None, 'details': {}}\n"}
	}
	for kind, files := range kinds {
		t.Run(kind, func(t *testing.T) {
			res := "who.sh"
			if kind == "python" {
				res = "who.py"
			}
			found := make(chan [2]int, 1)
			go func() {
				pids := waitFound("sleep", "4252")
				if len(pids) == 0 {
					found <- [2]int{-1, -1}
					return
				}
				found <- [2]int{pids[0], procUID(pids[0])}
				syscall.Kill(pids[0], syscall.SIGKILL)
			}()
			r, _ := attestIn(t, res, files, Options{Timeout: 20 * time.Second})
			got := <-found
			if got[0] < 0 {
				t.Fatalf("the attester's child never ran: %s (%s), stderr %q", r.Outcome, deref(r.Reason), r.StderrTail)
			}
			if got[1] == 0 {
				t.Errorf("the %s attester ran as uid 0 on the host", kind)
			}
			if os.Geteuid() == 0 {
				for _, p := range allPIDs() {
					if p != got[0] && procUID(p) == got[1] && !sameSandbox(p, got[0]) {
						t.Errorf("the attester's uid %d is shared with process %d outside its sandbox", got[1], p)
						break
					}
				}
			}
		})
	}
}

func allPIDs() []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// procUID is the real uid of process pid on the host (-1 when unknown).
func procUID(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		var uid int
		if _, err := fmt.Sscanf(l, "Uid:\t%d", &uid); err == nil {
			return uid
		}
	}
	return -1
}

// sameSandbox reports whether two processes share a PID namespace (the attester's own children).
func sameSandbox(a, b int) bool {
	na, err1 := os.Readlink(fmt.Sprintf("/proc/%d/ns/pid", a))
	nb, err2 := os.Readlink(fmt.Sprintf("/proc/%d/ns/pid", b))
	return err1 == nil && err2 == nil && na == nb
}

// TestSandboxNoSecretInArgv: what okf passes the launcher (the --env values, the whole spec) is
// not on a command line or in an environment, which any local user can read in /proc.
func TestSandboxNoSecretInArgv(t *testing.T) {
	needSandbox(t)
	tmp := t.TempDir()
	cmd, err := sandboxCommand([]string{"/bin/true"}, tmp, tmp, []string{"OKF_TOKEN=argv-secret-value"}, nil, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer closeExtra(cmd)
	for _, s := range append(append([]string{}, cmd.Args...), cmd.Env...) {
		if strings.Contains(s, "argv-secret-value") || strings.Contains(s, "/bin/true") {
			t.Errorf("the launcher's command line or environment carries the spec: %q", s)
		}
	}
}

// TestSandboxWorkFolderRemoved: whatever the attester does to its working folder (modes that lock
// its owner out, attributes only root can clear), nothing of it stays on the host, and where okf
// cannot remove it (an unconfined run), the result says so instead of passing.
func TestSandboxWorkFolderRemoved(t *testing.T) {
	needSandbox(t)
	lock := "mkdir -p \"$HOME/d/e\" && echo x > \"$HOME/d/e/f\" && echo x > \"$TMPDIR/g\" && " +
		"{ chattr +i \"$TMPDIR/g\" 2>/dev/null; chmod 000 \"$HOME/d/e\" \"$HOME/d\"; true; }"
	for _, sandboxed := range []bool{true, false} {
		tmpdir := t.TempDir()
		t.Setenv("TMPDIR", tmpdir)
		r, _ := attestIn(t, "lock.sh", map[string]string{"lock.sh": escapeScript(lock)}, Options{Timeout: 20 * time.Second, unconfined: !sandboxed})
		left, _ := os.ReadDir(tmpdir)
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		failed := r.Outcome == Error && strings.Contains(deref(r.Reason), "cannot remove the attester's working folder")
		switch {
		case sandboxed && (len(left) > 0 || r.Outcome != Pass):
			t.Errorf("sandboxed: result %s (%s), stderr %q, left on the host %v; want a pass and nothing left", r.Outcome, deref(r.Reason), r.StderrTail, names)
		case !sandboxed && len(left) > 0 && !failed:
			t.Errorf("unconfined: the working folder %v stayed and the result is %s (%s): a failed cleanup must be an error", names, r.Outcome, deref(r.Reason))
		}
		// Undo what the unconfined run could do, so the test's own cleanup works.
		exec.Command("chattr", "-R", "-i", tmpdir).Run()
		exec.Command("chmod", "-R", "u+rwx", tmpdir).Run()
	}
}

// TestSandboxMissingLayer: when the machine lacks one of the sandbox's layers, an external
// attester is unavailable with a reason naming it, and runs only with UnsafeNoSandbox.
func TestSandboxMissingLayer(t *testing.T) {
	needSandbox(t)
	saved := iso
	defer func() { iso = saved }()
	iso.Seccomp = false
	iso.Why = "seccomp: not available (test)"
	r, _ := attestIn(t, "ok.sh", map[string]string{"ok.sh": escapeScript("true")}, Options{})
	if r.Outcome != Unavailable || !strings.Contains(deref(r.Reason), "seccomp") {
		t.Errorf("got %s (%s); want unavailable naming seccomp", r.Outcome, deref(r.Reason))
	}
	r, _ = attestIn(t, "ok.sh", map[string]string{"ok.sh": escapeScript("true")}, Options{UnsafeNoSandbox: true})
	if r.Outcome != Pass {
		t.Errorf("with UnsafeNoSandbox: got %s (%s), want pass", r.Outcome, deref(r.Reason))
	}
}
