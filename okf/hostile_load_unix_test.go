//go:build unix

package okf

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadNamedPipe: a named pipe called x.md is one OKF010 finding saying what it is; loading
// neither blocks nor stops (the generous timeout only catches a hang: a blocking open never returns).
func TestLoadNamedPipe(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "ok.md"), "---\ntype: Reference\n---\n")
	if err := syscall.Mkfifo(filepath.Join(root, "x.md"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "data.csv"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan *Bundle, 1)
	go func() {
		b, err := LoadDir(root, LoadOptions{})
		if err != nil {
			t.Error(err)
		}
		done <- b
	}()
	var b *Bundle
	select {
	case b = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("loading a bundle with a named pipe blocked")
	}
	if b == nil {
		return
	}
	if len(b.Diagnostics) != 1 || b.Diagnostics[0].Pos.Path != "x.md" || b.Diagnostics[0].Code != CodeUnreadable ||
		b.Diagnostics[0].Message != "not read: not a regular file (a named pipe)" {
		t.Errorf("diagnostics %v", b.Diagnostics)
	}
	if b.Concept("ok") == nil {
		t.Error("the regular concept did not load")
	}
	if _, err := b.ReadFile("data.csv"); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("Bundle.ReadFile(pipe) = %v", err)
	}
}
