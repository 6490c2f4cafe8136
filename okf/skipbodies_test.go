package okf

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestSkipBodies checks LoadOptions.SkipBodies against a full load: the same diagnostics, the same
// frontmatters, every concept's Body left empty, and ParseConcept on the file's text giving back
// exactly the Body the full load parsed (okf serve relies on that to parse bodies later).
func TestSkipBodies(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "bundles", "*", "*"))
	corpus, _ := filepath.Glob(filepath.Join(corpusDir(t), "*"))
	dirs = append(dirs, corpus...)
	bodies := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		full, err := LoadDir(dir, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		skip, err := LoadDir(dir, LoadOptions{SkipBodies: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(full.Diagnostics, skip.Diagnostics) {
			t.Errorf("%s: diagnostics differ with SkipBodies:\n%v\n%v", dir, full.Diagnostics, skip.Diagnostics)
		}
		if len(full.Concepts) != len(skip.Concepts) {
			t.Fatalf("%s: %d concepts, %d with SkipBodies", dir, len(full.Concepts), len(skip.Concepts))
		}
		for i, c := range full.Concepts {
			s := skip.Concepts[i]
			if s.Path != c.Path || !reflect.DeepEqual(s.Frontmatter.Keys, c.Frontmatter.Keys) {
				t.Errorf("%s: concept %d differs with SkipBodies: %s / %s", dir, i, s.Path, c.Path)
			}
			if !reflect.DeepEqual(s.Body, &Body{}) {
				t.Errorf("%s: %s has a body with SkipBodies", dir, s.Path)
			}
			src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(c.Path)))
			if err != nil {
				continue // not read by the loader either (a test of unreadable files)
			}
			pc, _ := ParseConcept(c.Path, src)
			if !reflect.DeepEqual(pc.Body, c.Body) {
				t.Errorf("%s: ParseConcept's body of %s differs from the loader's", dir, c.Path)
			}
			if len(c.Body.Links) > 0 {
				bodies++
			}
		}
	}
	if bodies == 0 {
		t.Fatal("no concept with links was compared")
	}
}
