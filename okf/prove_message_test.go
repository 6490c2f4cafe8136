package okf

import (
	"strings"
	"testing"
)

// TestProveEditNamesWhatMoved: a refused rewrite says which value moved, by its full path, and
// both readings of it. "generated" now reads a mapping of 1 keys, expected a mapping of 1 keys" left
// the reader to diff the file by hand (a date under a merge key, rewritten where its anchor is).
func TestProveEditNamesWhatMoved(t *testing.T) {
	prev := []byte("---\nbase: &b\n  at: 2026-01-02\ngenerated:\n  <<: *b\n---\nBody.\n")
	next := []byte("---\nbase: &b\n  at: 2026-01-02T00:00:00Z\ngenerated:\n  <<: *b\n---\nBody.\n")
	err := ProveEdit(prev, next, Change{Path: []string{"base", "at"}, Value: Meant{Tag: "!!timestamp", Text: "2026-01-02T00:00:00Z"}})
	if err == nil {
		t.Fatal("proven")
	}
	want := `"generated.<<.at" now reads 2026-01-02T00:00:00Z (timestamp), expected 2026-01-02 (timestamp)`
	if !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got  %v\nwant …%s", err, want)
	}
	for _, tc := range []struct{ prev, next, want string }{
		{"a: {x: 1, y: 2}\n", "a: {x: 1}\n", `"a.y" is gone`},
		{"a: {x: 1}\n", "a: {x: 1, y: 2}\n", `"a.y" appeared`},
		{"a: [1, 2]\n", "a: [1, 3]\n", `"a.1" now reads 3 (int), expected 2 (int)`},
		{"a: [1, 2]\n", "a: [1]\n", `"a" now reads [1 (int)], expected [1 (int), 2 (int)]`},
		{"a: 1\n", "a: {x: 1}\n", `"a" now reads a mapping of 1 key, expected 1 (int)`},
	} {
		err := ProveEdit([]byte("---\n"+tc.prev+"---\n"), []byte("---\n"+tc.next+"---\n"))
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("%q → %q: got %v, want …%s", tc.prev, tc.next, err, tc.want)
		}
	}
}
