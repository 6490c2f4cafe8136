package generate

import (
	"strings"
	"testing"
	"time"
)

// TestMergeCRLF: a concept gen wrote whose line ends became CRLF (git's autocrlf on Windows, an
// editor) is still gen's: its block is regenerated when the post changes, and the file keeps CRLF
// throughout. The block's hash, taken over LF text, no longer matched: gen kept the old body for
// good as a person's edit, while the log said the concept was regenerated, and wrote its keys with
// LF into a CRLF file.
func TestMergeCRLF(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := &ConceptData{Type: "Concept", Title: "Two", Description: "Second post.", URL: "https://x.example/two", SourceTitle: "Two", LastModified: at}
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	old := crlf(string(d.Render(at))) + "\r\n## Mine\r\n\r\nCRLF words.\r\n"

	same, err := d.Merge([]byte(old), at.Add(time.Hour))
	if err != nil || same.Changed || same.BodyKept {
		t.Fatalf("the same post: changed %v, body kept %v, %v; want nothing to do", same.Changed, same.BodyKept, err)
	}

	d2 := *d
	d2.Title, d2.SourceTitle, d2.Description = "Two renamed", "Two renamed", "Second post changed."
	res, err := d2.Merge([]byte(old), at.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	got := string(res.Content)
	if res.BodyKept || !strings.Contains(got, "Read the full post: [Two renamed]") {
		t.Errorf("the block was not regenerated (body kept %v):\n%q", res.BodyKept, got)
	}
	if strings.Count(got, "\n") != strings.Count(got, "\r\n") {
		t.Errorf("line ends mixed:\n%q", got)
	}
	if !strings.HasSuffix(got, "<!-- okf-gen:end -->\r\n\r\n## Mine\r\n\r\nCRLF words.\r\n") {
		t.Errorf("the person's section moved:\n%q", got)
	}
	again, err := d2.Merge(res.Content, at.Add(2*time.Hour))
	if err != nil || again.Changed {
		t.Errorf("a second run changes it again (%v):\n%q", err, again.Content)
	}
}
