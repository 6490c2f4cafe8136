package okf

import (
	"os"
	"path/filepath"
	"reflect"
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

// TestIndexBodyFromOneParse: an index's Body, read from the tree its entries were read from, is
// the Body parseBody reads from a parse of its own, for every index.md of the corpus (corpusDir)
// and a hand-written one with every kind of body content.
func TestIndexBodyFromOneParse(t *testing.T) {
	texts := map[string][]byte{"hand/index.md": []byte("# Index\n\n## Part\n\n- [A](a.md) - first [^1]\n- [B](b.md)\n  <!-- note -->\n\n" +
		"```sql\nSELECT 1\n```\n\n![img](i.png)\n\n# Citations\n\n- <https://x.example>\n\n[^1]: a note\n")}
	_ = filepath.WalkDir(corpusDir(t), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "index.md" {
			if data, err := os.ReadFile(p); err == nil {
				texts[p] = data
			}
		}
		return nil
	})
	for p, src := range texts {
		sp := SplitFrontmatter(src)
		li := newLineIndex(src)
		got := parseIndex(p, src, sp.BodyOffset, li, nil).Body
		want := parseBody(p, src, sp.BodyOffset, newLineIndex(src))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: index body %+v, parseBody %+v", p, got, want)
		}
		if p == "hand/index.md" && (len(got.Links) != 3 || len(got.Comments) != 1 || len(got.CodeBlocks) != 1 ||
			len(got.Citations) != 1 || len(got.FootnoteRefs) != 1 || len(got.FootnoteDefs) != 1 || len(got.Headings) != 3) {
			t.Errorf("hand-written index: body %+v", got)
		}
	}
	if len(texts) == 1 {
		t.Log("corpus absent: only the hand-written index checked")
	}
}
