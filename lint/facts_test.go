package lint

import (
	"testing"
	"testing/fstest"
	"unsafe"

	"github.com/okf-tools/okf/okf"
)

// factsBundle: two concepts linking to a deprecated third, which has headings.
func factsBundle(t *testing.T) fstest.MapFS {
	t.Helper()
	return fstest.MapFS{
		"index.md": {Data: []byte("---\nokf_version: \"0.2\"\n---\n# Bundle\n")},
		"a.md":     {Data: []byte("---\ntype: Note\n---\n# A\n\nSee [old](old.md) and [old again](./old.md#two).\n")},
		"b.md":     {Data: []byte("---\ntype: Note\n---\n# B\n\nSee [old](/old.md#one-1).\n")},
		"old.md":   {Data: []byte("---\ntype: Note\nstatus: deprecated\n---\n# One\n\n## Two\n\n## One\n")},
	}
}

// TestFactsEdgePositions: an edge keeps only its line and column, its file being the concept's; a
// library caller's link whose position names another file is reported there still.
func TestFactsEdgePositions(t *testing.T) {
	b, err := okf.Load(okf.NewFileSystem(factsBundle(t), 0), okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := b.Concept("a")
	a.Body.Links[1].Pos.Path = "elsewhere.md"
	ds := Run(b, Options{Now: streamNow, Rules: []*Rule{LinkToDeprecated}})
	var got []string
	for _, d := range ds {
		got = append(got, d.Pos.String())
	}
	want := []string{"a.md:6:5", "b.md:6:5", "elsewhere.md:6:23"}
	if len(got) != len(want) {
		t.Fatalf("findings at %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("finding %d at %q, want %q", i, got[i], want[i])
		}
	}
}

// TestFactsShareTargets: the facts a Stream keeps name each linked file by one string, however
// many links lead to it, and keep a concept's headings in order.
func TestFactsShareTargets(t *testing.T) {
	s := NewStream(Options{Now: streamNow})
	b, err := okf.Load(okf.NewFileSystem(factsBundle(t), 0), okf.LoadOptions{OnConcept: s.OnConcept})
	if err != nil {
		t.Fatal(err)
	}
	var targets []string
	var old headingTexts
	edges, headings := streamColumn(t, s, factEdges), streamColumn(t, s, factHeadings)
	for c, row := range s.rows {
		for _, e := range edges[row].to {
			targets = append(targets, e.target)
		}
		if c.ID == "old" {
			old = headings[row]
		}
	}
	if len(targets) != 3 {
		t.Fatalf("edges to %q, want three to old.md", targets)
	}
	for _, x := range targets[1:] {
		if x != "old.md" || unsafe.StringData(x) != unsafe.StringData(targets[0]) {
			t.Errorf("edge targets %q do not share one string", targets)
		}
	}
	var hs []string
	for i := range old.len() {
		hs = append(hs, old.at(i))
	}
	if len(hs) != 3 || hs[0] != "One" || hs[1] != "Two" || hs[2] != "One" {
		t.Errorf("headings %q, want One, Two, One", hs)
	}
	ds := s.Finish(b)
	n := 0
	for _, d := range ds {
		if d.Code == LinkAnchorMissing.Code {
			n++
		}
	}
	if n != 0 { // #one-1 is the second "One", #two the "Two"
		t.Errorf("%d link-anchor-missing findings, want none: %v", n, ds)
	}
}

// streamColumn returns the column of f a Stream keeps while loading, by row (Stream.rows).
func streamColumn[T any](t *testing.T, s *Stream, f *fact[T]) []T {
	t.Helper()
	for k, g := range s.facts.facts {
		if g == f {
			var rows []T
			for _, ch := range s.facts.cols[k].(*factColumn[T]).pushed {
				rows = append(rows, ch...)
			}
			return rows
		}
	}
	t.Fatalf("the stream does not keep the fact %q", f.name)
	return nil
}
