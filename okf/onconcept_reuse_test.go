package okf

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// reuseBundle is 60 concepts whose frontmatters differ in every key and in how many keys they
// have (1 to 9), so that a frontmatter filled over an earlier one shows any value left behind.
func reuseBundle() fstest.MapFS {
	fsys := fstest.MapFS{}
	for i := 0; i < 60; i++ {
		var fm strings.Builder
		fmt.Fprintf(&fm, "type: T%d\ntitle: Title %d\n", i, i)
		for k := 0; k < i%8; k++ {
			fmt.Fprintf(&fm, "k%d_%d: v%d\n", i, k, k)
		}
		if i%3 == 0 {
			fmt.Fprintf(&fm, "tags: [t%d, u%d]\ngenerated: {by: human:%d, at: 2026-01-%02d}\n", i, i, i, i%28+1)
		}
		if i%5 == 0 {
			fm.WriteString("stale_after: 2027-01-01\n")
		}
		fsys[fmt.Sprintf("c%02d.md", i)] = &fstest.MapFile{Data: []byte("---\n" + fm.String() + "---\n# C\n")}
	}
	return fsys
}

// keysOf is what a frontmatter says, as plain values (nothing pointing into its storage).
func keysOf(f *Frontmatter) string {
	var b strings.Builder
	for _, k := range f.Keys {
		fmt.Fprintf(&b, "%s@%d:%d=%s|", k.Name, k.Pos.Line, k.Pos.Col, k.Value.Raw)
	}
	fmt.Fprintf(&b, "type=%s title=%s tags=%v gen=%v stale=%v", f.Type.Raw, f.Title.Raw, f.Tags.Items, f.Generated != nil, f.StaleAfter().Present())
	return b.String()
}

// A concept dropped in OnConcept gives its frontmatter's storage to the worker's next file: one
// worker reading 60 concepts fills a handful of frontmatters, not 60, and every concept is still
// read as it is when nothing is reused: what OnConcept sees of each equals a load without the
// hook. Concepts the hook keeps (not dropped) keep their own frontmatter, intact at the end.
func TestOnConceptReusesDroppedFrontmatter(t *testing.T) {
	fsys := reuseBundle()
	whole, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, c := range whole.Concepts {
		want[c.Path] = keysOf(c.Frontmatter)
	}

	for _, workers := range []int{1, 3} {
		var mu sync.Mutex
		seen := map[*Frontmatter]bool{}
		kept := map[string]*Concept{}
		b, err := Load(fsys, LoadOptions{Workers: workers, OnConcept: func(_ *Bundle, c *Concept) {
			got := keysOf(c.Frontmatter)
			mu.Lock()
			defer mu.Unlock()
			seen[c.Frontmatter] = true
			if got != want[c.Path] {
				t.Errorf("workers %d, %s: OnConcept sees %s, want %s", workers, c.Path, got, want[c.Path])
			}
			if strings.HasSuffix(c.Path, "7.md") {
				kept[c.Path] = c // not dropped: its frontmatter stays its own
				return
			}
			c.Drop()
		}})
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Concepts) != 60 {
			t.Fatalf("workers %d: %d concepts loaded", workers, len(b.Concepts))
		}
		if n := len(seen); n > 60/2 {
			t.Errorf("workers %d: %d distinct frontmatters for 60 concepts; the dropped ones' storage is not reused", workers, n)
		}
		for p, c := range kept {
			if got := keysOf(c.Frontmatter); got != want[p] {
				t.Errorf("workers %d, %s (kept, not dropped): after the load its frontmatter says %s, want %s", workers, p, got, want[p])
			}
		}
		for _, c := range b.Concepts {
			if _, ok := kept[c.Path]; !ok && !reflect.DeepEqual(c.Frontmatter, droppedPresent) {
				t.Errorf("workers %d, %s: a dropped concept's frontmatter is not the dropped one", workers, c.Path)
			}
		}
	}
}
