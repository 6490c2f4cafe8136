package trust

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

// TestCompareAgrees: with a base, a concept whose body changed under the same verification is
// "changed since verified" in the changes, the totals and the queue alike, and what the change
// touched comes first in the queue.
func TestCompareAgrees(t *testing.T) {
	note := func(verified, body string) *fstest.MapFile {
		text := "---\ntype: Note\n"
		if verified != "" {
			text += "verified: { by: " + verified + ", at: 2026-11-01T00:00:00Z }\n"
		}
		return &fstest.MapFile{Data: []byte(text + "---\n" + body + "\n")}
	}
	base := fstest.MapFS{
		"a.md": note("human:ana", "One."),
		"b.md": note("", "Unverified, untouched."),
		"c.md": note("human:ana", "Untouched."),
	}
	now := fstest.MapFS{
		"a.md": note("human:ana", "Two."), // edited, same verification
		"b.md": base["b.md"],
		"c.md": base["c.md"],
		"d.md": note("", "Added, unverified."),
	}
	load := func(fsys fstest.MapFS) *okf.Bundle {
		b, err := okf.Load(fsys, okf.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	opts := Options{Now: fixtureNow}
	r := Build(load(now), opts)
	if r.Totals.ChangedSinceVerified != 0 {
		t.Fatalf("without a base nothing is changed since verified, got %d", r.Totals.ChangedSinceVerified)
	}
	r.Compare(Build(load(base), opts), "main")

	if !slices.Equal(r.Changes.ChangedSinceVerified, []string{"a"}) || r.Totals.ChangedSinceVerified != 1 {
		t.Errorf("changes list %q, totals count %d; want [a] and 1", r.Changes.ChangedSinceVerified, r.Totals.ChangedSinceVerified)
	}
	if !slices.Equal(r.Changes.Touched, []string{"a", "d"}) {
		t.Errorf("touched = %q, want [a d]", r.Changes.Touched)
	}
	// Touched first (d unverified: rank 4; a changed since verified: rank 5), then b (rank 4).
	var ids []string
	for _, q := range r.Queue {
		ids = append(ids, q.ID)
	}
	if !slices.Equal(ids, []string{"d", "a", "b"}) {
		t.Errorf("queue = %q, want [d a b]", ids)
	}
	if q := r.Queue[1]; !q.Touched || !q.ContentEdited || q.Rank != 5 {
		t.Errorf("a in the queue: %+v, want touched, content edited, rank 5", q)
	}
	if f := r.Failing([]string{"changed-since-verified"}); len(f) != 1 || f[0].ID != "a" {
		t.Errorf("--fail-on changed-since-verified: %+v, want a", f)
	}
}
