package okf

import (
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// TestOnConcept: the hook gets every concept once, whatever its file held (too large to read, not
// UTF-8, no frontmatter, broken YAML), and never an index or a log; the bundle it is given holds
// that concept alone and answers for the whole bundle's files; what the hook drops from the
// concept stays dropped in the loaded bundle.
func TestOnConcept(t *testing.T) {
	files := map[string]string{
		"index.md":       "---\nokf_version: \"0.2\"\n---\n# I\n\n* [a](a.md)\n",
		"log.md":         "# Log\n",
		"a.md":           "---\ntype: Metric\ntitle: A\n---\n[b](sub/none.md)\n",
		"sub/index.md":   "# Sub\n",
		"sub/latin1.md":  "---\ntype: X\n---\ncaf\xe9\n",
		"sub/none.md":    "text only\n",
		"sub/badyaml.md": "---\ntype: [\n---\n",
		"big.md":         "---\ntype: X\n---\n" + strings.Repeat("x", 200) + "\n",
		"data/x.sql":     "select 1\n",
	}
	fsys := fstest.MapFS{}
	for p, text := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(text)}
	}
	var mu sync.Mutex
	var got []string
	b, err := Load(fsys, LoadOptions{MaxFileSize: 100, Workers: 3, OnConcept: func(one *Bundle, c *Concept) {
		if len(one.Concepts) != 1 || one.Concepts[0] != c || one.ConceptAt(c.Path) != c || len(one.Indexes) != 0 || len(one.Logs) != 0 {
			t.Errorf("%s: the bundle given holds %d concepts, %d indexes, %d logs", c.Path, len(one.Concepts), len(one.Indexes), len(one.Logs))
		}
		if one.ConceptAt("a.md") != nil && c.Path != "a.md" {
			t.Errorf("%s: the bundle given holds a.md too", c.Path)
		}
		for _, p := range []string{"data/x.sql", "sub", "index.md", "big.md"} {
			if ok, _ := one.Stat(p); !ok {
				t.Errorf("%s: the bundle given does not know %s", c.Path, p)
			}
		}
		if data, err := one.ReadFile("data/x.sql"); err != nil || string(data) != "select 1\n" {
			t.Errorf("%s: ReadFile(data/x.sql) = %q, %v", c.Path, data, err)
		}
		mu.Lock()
		got = append(got, c.Path)
		mu.Unlock()
		c.Body.Links = nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(got)
	want := []string{"a.md", "big.md", "sub/badyaml.md", "sub/latin1.md", "sub/none.md"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("hook called with %v, want each of %v once", got, want)
	}
	if n := len(b.Concepts); n != len(want) {
		t.Errorf("%d concepts loaded, want %d", n, len(want))
	}
	if l := b.ConceptAt("a.md").Body.Links; l != nil {
		t.Errorf("a.md's links were dropped by the hook, but the bundle has %v", l)
	}
	if b.RootIndex() == nil || len(b.Logs) != 1 {
		t.Error("index or log missing from the loaded bundle")
	}
}

// TestDrop: a dropped concept keeps its path and whether it had a frontmatter, and nothing else.
func TestDrop(t *testing.T) {
	for _, tc := range []struct {
		src     string
		present bool
	}{{"---\ntype: Metric\ntitle: A\ntags: [x]\n---\n# A\n\n[b](b.md)\n", true}, {"# No frontmatter\n\n[b](b.md)\n", false}} {
		c, _ := ParseConcept("a.md", []byte(tc.src))
		if len(c.Body.Links) == 0 {
			t.Fatalf("%q: no link parsed: the case tests nothing", tc.src)
		}
		if c.Dropped() {
			t.Errorf("%q: a parsed concept says it is dropped", tc.src)
		}
		head := ParseConceptFrontmatter("a.md", []byte(tc.src))
		if !reflect.DeepEqual(head.Frontmatter, c.Frontmatter) || len(head.Body.Links) != 0 {
			t.Errorf("%q: ParseConceptFrontmatter gives %+v and %d links, ParseConcept %+v", tc.src, head.Frontmatter, len(head.Body.Links), c.Frontmatter)
		}
		c.Drop()
		if !c.Dropped() {
			t.Errorf("%q: a dropped concept says it is not", tc.src)
		}
		c.Body = &Body{Links: []Link{{Target: "b.md"}}} // as attest.OnConcept keeps the links
		if !c.Dropped() {
			t.Errorf("%q: a dropped concept given links says it is not dropped", tc.src)
		}
		c.Body = droppedBody
		fm := c.Frontmatter
		if c.Path != "a.md" || c.ID != "a" || fm.Present != tc.present {
			t.Errorf("%q: dropped concept %s/%s, present %v", tc.src, c.Path, c.ID, fm.Present)
		}
		if fm.Type.Present() || fm.Title.Present() || len(fm.Keys) != 0 || len(fm.Tags.Items) != 0 || fm.Runtime().Present() || len(c.Body.Links) != 0 || len(c.Body.Headings) != 0 {
			t.Errorf("%q: the dropped concept keeps its model: %+v %+v", tc.src, fm, c.Body)
		}
	}
}
