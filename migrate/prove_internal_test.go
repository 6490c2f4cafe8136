package migrate

import (
	"errors"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestProveCatchesWrongRewrites: a migration's file is written only when its rewrite, parsed
// again, means what the edits declared. Rewrites that say more, less or otherwise are caught.
func TestProveCatchesWrongRewrites(t *testing.T) {
	src := "---\ntype: Note\ntimestamp: 2026-01-02T03:04:05Z\ntitle: T\n---\n# Body\n\n# Citations\n\n- [A](https://a.example)\n"
	wrap := []okf.Change{{Path: []string{"timestamp"}, Delete: true},
		{Path: []string{"generated"}, Value: map[string]any{"by": okf.Str(Actor), "at": okf.Meant{Tag: "!!timestamp", Text: "2026-01-02T03:04:05Z"}}}}
	ts := strings.Index(src, "timestamp")
	val := strings.Index(src, "2026-01-02T03:04:05Z")
	for _, c := range []struct {
		name  string
		edits []okf.Edit
		ok    bool
	}{
		{"as declared", []okf.Edit{{Start: ts, End: ts + len("timestamp"), New: "generated"}, {Start: val, End: val + 20, New: "{ by: process:okf-migrate, at: 2026-01-02T03:04:05Z }"}}, true},
		{"a key more", []okf.Edit{{Start: ts, End: ts + len("timestamp"), New: "generated"}, {Start: val, End: val + 20, New: "{ by: process:okf-migrate, at: 2026-01-02T03:04:05Z, x: 1 }"}}, false},
		{"another instant", []okf.Edit{{Start: ts, End: ts + len("timestamp"), New: "generated"}, {Start: val, End: val + 20, New: "{ by: process:okf-migrate, at: 2026-01-02T03:04:06Z }"}}, false},
		{"title moved", []okf.Edit{{Start: ts, End: ts + len("timestamp"), New: "generated"}, {Start: val, End: val + 20, New: "{ by: process:okf-migrate, at: 2026-01-02T03:04:05Z }\ntitle: U"}}, false},
	} {
		f := &fileEdits{path: "a.md", src: []byte(src), edits: c.edits, changes: wrap}
		out, err := okf.ApplyEdits(f.src, f.edits)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.prove(out); (err == nil) != c.ok || (err != nil && !errors.Is(err, okf.ErrUnproven)) {
			t.Errorf("%s: prove = %v, want ok=%v", c.name, err, c.ok)
		}
	}
	// The body may lose its Citations section, and nothing else.
	cut := strings.Index(src, "# Citations")
	f := &fileEdits{path: "a.md", src: []byte(src), edits: []okf.Edit{{Start: cut, End: len(src), New: ""}}, cut: [2]int{cut, len(src)}}
	f.changes = []okf.Change{{Path: []string{"sources"}, Value: []any{}}}
	if out, _ := okf.ApplyEdits(f.src, f.edits); f.prove(out) == nil {
		t.Error("sources declared but not written: proven")
	}
	f.edits = []okf.Edit{{Start: cut - 2, End: len(src), New: ""}}
	f.changes = nil
	if out, _ := okf.ApplyEdits(f.src, f.edits); f.prove(out) == nil {
		t.Error("a body line outside the Citations section removed: proven")
	}
}
