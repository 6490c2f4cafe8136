package main

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/okf-tools/okf/attest"
)

// TestVersionReleaseBuild checks what a release build prints: the values .goreleaser.yaml sets
// with -X main.version/commit/date, and the Go toolchain and platform.
func TestVersionReleaseBuild(t *testing.T) {
	defer func(v, c, d string) { version, commit, date = v, c, d }(version, commit, date)
	version, commit, date = "v1.2.3", "0123abcd", "2026-11-30T12:00:00Z"
	var out, errOut bytes.Buffer
	if code := run([]string{"okf", "version"}, nil, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	want := "okf v1.2.3 (OKF spec 0.2)\ncommit: 0123abcd\ndate: 2026-11-30T12:00:00Z\ngo: " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	// With --sandbox, what this machine offers external attesters too (see attest/sandbox_test.go).
	out.Reset()
	if code := run([]string{"okf", "version", "--sandbox"}, nil, &out, &errOut, func(string) string { return "" }); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if want += "sandbox: " + attest.MachineIsolation().String() + "\n"; out.String() != want {
		t.Errorf("--sandbox: got\n%s\nwant\n%s", out.String(), want)
	}
}
