package main

import (
	"os"
	"runtime"
	"strconv"
	"testing"
)

func TestMain(m *testing.M) {
	if os.Getenv(launcherEnv) == "1" { // the test binary as the launcher
		if err := serveLauncher(os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var sink []byte

// TestLauncherKeepsBenchMemoryOut: a child started by this process reports at least this
// process's peak RSS (Linux), one started by the launcher started before does not.
func TestLauncherKeepsBenchMemoryOut(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the high-water mark carried into a child is Linux's behaviour")
	}
	const bin = "/bin/true"
	if _, err := os.Stat(bin); err != nil {
		t.Skip("no /bin/true")
	}
	l, err := startLauncher()
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	sink = make([]byte, 150<<20)
	for i := 0; i < len(sink); i += 4096 {
		sink[i] = 1
	}
	direct, err := measureRun(bin, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	launched, err := l.run(bin, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	sink = nil
	if direct.rss < 150<<20 {
		t.Logf("started directly, /bin/true reports %d MiB: this kernel does not carry the parent's peak", direct.rss>>20)
	}
	if launched.rss >= 100<<20 {
		t.Errorf("started by the launcher, /bin/true reports %d MiB", launched.rss>>20)
	}
}

// TestMeasureRunExitCodes: okf's exit 1 (findings) is a measurement, as is the reference tool's
// own "not conformant" code when the request names it; any other failure is an error, so a broken
// binary is never timed as if it had worked.
func TestMeasureRunExitCodes(t *testing.T) {
	const sh = "/bin/sh"
	if _, err := os.Stat(sh); err != nil {
		t.Skip("no /bin/sh")
	}
	for _, c := range []struct {
		code, okExit int
		ok           bool
	}{
		{0, 0, true}, {1, 0, true}, {65, 0, false}, {65, 65, true}, {2, 65, false}, {3, 0, false},
	} {
		_, err := measureRun(sh, []string{"-c", "exit " + strconv.Itoa(c.code)}, c.okExit)
		if (err == nil) != c.ok {
			t.Errorf("exit %d with ok exit %d: err %v, want ok %v", c.code, c.okExit, err, c.ok)
		}
	}
	l, err := startLauncher()
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	if _, err := l.run(sh, []string{"-c", "exit 65"}, 65); err != nil {
		t.Errorf("through the launcher, exit 65 with ok exit 65: %v", err)
	}
	if _, err := l.run(sh, []string{"-c", "exit 65"}, 0); err == nil {
		t.Errorf("through the launcher, exit 65 without ok exit: no error")
	}
}
