package okf

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

// TestOverlay checks an overlaid file replaces the one on disk, a new one appears in its folder's
// listing, and every other file is the base's.
func TestOverlay(t *testing.T) {
	base := fstest.MapFS{"a/x.md": {Data: []byte("disk")}, "a/y.md": {Data: []byte("y")}, "b.md": {Data: []byte("b")}}
	o := Overlay(base, "a/x.md", []byte("buffer"))
	if got, _ := fs.ReadFile(o, "a/x.md"); string(got) != "buffer" {
		t.Errorf("a/x.md = %q, want the buffer", got)
	}
	if got, _ := fs.ReadFile(o, "a/y.md"); string(got) != "y" {
		t.Errorf("a/y.md = %q", got)
	}
	n := Overlay(base, "a/new.md", []byte("new"))
	es, err := fs.ReadDir(n, "a")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	if len(names) != 3 || names[0] != "new.md" || names[1] != "x.md" || names[2] != "y.md" {
		t.Errorf("a/ lists %v, want [new.md x.md y.md]", names)
	}
	if st, err := fs.Stat(n, "a/new.md"); err != nil || !st.Mode().IsRegular() || st.Size() != 3 {
		t.Errorf("stat a/new.md: %v %v", st, err)
	}
	b, err := Load(n, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b.ConceptAt("a/new.md") == nil {
		t.Error("the loader does not see the overlaid file")
	}
}
