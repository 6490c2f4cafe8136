package generate

import (
	"strings"
	"testing"
	"time"
)

// TestMergeURLMovedKeepsOthersSources: when the post's URL changes (a new --site, a new URL
// template), gen's own entry in sources is the one holding the URL its block last linked to. It
// took the first entry instead: a person's own source listed first ("My paper") was overwritten
// with the post's URL and title, and lost.
func TestMergeURLMovedKeepsOthersSources(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := &ConceptData{Type: "Concept", Title: "One", Description: "First.", URL: "https://x.example/one", SourceTitle: "One", LastModified: at}
	mine := "  - id: mine\n    resource: https://mine.example/paper\n    title: My paper\n"
	gen := string(d.Render(at))

	moved := *d
	moved.URL = "https://y.example/one"
	for _, tc := range []struct{ name, old string }{
		{"a person's source first", strings.Replace(gen, "sources:\n", "sources:\n"+mine, 1)},
		{"a person's source after gen's", strings.Replace(gen, "\nstatus:", "\n"+mine+"status:", 1)},
	} {
		res, err := moved.Merge([]byte(tc.old), at.Add(time.Hour))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := string(res.Content)
		if !strings.Contains(got, mine) {
			t.Errorf("%s: the person's source is gone:\n%s", tc.name, got)
		}
		if strings.Contains(got, "https://x.example/one\n") || strings.Count(got, "resource: https://y.example/one\n") != 1 {
			t.Errorf("%s: gen's entry not moved to the new URL:\n%s", tc.name, got)
		}
	}

	// A block a person edited no longer says which URL gen wrote: gen's entry is added, and no
	// other is taken.
	edited := strings.Replace(strings.Replace(gen, "sources:\n", "sources:\n"+mine, 1), "# Summary", "# My summary", 1)
	res, err := moved.Merge([]byte(edited), at.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Content); !strings.Contains(got, mine) || !strings.Contains(got, "resource: https://y.example/one\n") {
		t.Errorf("edited block:\n%s", got)
	}
}
