package main

import (
	"os"
	"runtime"
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
	direct, err := measureRun(bin, nil)
	if err != nil {
		t.Fatal(err)
	}
	launched, err := l.run(bin, nil)
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
