package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
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

// TestSessionNotStaleAfterOtherConceptEdit: a per-concept rule that tries to read another concept's
// file through its view is refused (as for a missing file), so a Session, which checks again only
// the concept an edit changed, still gives what Run gives after another concept's text changed.
func TestSessionNotStaleAfterOtherConceptEdit(t *testing.T) {
	peek := &Rule{Code: "OKF0T7", Name: "test-peek-text", Severity: okf.Info, Scope: ScopeConcept, Check: func(p *Pass) {
		for _, c := range p.Bundle.Concepts {
			if c.Path != "a.md" {
				continue
			}
			for _, other := range []string{"b.md", "index.md", "./b.md", "sub/../b.md"} {
				if data, err := p.Bundle.ReadFile(other); err == nil {
					p.Reportf(okf.Position{Path: c.Path, Line: 1, Col: 1}, "%s reads %q", other, strings.SplitN(string(data), "\n", 4)[2])
				}
			}
			if _, err := p.Bundle.ReadFile("a.md"); err != nil {
				p.Reportf(okf.Position{Path: c.Path, Line: 1, Col: 1}, "own file unreadable: %v", err)
			}
		}
	}}
	files := map[string]string{
		"index.md": "# Metrics\n\n* [A](a.md) - The a.\n",
		"a.md":     "---\ntype: Metric\ntitle: A\n---\n# A\n",
		"b.md":     "---\ntype: Metric\ntitle: B\n---\n# B\n",
		"sub/c.md": "---\ntype: Metric\ntitle: C\n---\n# C\n",
	}
	b := load(t, files)
	opts := Options{Now: streamNow, Rules: []*Rule{peek}}
	m := fstest.MapFS{}
	for p, d := range files {
		m[p] = &fstest.MapFile{Data: []byte(d)}
	}
	if run, stream := lintBoth(t, m, opts); len(run) != 0 || len(stream) != 0 {
		t.Errorf("a per-concept rule read another file's text through its view: run %v, stream %v", run, stream)
	}
	s := NewSession(opts)
	if got, want := s.Check(b), Run(b, opts); !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded: session %v, run %v", got, want)
	}
	nb, ok := b.WithFile("b.md", []byte("---\ntype: Metric\ntitle: B2\n---\n# B\n"), okf.LoadOptions{})
	if !ok {
		t.Fatal("edit not applied")
	}
	got, want := s.Check(nb), Run(nb, opts)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after editing b.md: session %v, run %v", got, want)
	}
	if len(want) != 0 {
		t.Errorf("a per-concept rule read another file's text through its view: %v", want)
	}
}
