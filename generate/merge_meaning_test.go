package generate

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// TestMergeMeaningOnShapes is the differential property test of gen's rewrites of a file a person
// may have edited: over generated frontmatter shapes (a person's keys as flow and block lists,
// comments, anchors and aliases, quoted strings that look like lists, CRLF, tabs), Merge either
// refuses (okf.ErrUnproven) or writes a file whose frontmatter, read by yaml.v3 on its own, holds
// every key a person wrote exactly as before, the owned keys as the new data says, and whose body
// outside gen's block is unchanged.
func TestMergeMeaningOnShapes(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	old := &ConceptData{Type: "post", Title: "Old title", Description: "Old description.", Tags: []string{"a", "b"},
		URL: "https://x.example/p/", SourceTitle: "Post", Author: "human:ann", Actor: DefaultActor, Summary: "Old summary."}
	person := []string{
		"owner: \"[not, tags]\"", "note: a, b", "pair: &x [1, 2]\nuse: *x", "list:\n  - \"[a]\"\n  - b",
		"# a comment\nother: 'q'", "n: 010", "when: 2026-01-02", "flow: {a: \"[b, c]\"}", "status: stable",
		"review: |\n  kept\n  as is", "empty:", "verified:\n  - by: human:bob\n    at: 2026-01-01T00:00:00Z",
	}
	r := rand.New(rand.NewPCG(3, 4))
	proven, refused := 0, 0
	for i := 0; i < 300; i++ {
		src := string(old.Render(t0))
		sp := okf.SplitFrontmatter([]byte(src))
		fm := strings.TrimSuffix(string(sp.YAML), "\n")
		lines := strings.Split(fm, "\n")
		for j := r.IntN(4); j > 0; j-- {
			lines = append(lines, person[r.IntN(len(person))])
		}
		if r.IntN(5) == 0 {
			// An anchor on an owned value that a person's key aliases: replacing the value
			// would leave the alias undefined.
			for k, l := range lines {
				if strings.HasPrefix(l, "title: ") {
					lines[k] = "title: &t " + strings.TrimPrefix(l, "title: ")
				}
			}
			lines = append(lines, "headline: *t")
		}
		if r.IntN(3) == 0 {
			lines = append(lines, "sources_note: x # a comment")
		}
		body := string(sp.Body)
		if r.IntN(2) == 0 {
			body += "\n## A person's notes\n\nKept [x](y.md).\n"
		}
		text := "---\n" + strings.Join(dedupe(lines), "\n") + "\n---\n" + body
		nl := "\n"
		if r.IntN(3) == 0 {
			nl = "\r\n"
			text = strings.ReplaceAll(text, "\n", nl)
		}
		next := *old
		next.Title = []string{"New title", "[a, b]", "123", "Old title"}[r.IntN(4)]
		next.Description = []string{"", "New: description.", "Old description."}[r.IntN(3)]
		next.Tags = [][]string{nil, {"c"}, {"a", "b"}, {"x, y"}}[r.IntN(4)]
		next.Author = []string{"", "human:carol", "human:ann"}[r.IntN(3)]
		next.Summary = []string{"Old summary.", "New summary."}[r.IntN(2)]
		res, err := next.Merge([]byte(text), t0.Add(time.Hour))
		if err != nil {
			if !errors.Is(err, okf.ErrUnproven) {
				t.Fatalf("case %d: %v\n%s", i, err, text)
			}
			refused++
			continue
		}
		if !res.Changed {
			continue
		}
		proven++
		checkMergeMeaning(t, i, []byte(text), res.Content, &next, t0.Add(time.Hour))
	}
	if proven < 150 || refused == 0 {
		t.Fatalf("%d rewrites proven, %d refused: the shapes do not exercise both", proven, refused)
	}
}

func dedupe(lines []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lines {
		k := strings.SplitN(l, ":", 2)[0]
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, l)
	}
	return out
}

// checkMergeMeaning reads both files with yaml.v3 into Go values (not okf's own reading) and checks
// what changed.
func checkMergeMeaning(t *testing.T, i int, before, after []byte, d *ConceptData, at time.Time) {
	t.Helper()
	read := func(src []byte) (map[string]any, string) {
		sp := okf.SplitFrontmatter(src)
		var m map[string]any
		if err := yaml.Unmarshal(sp.YAML, &m); err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, src)
		}
		return m, strings.ReplaceAll(string(sp.Body), "\r\n", "\n")
	}
	b, bb := read(before)
	a, ab := read(after)
	for k, v := range b {
		if isOwned(k) {
			continue
		}
		if !reflect.DeepEqual(v, a[k]) {
			t.Errorf("case %d: person's key %q: %#v became %#v\n%s", i, k, v, a[k], after)
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok && !isOwned(k) {
			t.Errorf("case %d: key %q appeared", i, k)
		}
	}
	if a["title"] != d.Title || a["type"] != d.Type {
		t.Errorf("case %d: title %#v type %#v, want %q %q", i, a["title"], a["type"], d.Title, d.Type)
	}
	if d.Description == "" && a["description"] != nil || d.Description != "" && a["description"] != d.Description {
		t.Errorf("case %d: description %#v, want %q", i, a["description"], d.Description)
	}
	if fmt.Sprint(a["tags"]) != fmt.Sprint(tagsOrNil(d.Tags)) {
		t.Errorf("case %d: tags %#v, want %q", i, a["tags"], d.Tags)
	}
	g, _ := a["generated"].(map[string]any)
	if g["by"] != d.Actor || fmt.Sprint(g["at"]) != fmt.Sprint(at) {
		t.Errorf("case %d: generated %#v", i, a["generated"])
	}
	// Outside gen's block the body is what it was.
	strip := func(body string) string {
		s, e, ok := ownedBlock(body)
		if !ok {
			return body
		}
		return body[:s] + body[e:]
	}
	if strip(bb) != strip(ab) {
		t.Errorf("case %d: the body outside gen's block changed:\n%q\n%q", i, strip(bb), strip(ab))
	}
}

func tagsOrNil(tags []string) any {
	if len(tags) == 0 {
		return nil
	}
	out := make([]any, len(tags))
	for i, t := range tags {
		out[i] = t
	}
	return out
}
