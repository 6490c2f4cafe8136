package migrate_test

import (
	"strings"
	"testing"
)

// TestCitationsNothingDropped: a Citations item is moved into one sources entry, which holds one
// resource and a title: an item with a second link lost that link's URL (`[One](…/one) and
// [Two](…/two)` became resource …/one, title "One and Two"), and a comment in an item was dropped.
// Such an item is not mechanical: the file is left untouched and listed, as for a section that
// holds more than its list.
func TestCitationsNothingDropped(t *testing.T) {
	for _, tc := range []struct{ item, why string }{
		{"1. [One](https://example.com/one) and [Two](https://example.com/two)", "kb/a.md:10:1: a Citations item holds more than one link: ambiguous, left untouched (move it into sources by hand)"},
		{"1. [One](https://example.com/one) <!-- checked in May -->", "kb/a.md:10:1: a Citations item holds a comment: ambiguous, left untouched (move it into sources by hand)"},
	} {
		dir := bundle(t, map[string]string{
			"kb/index.md": "# C\n\n* [A](a.md) - x.\n",
			"kb/a.md":     "---\ntype: T\ntitle: A\ndescription: x.\n---\nBody.\n\n## Citations\n\n" + tc.item + "\n2. [Three](https://example.com/three)\n",
		})
		p := plan(t, dir+"/kb")
		if got := newText(p, "a.md"); got != "" {
			t.Errorf("%q: migrated to\n%s", tc.item, got)
		}
		var left []string
		for _, l := range p.Left {
			left = append(left, "kb/"+l.Pos.String()+": "+l.Message)
		}
		if !strings.Contains(strings.Join(left, "\n"), tc.why) {
			t.Errorf("%q: left %q, want %q", tc.item, left, tc.why)
		}
	}
}
