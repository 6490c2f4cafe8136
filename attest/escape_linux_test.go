//go:build linux

package attest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// escapeScript is an attester that tries attempt (a shell condition) and reports pass when it
// succeeded ("escaped") and fail when it did not ("blocked").
func escapeScript(attempt string) string {
	return "#!/bin/sh\ncat >/dev/null\nif " + attempt + "; then\n" +
		`  echo '{"ok": true, "reason": "escaped", "details": {}}'` + "\nelse\n" +
		`  echo '{"ok": false, "reason": "blocked", "details": {}}'` + "\nfi\n"
}

// survivors lists the processes whose command line is exactly argv.
func survivors(argv ...string) []int {
	want := []byte(strings.Join(argv, "\x00") + "\x00")
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && bytes.Equal(b, want) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitGone polls until no process runs argv (the kernel may still be tearing a namespace down).
func waitGone(argv ...string) []int {
	deadline := time.Now().Add(3 * time.Second)
	for {
		p := survivors(argv...)
		if len(p) == 0 || time.Now().After(deadline) {
			return p
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitFound polls until a process runs argv (an unconfined child may not have exec'd yet).
func waitFound(argv ...string) []int {
	deadline := time.Now().Add(3 * time.Second)
	for {
		p := survivors(argv...)
		if len(p) > 0 || time.Now().After(deadline) {
			return p
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func needSandbox(t *testing.T) Isolation {
	t.Helper()
	is := MachineIsolation()
	if !is.Sandboxed() {
		// CI sets OKF_REQUIRE_SANDBOX: there, a machine without the sandbox (a container under a
		// seccomp profile that denies namespaces) must fail the run, not skip every escape test.
		if os.Getenv("OKF_REQUIRE_SANDBOX") != "" {
			t.Fatal("OKF_REQUIRE_SANDBOX is set, but this machine has no sandbox:", is.Why)
		}
		t.Skip("no sandbox on this machine:", is.Why)
	}
	return is
}

// TestSandboxEscapes tries each way out of the sandbox issue 9 lists. Each attempt runs twice: in
// the sandbox, where it must be blocked, and (as a control proving the attempt works) unconfined
// with UnsafeNoSandbox, where it must succeed.
func TestSandboxEscapes(t *testing.T) {
	needSandbox(t)
	testEscapes(t)
}

func testEscapes(t *testing.T) {
	_ = MachineIsolation()
	// A process holding a secret in its environment, as okf's parent (the CI job) would.
	holder := exec.Command("sleep", "30")
	holder.Env = append(os.Environ(), "OKF_ESCAPE_SECRET=s3cret-escape-value")
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { holder.Process.Kill(); holder.Wait() }()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "private.txt"), []byte("outside-marker\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	bash, _ := exec.LookPath("bash")

	cases := []struct {
		name    string
		attempt string
		// check, when set, inspects the world after the run; it gets the bundle folder.
		check func(t *testing.T, bundle string, sandboxed bool)
		skip  string
		// started: the attempt itself succeeds in both runs; check says whether it escaped.
		started bool
	}{
		{name: "parent environment via /proc/PID/environ",
			attempt: fmt.Sprintf("grep -a -q OKF_ESCAPE_SECRET=s3cret-escape-value /proc/%d/environ 2>/dev/null", holder.Process.Pid)},
		{name: "read /etc/passwd", attempt: "grep -q '^root:' /etc/passwd 2>/dev/null"},
		{name: "read a file outside", attempt: "grep -q outside-marker " + filepath.Join(outside, "private.txt") + " 2>/dev/null"},
		{name: "write outside", attempt: "echo x > " + filepath.Join(outside, "written") + " 2>/dev/null",
			check: func(t *testing.T, _ string, sandboxed bool) {
				_, err := os.Stat(filepath.Join(outside, "written"))
				if sandboxed && err == nil {
					t.Error("the sandboxed attester created a file outside its folder")
				}
				os.Remove(filepath.Join(outside, "written"))
			}},
		{name: "append to the original bundle file", attempt: "echo appended >> \"$OKF_TEST_BUNDLE/c.md\" 2>/dev/null",
			check: func(t *testing.T, bundle string, sandboxed bool) {
				b, _ := os.ReadFile(filepath.Join(bundle, "c.md"))
				if sandboxed && bytes.Contains(b, []byte("appended")) {
					t.Error("the sandboxed attester appended to the original c.md")
				}
			}},
		{name: "TCP connection to 127.0.0.1", attempt: fmt.Sprintf("%s -c 'echo hi > /dev/tcp/127.0.0.1/%d' 2>/dev/null", bash, port),
			skip: map[bool]string{true: "bash is not installed (the attempt uses /dev/tcp)"}[bash == ""],
			check: func(t *testing.T, _ string, sandboxed bool) {
				select {
				case <-accepted:
					if sandboxed {
						t.Error("the listener accepted a connection from the sandboxed attester")
					}
				case <-time.After(200 * time.Millisecond):
				}
			}},
		{name: "setsid child outlives the attester", attempt: "(setsid sleep 4243 </dev/null >/dev/null 2>&1 &); sleep 1", started: true, // the pause lets setsid leave the group before the attester exits
			check: func(t *testing.T, _ string, sandboxed bool) {
				var left []int
				if sandboxed {
					left = waitGone("sleep", "4243")
				} else {
					left = waitFound("sleep", "4243")
				}
				if sandboxed && len(left) > 0 {
					t.Errorf("processes %v started by the sandboxed attester with setsid are still running", left)
				}
				for _, p := range left {
					syscall.Kill(p, syscall.SIGKILL)
				}
				if !sandboxed && len(left) == 0 {
					t.Error("control: the unconfined setsid child did not survive, so this case proves nothing")
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.skip != "" {
				t.Skip(c.skip)
			}
			for _, sandboxed := range []bool{true, false} {
				opts := Options{Timeout: 20 * time.Second, unconfined: !sandboxed, Env: []string{"OKF_TEST_BUNDLE"}}
				var bundle string
				opts.Getenv = func(k string) string {
					if k == "OKF_TEST_BUNDLE" {
						return bundle
					}
					return os.Getenv(k)
				}
				res, dir := attestInDir(t, "escape.sh", map[string]string{"escape.sh": escapeScript(c.attempt)}, opts, func(d string) { bundle = d }, sandboxed)
				want := Fail
				if !sandboxed || c.started {
					want = Pass
				}
				if res.Outcome != want {
					t.Errorf("sandboxed=%v: got %s (%s), stderr %q; want %s", sandboxed, res.Outcome, deref(res.Reason), res.StderrTail, want)
				}
				if c.check != nil {
					c.check(t, dir, sandboxed)
				}
			}
		})
	}
}

// TestSandboxForkBomb starts far more processes than the limit allows: the run ends, none of them
// outlives it, and where the process limit applies (a user namespace, as a user other than root)
// the attester could not start them all.
func TestSandboxForkBomb(t *testing.T) {
	is := needSandbox(t)
	if !is.PIDNS {
		t.Skip("no PID namespace here: the processes would not be bounded or reaped by the sandbox")
	}
	// Progress goes to stderr, so the count survives the shell dying when fork fails.
	script := "#!/bin/sh\ncat >/dev/null\necho \"limit $(ulimit -p 2>/dev/null || ulimit -u)\" >&2\nn=0\n" +
		"while [ $n -lt 400 ]; do\n  sleep 4244 2>/dev/null &\n  n=$((n+1))\n  echo \"started $n\" >&2\ndone\n" +
		`echo '{"ok": false, "reason": "all started", "details": {}}'` + "\n"
	res, _ := attestIn(t, "bomb.sh", map[string]string{"bomb.sh": script}, Options{Timeout: 20 * time.Second})
	if left := waitGone("sleep", "4244"); len(left) > 0 {
		for _, p := range left {
			syscall.Kill(p, syscall.SIGKILL)
		}
		t.Fatalf("%d processes of the fork bomb outlived the attester", len(left))
	}
	limit, started := "", 0
	for _, l := range strings.Split(res.StderrTail, "\n") {
		fmt.Sscanf(l, "limit %s", &limit)
		fmt.Sscanf(l, "started %d", &started)
	}
	t.Logf("result %s (%s), process limit %q, started %d", res.Outcome, deref(res.Reason), limit, started)
	if limit == fmt.Sprint(LimitProcesses) && started >= 400 {
		t.Errorf("the attester started %d processes under a limit of %s", started, limit)
	}
}

func TestSandboxTimeoutKillsGroup(t *testing.T) {
	// The child would run for 4246 s unless the whole group is killed at the 300ms timeout.
	res, _ := attestIn(t, "slow.sh", map[string]string{
		"slow.sh": "#!/bin/sh\nsleep 4246 &\nsleep 30\n",
	}, Options{Timeout: 300 * time.Millisecond})
	if res.Outcome != Error || !strings.Contains(deref(res.Reason), "timed out after 300ms") {
		t.Fatalf("got %s (%s), want a timeout error", res.Outcome, deref(res.Reason))
	}
	if left := waitGone("sleep", "4246"); len(left) > 0 {
		for _, p := range left {
			syscall.Kill(p, syscall.SIGKILL)
		}
		t.Error("a child of the timed-out attester kept running: the process group was not killed")
	}
}

// TestSandboxLaunchFailure: when the launcher cannot start the attester (here its interpreter does
// not exist), the result is an error that says so, not a bare exit status.
func TestSandboxLaunchFailure(t *testing.T) {
	needSandbox(t)
	res, _ := attestIn(t, "broken.sh", map[string]string{"broken.sh": "#!/nonexistent/interpreter\n"}, Options{Timeout: 20 * time.Second})
	if res.Outcome != Error || !strings.HasPrefix(deref(res.Reason), "the sandbox could not start the attester: cannot run ") {
		t.Errorf("got %s (%s), want an error saying the sandbox could not start it", res.Outcome, deref(res.Reason))
	}
}

// TestSandboxCopySkipsLinksAndSpecialFiles: the working copy is made by okf outside the sandbox, so
// a symbolic link in the bundle (to a file outside) and a FIFO are not copied: the attester finds
// neither, and okf does not block on the FIFO.
func TestSandboxCopySkipsLinksAndSpecialFiles(t *testing.T) {
	needSandbox(t)
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("---\ntitle: secret-outside-marker\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := attestInDir(t, "look.sh", map[string]string{
		"look.sh": escapeScript("grep -rq secret-outside-\"\"marker . 2>/dev/null || [ -e inside/link.md ] || [ -e inside/pipe.md ]"),
	}, Options{Timeout: 20 * time.Second}, func(dir string) {
		os.MkdirAll(filepath.Join(dir, "inside"), 0o755)
		if err := os.Symlink(outside, filepath.Join(dir, "inside", "link.md")); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(dir, "inside", "pipe.md"), 0o644); err != nil {
			t.Fatal(err)
		}
	}, true)
	if res.Outcome != Fail || deref(res.Reason) != "blocked" {
		t.Errorf("got %s (%s), stderr %q; want the attester to find neither the link nor the FIFO", res.Outcome, deref(res.Reason), res.StderrTail)
	}
}
