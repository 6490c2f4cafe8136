package attest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestOnConceptKeepsWhatAttestReads: with OnConcept dropping the other concepts as the bundle
// loads, every test bundle and corpus bundle gives the same computations (contracts, sources,
// attesters, who links to them) and the same Check findings as the bundle held whole.
func TestOnConceptKeepsWhatAttestReads(t *testing.T) {
	var dirs []string
	for _, pattern := range []string{filepath.Join("..", "testdata", "bundles", "*"), filepath.Join("..", "testdata", "bundles", "*", "*"), filepath.Join("..", "..", "shared", "corpus", "*")} {
		m, _ := filepath.Glob(pattern)
		for _, d := range m {
			if info, err := os.Stat(d); err == nil && info.IsDir() {
				dirs = append(dirs, d)
			}
		}
	}
	linked := 0
	for _, dir := range dirs {
		whole, err := okf.LoadDir(dir, okf.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		dropped, err := okf.LoadDir(dir, okf.LoadOptions{OnConcept: OnConcept})
		if err != nil {
			t.Fatal(err)
		}
		a, b := Computations(whole, false), Computations(dropped, false)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("%s: computations differ:\n whole:   %s\n dropped: %s", dir, ja, jb)
		}
		if da, db := Check(whole, a), Check(dropped, b); !reflect.DeepEqual(da, db) {
			t.Errorf("%s: Check differs:\n whole:   %v\n dropped: %v", dir, da, db)
		}
		for _, c := range a {
			linked += len(c.LinkedFrom)
		}
		for _, c := range dropped.Concepts {
			if !IsComputation(c) && (c.Frontmatter.Title.Present() || len(c.Body.Headings) > 0) {
				t.Errorf("%s: %s keeps its model", dir, c.Path)
			}
		}
	}
	if linked == 0 {
		t.Fatal("no computation is linked from another concept: the case tests nothing")
	}
}
