package generate

import (
	"strings"
	"testing"
	"time"
)

// TestMergeKeepsOthersSourcesAsWritten: the sources entries gen does not own stay byte for byte
// when gen rewrites its own (docs/gen.md, Nothing lost): the whole list was encoded again, so a
// person's `{id: mine, resource: https://mine.example}   # my source` came back with its URL
// quoted and its spacing changed.
func TestMergeKeepsOthersSourcesAsWritten(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := &ConceptData{Type: "Concept", Title: "One", Description: "First.", URL: "https://x.example/one", SourceTitle: "One", LastModified: at}
	mine := "  - {id: mine,  resource: https://mine.example, title: Mine}   # my source\n  # a note on the next one\n  - id: \"theirs\"\n    resource: 'https://t.example'\n"
	for _, old := range []string{
		strings.Replace(string(d.Render(at)), "sources:\n", "sources:\n"+mine, 1),
		strings.Replace(string(d.Render(at)), "\nstatus:", "\n"+mine+"status:", 1),
	} {
		d2 := *d
		d2.Title, d2.SourceTitle = "One renamed", "One renamed"
		res, err := d2.Merge([]byte(old), at.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		got := string(res.Content)
		if !strings.Contains(got, mine) || !strings.Contains(got, "    title: One renamed\n") {
			t.Errorf("merged:\n%s", got)
		}
	}
}
