package okf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadAcrossFolders: one worker reads files of several folders through its folder handle,
// moving between them, and every file is read from its own path: each concept's title names its
// path. A link in a folder to a file of another folder (inside the root, outside the handle's
// folder) is still read, and a file over the size limit in a folder is reported as at the root.
func TestLoadAcrossFolders(t *testing.T) {
	root := t.TempDir()
	files := []string{"top.md", "a/x.md", "a/y.md", "a/c/z.md", "b/x.md", "b/c/d/w.md", "e/big.md"}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		text := "---\ntype: R\ntitle: " + f + "\n---\n"
		if f == "e/big.md" {
			text += strings.Repeat("x", 2000)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../b/x.md", filepath.Join(root, "a", "link.md")); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	for _, workers := range []int{1, 3} {
		b, err := LoadDir(root, LoadOptions{Workers: workers, MaxFileSize: 1000})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"top": "top.md", "a/x": "a/x.md", "a/y": "a/y.md", "a/c/z": "a/c/z.md", "b/x": "b/x.md", "b/c/d/w": "b/c/d/w.md", "a/link": "b/x.md", "e/big": ""}
		if len(b.Concepts) != len(want) {
			t.Fatalf("workers %d: %d concepts", workers, len(b.Concepts))
		}
		for _, c := range b.Concepts {
			if got := c.Frontmatter.Title.Text(); got != want[c.ID] {
				t.Errorf("workers %d: %s has title %q, want %q", workers, c.ID, got, want[c.ID])
			}
		}
		if len(b.Diagnostics) != 1 || b.Diagnostics[0].Pos.Path != "e/big.md" || b.Diagnostics[0].Code != CodeUnreadable ||
			!strings.HasPrefix(b.Diagnostics[0].Message, "not read: file is ") {
			t.Errorf("workers %d: diagnostics %v", workers, b.Diagnostics)
		}
	}
}
