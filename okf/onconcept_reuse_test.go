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

// Under ReuseDropped, a concept dropped in OnConcept gives its frontmatter's storage to the
// worker's next file: one worker reading 60 concepts fills a handful of frontmatters, not 60, and
// every concept is still read as it is when nothing is reused: what OnConcept sees of each equals
// a load without the hook. Concepts the hook keeps (not dropped) keep their own frontmatter,
// intact at the end. Without ReuseDropped (the default) every concept has its own.
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

	for _, c := range []struct {
		workers int
		reuse   bool
	}{{1, true}, {3, true}, {3, false}} {
		workers := c.workers
		var mu sync.Mutex
		seen := map[*Frontmatter]bool{}
		kept := map[string]*Concept{}
		b, err := Load(fsys, LoadOptions{Workers: workers, ReuseDropped: c.reuse, OnConcept: func(_ *Bundle, c *Concept) {
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
		if n := len(seen); c.reuse && n > 60/2 {
			t.Errorf("workers %d: %d distinct frontmatters for 60 concepts; the dropped ones' storage is not reused", workers, n)
		} else if !c.reuse && n != 60 {
			t.Errorf("workers %d, without ReuseDropped: %d distinct frontmatters for 60 concepts, want 60", workers, n)
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

// A frontmatter whose Keys' storage a file of many keys grew is not kept for the next file: every
// later file of that worker would carry it, and clear or scan it.
func TestSpareKeysBounded(t *testing.T) {
	var s scratch
	c := &Concept{Frontmatter: &Frontmatter{}}
	small := &Frontmatter{Present: true, uncommon: noUncommon, Keys: make([]Key, 3, 8)}
	c.Drop()
	s.keep(c, small)
	if s.takeSpare() != small {
		t.Fatal("a dropped concept's frontmatter of 3 keys is not kept")
	}
	large := &Frontmatter{Present: true, uncommon: noUncommon, Keys: make([]Key, 5000)}
	s.keep(c, large)
	if s.takeSpare() != nil {
		t.Errorf("a frontmatter of %d keys' storage is kept for the next file (bound %d)", cap(large.Keys), maxSpareKeys)
	}
	kept := &Concept{Frontmatter: small}
	s.keep(kept, small)
	if s.takeSpare() != nil {
		t.Error("the frontmatter of a concept not dropped is kept for the next file")
	}
}

// A reused frontmatter's Keys hold nothing of the earlier file past the new file's keys.
func TestReusedKeysCleared(t *testing.T) {
	var s scratch
	load := func(src string) *Frontmatter {
		t.Helper()
		r := parseFile(job{path: "a.md", kind: conceptFile}, []byte(src), nil, &s, nil, true)
		if r.concept == nil {
			t.Fatalf("%q: no concept", src)
		}
		return r.concept.Frontmatter
	}
	first := load("---\ntype: A\nk1: v1\nk2: v2\nk3: v3\n---\n")
	c := &Concept{Frontmatter: first}
	c.Drop()
	s.keep(c, first)
	second := load("---\ntype: B\n---\n")
	if second != first {
		t.Fatal("the dropped frontmatter was not reused")
	}
	rest := second.Keys[len(second.Keys):cap(second.Keys)]
	for i, k := range rest {
		if k != (Key{}) {
			t.Errorf("Keys storage past the new file's keys still holds %q at %d", k.Name, len(second.Keys)+i)
		}
	}
}
