package okf

import (
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"
)

// TestOnFrontmatter: the hook sees each concept whose frontmatter parsed, once, with the tree
// Frontmatter.Node would give (file lines); not index.md, log.md, or a concept whose frontmatter is
// missing or not YAML. The tree is read during the call: the worker reuses its memory afterwards.
func TestOnFrontmatter(t *testing.T) {
	fsys := fstest.MapFS{
		"index.md":    {Data: []byte("---\nokf_version: \"0.2\"\n---\n# I\n\n* [a](a.md)\n")},
		"log.md":      {Data: []byte("---\ntitle: log\n---\n# Log\n")},
		"a.md":        {Data: []byte("---\ntype: Metric\ntags: [x, y]\n---\nBody\n")},
		"sub/b.md":    {Data: []byte("\ufeff---\n# head\n\ntype: Table\n---\n")},
		"notype.md":   {Data: []byte("---\ntitle: x\n---\n")},
		"bad.md":      {Data: []byte("---\ntype: [\n---\n")},
		"none.md":     {Data: []byte("text\n")},
		"sub/open.md": {Data: []byte("---\ntype: X\n")},
	}
	var mu sync.Mutex
	seen := map[string]string{} // each tree as dumpNode writes it, taken during the call
	var calls []string
	b, err := Load(fsys, LoadOptions{OnFrontmatter: func(c *Concept, top *yaml.Node) {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, c.Path)
		seen[c.Path] = dumpNode(top)
		// By hand: sub/b.md's type is on file line 4, column 1 (after a BOM, a comment and a blank).
		if k := top.Content[0]; c.Path == "sub/b.md" && (k.Value != "type" || k.Line != 4 || k.Column != 1) {
			t.Errorf("sub/b.md: first key %q at %d:%d, want type at 4:1", k.Value, k.Line, k.Column)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(calls)
	if got := strings.Join(calls, " "); got != "a.md notype.md sub/b.md" {
		t.Fatalf("called for %q, want a.md notype.md sub/b.md", got)
	}
	for _, c := range b.Concepts {
		got, ok := seen[c.Path]
		if !ok {
			continue
		}
		want, err := c.Frontmatter.Node()
		if err != nil {
			t.Fatal(err)
		}
		if w := dumpNode(want); got != w {
			t.Errorf("%s: hook tree\n%s\nNode()\n%s", c.Path, got, w)
		}
	}
}
