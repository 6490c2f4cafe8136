//go:build unix

package okf

import (
	"os"
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

// TestLoadNamedPipeInFolder: a named pipe among a folder's files, read by one worker through its
// handle on that folder, gets the same finding as at the root, without blocking, and the files of
// the folder after it (a link to a sibling among them) are still read.
func TestLoadNamedPipeInFolder(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"sub/a.md", "sub/c.md"} {
		writeFile(t, filepath.Join(root, filepath.FromSlash(f)), "---\ntype: Reference\ntitle: "+f+"\n---\n")
	}
	if err := syscall.Mkfifo(filepath.Join(root, "sub", "b.md"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
	if err := os.Symlink("a.md", filepath.Join(root, "sub", "d.md")); err != nil {
		t.Fatal(err)
	}
	done := make(chan *Bundle, 1)
	go func() {
		b, err := LoadDir(root, LoadOptions{Workers: 1})
		if err != nil {
			t.Error(err)
		}
		done <- b
	}()
	var b *Bundle
	select {
	case b = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("loading a folder with a named pipe blocked")
	}
	if b == nil {
		return
	}
	if len(b.Diagnostics) != 1 || b.Diagnostics[0].Pos.Path != "sub/b.md" || b.Diagnostics[0].Code != CodeUnreadable ||
		b.Diagnostics[0].Message != "not read: not a regular file (a named pipe)" {
		t.Errorf("diagnostics %v", b.Diagnostics)
	}
	for id, title := range map[string]string{"sub/a": "sub/a.md", "sub/c": "sub/c.md", "sub/d": "sub/a.md"} {
		if c := b.Concept(id); c == nil || c.Frontmatter.Title.Text() != title {
			t.Errorf("%s: %+v", id, c)
		}
	}
}
