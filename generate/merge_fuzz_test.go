package generate

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/okf"
)

// FuzzIndexMerge: whatever an index.md holds, okf index either refuses it or merges it into a
// text that a second run leaves as it is (or refuses), and never panics.
func FuzzIndexMerge(f *testing.F) {
	for _, s := range []string{
		"# C\n\n* [A](a.md)\n",
		"# C\n\n1. [**A**](a.md \"t\") <!-- x -->\n  ```\n  code\n  ```\n",
		"# C\r\n\r\n* [A][r]\r\n\r\n[r]: a.md\r\n",
		"---\nokf_version: '0.1'\n---\n# C\n* [Gone](gone.md) - x.\n  more\n",
		"# C\n\n* [A](a.md) <!--\n",
		"Concepts\n===\n\n- [B](b.md) -\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, index string) {
		m := fstest.MapFS{
			"index.md": {Data: []byte(index)},
			"a.md":     concept("Table", "A", "Row a."),
			"b.md":     concept("Table", "B `x` *y*", "Row b."),
		}
		b, err := loadQuiet(m)
		if err != nil {
			return
		}
		cs, err := Indexes(b, IndexOptions{})
		if err != nil {
			return
		}
		for _, c := range cs {
			m[c.Path] = &fstest.MapFile{Data: c.New}
		}
		b, err = loadQuiet(m)
		if err != nil {
			return
		}
		again, err := Indexes(b, IndexOptions{})
		if err == nil && len(again) != 0 {
			t.Errorf("a second run changes %q again:\nfirst  %q\nsecond %q", again[0].Path, m[again[0].Path].Data, again[0].New)
		}
	})
}

// FuzzMergeKeepsOthers: whatever a person added to a concept gen wrote, a merge either refuses it
// or keeps the person's text out of gen's keys (the proof inside Merge), and never panics.
func FuzzMergeKeepsOthers(f *testing.F) {
	for _, s := range []string{"  - {id: mine, resource: https://m.example}\n", "  - id: x\n    resource: y\n", "  -   z\n", "  # c\n  - 1\n"} {
		f.Add(s, false)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, extra string, after bool) {
		d := &ConceptData{Type: "Concept", Title: "One", Description: "First.", URL: "https://x.example/one", SourceTitle: "One", LastModified: at}
		old := string(d.Render(at))
		if after {
			old = strings.Replace(old, "\nstatus:", "\n"+extra+"status:", 1)
		} else {
			old = strings.Replace(old, "sources:\n", "sources:\n"+extra, 1)
		}
		d2 := *d
		d2.Title, d2.URL = "Two", "https://y.example/one"
		_, _ = d2.Merge([]byte(old), at.Add(time.Hour))
	})
}

func loadQuiet(m fstest.MapFS) (*okf.Bundle, error) { return okf.Load(m, okf.LoadOptions{}) }
