package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
)

// TestSessionMatchesRun: a Session's findings are Run's, on every fixture bundle and the corpus,
// after the first check and after each concept is edited in turn (WithFile), including an edit that
// breaks its frontmatter, one that links to a file that does not exist, and one that duplicates
// another concept's title (a cross-file finding on both files).
func TestSessionMatchesRun(t *testing.T) {
	var dirs []string
	for _, pat := range []string{"../testdata/bundles/*", "testdata/rules/*/*", "../../shared/corpus/*"} {
		m, _ := filepath.Glob(pat)
		dirs = append(dirs, m...)
	}
	now := time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)
	checked := 0
	for _, dir := range dirs {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		b, err := okf.LoadDir(dir, okf.LoadOptions{})
		if err != nil || len(b.Concepts) == 0 {
			continue
		}
		opts := Options{Now: now}
		s := NewSession(opts)
		same := func(what string, b *okf.Bundle) {
			t.Helper()
			got, want := s.Check(b), Run(b, opts)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %s: session\n%v\nrun\n%v", dir, what, got, want)
			}
		}
		same("loaded", b)
		same("again", b)
		other := b.Concepts[0].Frontmatter.Title.Text()
		for i, c := range b.Concepts {
			if i >= 5 {
				break
			}
			src, err := b.ReadFile(c.Path)
			if err != nil {
				continue
			}
			for _, edit := range []string{
				strings.Replace(string(src), "title:", "title: "+other+" #", 1),
				string(src) + "\nSee [gone](gone-" + c.ID + ".md).\n",
				"---\ntype: [\n---\n",
				string(src),
			} {
				nb, ok := b.WithFile(c.Path, []byte(edit), okf.LoadOptions{})
				if !ok {
					t.Fatalf("%s: %s not applied", dir, c.Path)
				}
				same("after editing "+c.Path, nb)
				b = nb
			}
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("only %d bundles checked", checked)
	}
}
