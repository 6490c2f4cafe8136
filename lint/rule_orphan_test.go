package lint

import (
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

// TestOrphanNeedsAnIndex: a bundle without any index.md has no written navigation (consumers
// synthesize indexes, §8), so none of its concepts is an orphan; adding one index that lists only
// a.md makes the unlinked b.md one.
func TestOrphanNeedsAnIndex(t *testing.T) {
	files := fstest.MapFS{
		"a.md":     {Data: []byte("---\ntype: Note\n---\n# A\n")},
		"sub/b.md": {Data: []byte("---\ntype: Note\n---\n# B\n")},
	}
	run := func() []okf.Diagnostic {
		b, err := okf.Load(files, okf.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return Run(b, Options{Now: fixtureNow, Rules: []*Rule{Orphan}})
	}
	if ds := run(); len(ds) != 0 {
		t.Errorf("no index.md: want no orphan, got %v", ds)
	}
	files["index.md"] = &fstest.MapFile{Data: []byte("# Notes\n\n* [A](a.md) - A.\n")}
	ds := run()
	if len(ds) != 1 || ds[0].Pos.Path != "sub/b.md" || ds[0].Code != Orphan.Code {
		t.Errorf("with an index listing a.md: want one orphan on sub/b.md, got %v", ds)
	}
}
