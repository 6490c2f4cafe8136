package generate

import (
	"strings"
	"testing"
)

func actionsOf(p *Plan) map[string]string {
	m := map[string]string{}
	for _, a := range p.Actions {
		got := a.Kind.String()
		if a.Kind == Skipped {
			got += ": " + a.Reason
		}
		m[a.Name] = got
	}
	return m
}

func fileOf(p *Plan, path string) string {
	for _, f := range p.Files {
		if f.Path == path {
			return string(f.New)
		}
	}
	return ""
}

// TestNoPostLost: posts that share a slug in different folders all become concepts under --all,
// named by their folder and slug; every Markdown extension Jekyll reads is a post; a concept map
// names any post by its path (with or without extension), and a shared slug alone is refused with
// the paths that share it.
func TestNoPostLost(t *testing.T) {
	posts := t.TempDir()
	writeFiles(t, posts, map[string]string{
		"travel/hanoi.md":     "---\ntitle: Hanoi trip\n---\nText.\n",
		"food/hanoi/index.md": "---\ntitle: Hanoi food\n---\nText.\n",
		"notes.markdown":      "---\ntitle: Notes\n---\nText.\n",
		"older.mkd":           "---\ntitle: Older\n---\nText.\n",
		"unique.md":           "---\ntitle: Unique\n---\nText.\n",
	})
	opts := Options{Posts: posts, Out: t.TempDir(), Site: "https://x.example", Engine: "generic", All: true, Now: t0}
	plan := run(t, opts)
	want := map[string]string{"food-hanoi": "created", "travel-hanoi": "created", "notes": "created", "older": "created", "unique": "created"}
	if got := actionsOf(plan); !mapsEqual(got, want) {
		t.Errorf("--all: %v, want %v", got, want)
	}
	if len(plan.Problems) != 0 {
		t.Errorf("problems: %v", plan.Problems)
	}
	specs, err := ParseConceptMap([]byte("a: travel/hanoi.md\nb: food/hanoi\nc: hanoi\nd: notes.markdown\ne: unique\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts.All, opts.Concepts, opts.Out = false, specs, t.TempDir()
	plan = run(t, opts)
	want = map[string]string{"a": "created", "b": "created", "d": "created", "e": "created",
		"c": `skipped: slug "hanoi" is used by 2 posts ("food/hanoi/index.md", "travel/hanoi.md"); name one by its path`}
	if got := actionsOf(plan); !mapsEqual(got, want) {
		t.Errorf("map: %v, want %v", got, want)
	}
	if a := fileOf(plan, "concepts/a.md"); !strings.Contains(a, "title: Hanoi trip\n") {
		t.Errorf("a is not the travel post:\n%s", a)
	}
	if b := fileOf(plan, "concepts/b.md"); !strings.Contains(b, "title: Hanoi food\n") {
		t.Errorf("b is not the food post:\n%s", b)
	}
}
