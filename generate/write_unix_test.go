//go:build unix

package generate

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAtomicWriterTargets: a link inside the bundle is written through (the link stays); a link
// or a folder leading outside is refused and nothing outside changes; a FIFO is refused without
// blocking and stays a FIFO; an existing file keeps its mode; no temporary file is left.
func TestAtomicWriterTargets(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "real.md"), "old")
	if err := os.Symlink("real.md", filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(outside, "target.md"), "outside")
	if err := os.Symlink(filepath.Join(outside, "target.md"), filepath.Join(root, "out.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "pipe.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(root, "private.md"), "x")
	if err := os.Chmod(filepath.Join(root, "private.md"), 0o600); err != nil {
		t.Fatal(err)
	}

	w := AtomicWriter{Within: root}
	// A link is never written through, even one that stays in the bundle (it may lead into the
	// checkout's .git: index.md -> .git/config), and neither is a folder link nor a .git folder.
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	write(filepath.Join(root, ".git", "config"), "[core]")
	if err := os.Symlink(".git/config", filepath.Join(root, "index.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(root, "g")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"link.md", "index.md", "g/x.md", ".git/x.md"} {
		if err := w.WriteFile(filepath.Join(root, p), []byte("new")); err == nil || !strings.Contains(err.Error(), "not written") {
			t.Errorf("%s: %v, want a refusal", p, err)
		}
	}
	if fi, _ := os.Lstat(filepath.Join(root, "link.md")); fi == nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "real.md")); string(b) != "old" {
		t.Errorf("the link's target holds %q, want old", b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".git", "config")); string(b) != "[core]" {
		t.Errorf(".git/config holds %q", b)
	}
	for _, p := range []string{"out.md", "dir/new.md", "pipe.md"} {
		if err := w.WriteFile(filepath.Join(root, p), []byte("evil")); err == nil || !strings.Contains(err.Error(), "not written") {
			t.Errorf("%s: %v, want a refusal", p, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "target.md")); string(b) != "outside" {
		t.Errorf("the file outside changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(outside, "new.md")); err == nil {
		t.Error("a file was created outside through a linked folder")
	}
	if fi, _ := os.Lstat(filepath.Join(root, "pipe.md")); fi == nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
	if err := w.WriteFile(filepath.Join(root, "private.md"), []byte("y")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(root, "private.md")); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left", e.Name())
		}
	}
}

// TestAtomicWriterNoFolderOutside: a file whose folders do not exist yet, below a linked folder
// leading outside the bundle, is refused before any folder is made: nothing appears outside.
func TestAtomicWriterNoFolderOutside(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}
	w := AtomicWriter{Within: root}
	for _, p := range []string{"dir/a/b/new.md", "dir/a/new.md"} {
		if err := w.WriteFile(filepath.Join(root, p), []byte("evil")); err == nil || !strings.Contains(err.Error(), "not written") {
			t.Errorf("%s: %v, want a refusal", p, err)
		}
	}
	if names, _ := os.ReadDir(outside); len(names) != 0 {
		t.Errorf("outside now holds %v", names)
	}
	if err := w.WriteFile(filepath.Join(root, "x", "y", "new.md"), []byte("ok")); err != nil {
		t.Errorf("new folders inside: %v", err)
	}
}
