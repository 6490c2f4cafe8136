package okf

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// TestOnFile: the hook gets every concept, index.md and log.md the loader read, with the bytes as
// they are on disk (a file that is not UTF-8, has no frontmatter or broken YAML included), once
// each; not a file over the size limit (not read), an ignored one, a hidden one or one that is not
// Markdown.
func TestOnFile(t *testing.T) {
	files := map[string]string{
		"index.md":       "---\nokf_version: \"0.2\"\n---\n# I\n\n* [a](a.md)\n",
		"log.md":         "# Log\n",
		"a.md":           "---\ntype: Metric\n---\nBody\n",
		"sub/index.md":   "# Sub\n",
		"sub/latin1.md":  "---\ntype: X\n---\ncaf\xe9\n",
		"sub/none.md":    "text only\n",
		"sub/badyaml.md": "---\ntype: [\n---\n",
		"big.md":         "---\ntype: X\n---\n" + strings.Repeat("x", 200) + "\n",
		"skip/c.md":      "---\ntype: X\n---\n",
		".hidden/d.md":   "---\ntype: X\n---\n",
		"notes.txt":      "not markdown",
		".okfignore":     "skip/\n",
	}
	fsys := fstest.MapFS{}
	for p, text := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(text)}
	}
	var mu sync.Mutex
	got := map[string]string{}
	calls := 0
	_, err := Load(fsys, LoadOptions{MaxFileSize: 100, OnFile: func(p string, src []byte) bool {
		mu.Lock()
		defer mu.Unlock()
		calls++
		got[p] = string(src) // copied during the call
		return false
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"index.md", "log.md", "a.md", "sub/index.md", "sub/latin1.md", "sub/none.md", "sub/badyaml.md"}
	if calls != len(want) || len(got) != len(want) {
		t.Errorf("%d calls for %d files, want one each for %q", calls, len(got), want)
	}
	for _, p := range want {
		if g, ok := got[p]; !ok || g != files[p] {
			t.Errorf("%s: hook got %q (called %v), want the file as written %q", p, g, ok, files[p])
		}
	}
	for _, p := range []string{"big.md", "skip/c.md", ".hidden/d.md", "notes.txt"} {
		if _, ok := got[p]; ok {
			t.Errorf("%s: the hook was called; it must not be", p)
		}
	}
}

// TestOnFileKeep: a file whose bytes the hook keeps (returns true) is never overwritten by the next
// file the worker reads; one it does not keep is (the worker reuses its buffer).
func TestOnFileKeep(t *testing.T) {
	fsys := fstest.MapFS{}
	want := map[string]string{}
	for i := range 50 {
		p := fmt.Sprintf("c%02d.md", i)
		want[p] = fmt.Sprintf("---\ntype: X\n---\n%s\n", strings.Repeat(string(rune('a'+i%26)), 100-i))
		fsys[p] = &fstest.MapFile{Data: []byte(want[p])}
	}
	kept := map[string][]byte{}
	var lent [][]byte
	_, err := Load(fsys, LoadOptions{Workers: 1, OnFile: func(p string, src []byte) bool {
		if p < "c25" {
			kept[p] = src
			return true
		}
		lent = append(lent, src)
		return false
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 25 {
		t.Fatalf("kept %d files, want 25", len(kept))
	}
	for p, src := range kept {
		if string(src) != want[p] {
			t.Errorf("%s: kept bytes became %q", p, src)
		}
	}
	// The buffer lent for c25 held c49 at the end: the worker reused it.
	if len(lent) != 25 || &lent[0][0] != &lent[24][0] {
		t.Errorf("the worker did not reuse the buffer of a file not kept")
	}
}
