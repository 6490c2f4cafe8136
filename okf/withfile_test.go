package okf

import (
	"reflect"
	"testing"
	"testing/fstest"
)

// TestWithFile: a concept changed with WithFile is the bundle loaded again with the new text, its
// concepts and the loader's findings alike, and the other concepts are the same values.
func TestWithFile(t *testing.T) {
	m := fstest.MapFS{
		"index.md": {Data: []byte("---\nokf_version: \"0.2\"\n---\n# B\n\n* [A](a.md)\n* [B](b.md)\n")},
		"a.md":     {Data: []byte("---\ntype: Note\ntitle: A\n---\n# A\n\nSee [b](b.md).\n")},
		"b.md":     {Data: []byte("---\ntype: Note\ntitle: B\n---\n# B\n")},
	}
	b, err := Load(m, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"---\ntype: Note\ntitle: A2\n---\n# A\n\nSee [c](c.md).\n",
		"---\ntype: [\n---\n# broken\n",
		"no frontmatter at all\n",
		"---\ntype: Note\n",
		"\xff\xfe",
	} {
		nb, ok := b.WithFile("a.md", []byte(text), LoadOptions{})
		if !ok {
			t.Fatalf("%q: not applied", text)
		}
		want, err := Load(OverlayFiles(m, map[string][]byte{"a.md": []byte(text)}), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(nb.Diagnostics, want.Diagnostics) {
			t.Errorf("%q: diagnostics\n%v\nwant\n%v", text, nb.Diagnostics, want.Diagnostics)
		}
		if len(nb.Concepts) != len(want.Concepts) {
			t.Fatalf("%q: %d concepts, want %d", text, len(nb.Concepts), len(want.Concepts))
		}
		for i, c := range nb.Concepts {
			w := want.Concepts[i]
			if c.ID != w.ID || c.Frontmatter.Title.Text() != w.Frontmatter.Title.Text() || !reflect.DeepEqual(c.Body, w.Body) {
				t.Errorf("%q: concept %s differs from a reload", text, c.ID)
			}
		}
		if nb.Concept("b") != b.Concept("b") {
			t.Error("b was parsed again")
		}
		if got, _ := nb.ReadFile("a.md"); string(got) != text {
			t.Errorf("ReadFile gives %q", got)
		}
		if b.Concept("a").Frontmatter.Title.Text() != "A" {
			t.Error("the old bundle changed")
		}
	}
	if _, ok := b.WithFile("index.md", []byte("# x\n"), LoadOptions{}); ok {
		t.Error("an index was applied")
	}
	if _, ok := b.WithFile("new.md", []byte("# x\n"), LoadOptions{}); ok {
		t.Error("a new file was applied")
	}
}
