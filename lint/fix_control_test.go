package lint

import (
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestIndexEntryNoControlCharacters: the entry concept-not-indexed's fix appends to index.md holds
// no raw control character from the concept's title or description (YAML's "\e" is an ESC): raw in
// the file, it would drive the terminal of whoever runs cat or git diff on it. It is written \xNN,
// as okf index writes it.
func TestIndexEntryNoControlCharacters(t *testing.T) {
	c := &okf.Concept{ID: "a", Path: "a.md"}
	got := indexEntryFor(c, "A\x1b]8;;https://x.example\x07B\x7f\u009b", "Row\x1b[31m a.")
	want := `* [A\\x1b\]8;;https://x.example\\x07B\\x7f\\x9b](a.md) - Row\x1b[31m a.`
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
