package okf

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestApplyChanges: the one writer of bundle files writes a file only when it still holds what the
// change was planned from, a new file only while it is absent, and never through a symbolic link
// at the file or at a folder on its way, even one that stays in the bundle; it keeps the mode.
func TestApplyChanges(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	root := t.TempDir()
	write := func(p, s string, mode os.FileMode) {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "old", 0o600)
	write("b.md", "edited meanwhile", 0o644)
	write("real/c.md", "old", 0o644)
	write("d.md", "old", 0o644)
	write("made.md", "made meanwhile", 0o644)
	os.Symlink("real", filepath.Join(root, "linked"))
	os.Symlink("d.md", filepath.Join(root, "e.md"))
	written, refused, err := ApplyChanges(root, []FileChange{
		{Path: "a.md", Old: []byte("old"), New: []byte("new")},
		{Path: "b.md", Old: []byte("old"), New: []byte("new")},
		{Path: "linked/c.md", Old: []byte("old"), New: []byte("new")},
		{Path: "e.md", Old: []byte("old"), New: []byte("new")},
		{Path: "made.md", New: []byte("new")},
		{Path: "sub/new.md", New: []byte("new")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 2 || written[0] != "a.md" || written[1] != "sub/new.md" {
		t.Errorf("written %q, want a.md and sub/new.md", written)
	}
	why := map[string]string{}
	for _, r := range refused {
		why[r.Path] = r.Why
	}
	for p, want := range map[string]string{
		"b.md":        "changed since it was read: not rewritten",
		"linked/c.md": "its folder linked is a symbolic link: not rewritten",
		"e.md":        "is a symbolic link: not rewritten",
		"made.md":     "was created meanwhile: not overwritten",
	} {
		if why[p] != want {
			t.Errorf("%s: refused %q, want %q", p, why[p], want)
		}
	}
	for p, want := range map[string]string{"a.md": "new", "b.md": "edited meanwhile", "real/c.md": "old", "d.md": "old", "made.md": "made meanwhile", "sub/new.md": "new"} {
		if got, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p))); string(got) != want {
			t.Errorf("%s holds %q, want %q", p, got, want)
		}
	}
	if st, err := os.Stat(filepath.Join(root, "a.md")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("a.md mode %v, want 0600 kept", st.Mode())
	}
}

// TestApplyChangesInOrder: with InOrder, the first refused change stops the set (gen writes log.md
// last, so a log never records a file that was not written); a path into .git or out of the bundle
// is refused whatever the options.
func TestApplyChangesInOrder(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "b.md"), []byte("edited meanwhile"), 0o644)
	changes := []FileChange{
		{Path: "a.md", New: []byte("a")},
		{Path: "b.md", Old: []byte("old"), New: []byte("b")},
		{Path: "log.md", New: []byte("log")},
	}
	written, refused, err := ApplyChangesWith(root, changes, ApplyOptions{InOrder: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 1 || written[0] != "a.md" || len(refused) != 1 || refused[0].Path != "b.md" {
		t.Errorf("written %q, refused %v; want a.md written, b.md refused, log.md not tried", written, refused)
	}
	if _, err := os.Stat(filepath.Join(root, "log.md")); err == nil {
		t.Error("log.md written after a refused change")
	}
	for _, p := range []string{".git/config", "sub/.GIT/hooks/x", "../out.md", "/abs.md", "a/../b.md", "."} {
		_, refused, err := ApplyChanges(root, []FileChange{{Path: p, New: []byte("x")}})
		if err != nil || len(refused) != 1 {
			t.Errorf("%s: refused %v, err %v; want refused", p, refused, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err == nil {
		t.Error(".git made")
	}
}

// TestApplyChangesLargeFile: a file over the default read limit that nobody changed is rewritten;
// the check reads it with a limit its own size allows.
func TestApplyChangesLargeFile(t *testing.T) {
	root := t.TempDir()
	big := make([]byte, DefaultMaxFileSize+10)
	os.WriteFile(filepath.Join(root, "big.md"), big, 0o644)
	written, refused, err := ApplyChanges(root, []FileChange{{Path: "big.md", Old: big, New: []byte("small")}})
	if err != nil || len(written) != 1 || len(refused) != 0 {
		t.Errorf("written %q refused %v err %v", written, refused, err)
	}
}

// TestApplyChangesWriteHook: the write hook runs only after the checks, and its failure refuses the
// change with the error.
func TestApplyChangesWriteHook(t *testing.T) {
	root := t.TempDir()
	fail := func(string, []byte, os.FileMode) error { return os.ErrPermission }
	written, refused, err := ApplyChangesWith(root, []FileChange{{Path: "a.md", New: []byte("a")}, {Path: "b.md", New: []byte("b")}},
		ApplyOptions{InOrder: true, WriteFile: fail})
	if err != nil || len(written) != 0 || len(refused) != 1 || refused[0].Why != "cannot write: permission denied" {
		t.Errorf("written %q refused %v err %v", written, refused, err)
	}
}
