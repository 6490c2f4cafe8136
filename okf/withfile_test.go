package okf

import (
	"errors"
	"io/fs"
	"path"
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

// TestAloneReadsNoOtherMarkdown: the view of one concept (Alone, and the bundle OnConcept is given)
// reads the concept's own file and the bundle's other files, but no other .md file: those read as
// missing, through ReadFile and through its FS, however the name is spelled.
func TestAloneReadsNoOtherMarkdown(t *testing.T) {
	m := fstest.MapFS{
		"index.md":       {Data: []byte("# B\n\n* [A](a.md)\n")},
		"a.md":           {Data: []byte("---\ntype: Metric\ntitle: A\ncomputation: q.sql\n---\n# A\n")},
		"b.md":           {Data: []byte("---\ntype: Note\ntitle: B\n---\n# B\n")},
		"log.md":         {Data: []byte("# Log\n")},
		"q.sql":          {Data: []byte("select 1")},
		"notes/B.MD":     {Data: []byte("upper")},
		"schemas/x.json": {Data: []byte("{}")},
	}
	check := func(what string, one *Bundle) {
		t.Helper()
		for _, p := range []string{"a.md", "./a.md", "q.sql", "schemas/x.json"} {
			if _, err := one.ReadFile(p); err != nil {
				t.Errorf("%s: ReadFile(%q): %v, want it read", what, p, err)
			}
		}
		for _, p := range []string{"b.md", "index.md", "log.md", "./b.md", "notes/../b.md", "notes/B.MD"} {
			if _, err := one.ReadFile(p); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: ReadFile(%q): %v, want it refused as missing", what, p, err)
			}
			if _, err := fs.ReadFile(one.FS, path.Clean(p)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s: fs.ReadFile(FS, %q): %v, want it refused as missing", what, p, err)
			}
			if f, err := one.FS.Open(path.Clean(p)); err == nil {
				f.Close()
				t.Errorf("%s: FS.Open(%q) opened it", what, p)
			}
		}
		if ok, _ := one.Stat("b.md"); !ok {
			t.Errorf("%s: b.md is not in the file set", what)
		}
	}
	var seen int
	b, err := Load(m, LoadOptions{OnConcept: func(one *Bundle, c *Concept) {
		if c.Path == "a.md" {
			seen++
			check("OnConcept", one)
		}
	}})
	if err != nil || seen != 1 {
		t.Fatalf("load: %v, a.md seen %d times", err, seen)
	}
	check("Alone", b.Alone(b.ConceptAt("a.md")))
	if _, err := b.ReadFile("b.md"); err != nil {
		t.Errorf("the bundle itself: %v", err)
	}
}
